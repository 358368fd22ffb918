import { randomUUID } from 'node:crypto';
import { type AuditEntryView, describeAuditEntry, ContentPerm as P } from '@cc/contracts';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildCourse, buildLesson, buildQuiz } from '../../test/learning-factories';
import { multipart, scorm12Package } from '../../test/package-factories';
import { pdfText } from '../../test/pdf-text';
import { insertSession, placeDelegate, sessionsWorld } from '../bookings/sessions-world';
import { as as asDocs, documentsWorld, open as openDocument, requiredDocument } from '../documents/fixtures';
import { as, csv, importerWorld, planCsv, runJobs } from '../importer/fixtures';
import { registerImporterJobs } from '../importer/jobs';
import { runDueJobs } from '../jobs/queue';

/**
 * The audit trail of results nobody typed in (issue 35 §3): a pass earned by taking training online (e-learning with
 * its quiz, a SCORM package), offline on a device and synced, by a trainer's attendance mark, and the records the
 * importer applies and undoes. Each writes its entry in the result's own transaction, saying who (the learner, the
 * trainer, the person who ran the import), acting as whom and how; the read routes and the inspection pack show them,
 * and an import's batch writes its entries in one statement.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ packageOrigin: undefined });
});
afterAll(async () => h?.close());

const DAY = 86_400_000;

async function entriesFor(userId: number) {
  return h.db
    .selectFrom('audit_entries')
    .selectAll()
    .where('subject_user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** A reader of the trail (24) in `entityId`. */
async function reader(entityId: number) {
  return clientFor(h.app, h.db, (await buildUser(h.db, { entityId, permissions: [13, 24] })).id);
}

/** The person's history through GET /audit/users/{id}, as the History card reads it. */
async function history(entityId: number, userId: number): Promise<AuditEntryView[]> {
  const res = await (await reader(entityId))('GET', `/api/audit/users/${userId}?per_page=50`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('results earned by taking training', () => {
  it('e-learning passed online (its quiz, then its last topic): one entry by the learner, in the same transaction', async () => {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [], name: 'Casey Online' });
    const content = await buildContent(h.db, entity.id, {
      courseTitle: `Safeguarding ${entity.slug}`,
      title: 'Safeguarding basics',
    });
    const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Only topic' }]);
    const { quiz, questions } = await buildQuiz(
      h.db,
      content.id,
      entity.id,
      [{ answers: ['A', 'B'], correct: [0] }],
      {
        passMark: 50,
      },
    );
    const call = await clientFor(h.app, h.db, learner.id);
    const attempt = (
      await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })
    ).json().data;
    const sheet = (
      await call('POST', '/api/quizzes/take', { attempt_id: attempt.id, quiz_id: quiz.id })
    ).json().data;
    const responses = Object.fromEntries(
      questions.map((q) => [String(q.id), q.answers.filter((a) => a.is_correct).map((a) => a.id)]),
    );
    await call('POST', '/api/quizzes/take', { quiz_attempt_id: sheet.quiz_attempt_id, responses });
    // Nothing recorded until the attempt is done.
    expect(await entriesFor(learner.id)).toEqual([]);
    const done = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      completed_topic_id: topics[0]?.id,
    });
    expect(done.json().data).toMatchObject({ status: 'passed' });
    const result = await h.db
      .selectFrom('results')
      .select('id')
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    const rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'created',
      subject_kind: 'result',
      subject_id: result.id,
      subject_entity_id: entity.id,
      actor_user_id: learner.id,
      actor_name: 'Casey Online',
      before: null,
      via: { how: 'elearning', label: 'Safeguarding basics', ref: String(attempt.id), detail: null },
    });
    expect(rows[0]?.ip).toBeTruthy();
    expect(rows[0]?.after).toMatchObject({
      passed: true,
      type: 'elearning',
      course_label: `Safeguarding ${entity.slug}`,
    });

    const [seen] = await history(entity.id, learner.id);
    expect(seen?.via).toMatchObject({ how: 'elearning', label: 'Safeguarding basics' });
    expect(describeAuditEntry(seen as AuditEntryView)).toMatch(
      new RegExp(
        `^Casey Online earned a pass for Safeguarding ${entity.slug} on \\d\\d/\\d\\d/\\d{4} by passing “Safeguarding basics” online\\.$`,
      ),
    );
    const one = await (await reader(entity.id))('GET', `/api/audit/results/${result.id}`);
    expect(one.json().data.map((e: AuditEntryView) => e.via?.how)).toEqual(['elearning']);
  });

  it('a SCORM package passed online: an entry by the learner, via scorm', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const author = await bearer(
      h.db,
      (
        await buildUser(h.db, {
          entityId: org.id,
          permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
        })
      ).id,
    );
    const learner = await buildUser(h.db, { entityId: org.id, permissions: [] });
    const content = await buildContent(h.db, org.id, { type: 'scorm', title: 'Golf explained' });
    const body = multipart('package', 'package.zip', scorm12Package());
    const up = await h.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const call = await clientFor(h.app, h.db, learner.id);
    const attempt = (
      await call('POST', `/api/users/${learner.id}/attempts`, { content_id: content.id })
    ).json().data;
    const done = await call('PATCH', `/api/attempts/${attempt.id}`, {
      version: 1,
      cmi: { cmi: { core: { lesson_status: 'passed', score: { raw: '85' } } } },
    });
    expect(done.json().data, done.body).toMatchObject({ status: 'passed', score: 85 });
    const rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'created',
      actor_user_id: learner.id,
      via: { how: 'scorm', label: 'Golf explained' },
    });
    expect(rows[0]?.after).toMatchObject({ passed: true, type: 'scorm', score: 85 });
  });

  it('an attempt taken offline and synced: one entry by the learner, via offline; the resend writes none', async () => {
    const entity = await buildEntity(h.db);
    const learner = await buildUser(h.db, { entityId: entity.id, permissions: [], name: 'Olly Offline' });
    const content = await buildContent(h.db, entity.id, {
      courseTitle: 'Moving and handling',
      title: 'Moving safely',
    });
    const { topics } = await buildLesson(h.db, content.id, entity.id, [{ title: 'Why' }, { title: 'How' }]);
    const call = await clientFor(h.app, h.db, learner.id);
    const dl = (await call('POST', '/api/offline/downloads', { content_id: content.id })).json().data;
    const sync = {
      client_uuid: randomUUID(),
      download_id: dl.download_id,
      content_id: content.id,
      started_at: new Date().toISOString(),
      completed_at: new Date().toISOString(),
      completed_topic_ids: topics.map((t) => t.id),
      quiz_responses: {},
    };
    const res = await call('POST', '/api/offline/attempts', sync);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ status: 'passed', counted: true });
    expect((await call('POST', '/api/offline/attempts', sync)).statusCode).toBe(200);
    const rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'created',
      actor_user_id: learner.id,
      via: { how: 'offline', label: 'Moving safely' },
    });
    expect(rows[0]?.after).toMatchObject({
      passed: true,
      type: 'elearning',
      course_label: 'Moving and handling',
    });
    const [seen] = await history(entity.id, learner.id);
    expect(describeAuditEntry(seen as AuditEntryView)).toContain(
      'Olly Offline earned a pass for Moving and handling on ',
    );
    expect(describeAuditEntry(seen as AuditEntryView)).toContain(
      'by passing “Moving safely” offline on a device',
    );
    // GraphQL answers the same entry with how it came about (a change made through a form has via null).
    const manager = await buildUser(h.db, { entityId: entity.id, permissions: [13, 24] });
    const gql = (
      await h.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: await bearer(h.db, manager.id),
        payload: {
          query: `query { userHistory(id: "${learner.uuid}") { data { action kind via { how label ref detail } } } }`,
        },
      })
    ).json();
    expect(gql.errors).toBeUndefined();
    expect(gql.data.userHistory.data).toEqual([
      {
        action: 'created',
        kind: 'result',
        via: { how: 'offline', label: 'Moving safely', ref: expect.any(String), detail: null },
      },
    ]);
  });

  it("attendance: the trainer's mark is an entry by the trainer; a re-mark records before and after; a refused mark none", async () => {
    const w = await sessionsWorld(h);
    const s = await insertSession(h, {
      entityId: w.org.id,
      contentId: w.f2f.id,
      courseId: w.f2f.course_id,
      trainerId: w.trainer.id,
      startsAt: new Date(Date.now() - 2 * DAY),
    });
    const d = await placeDelegate(h, s.id, w.learner);
    const trainer = await w.as(w.trainer.id);
    const url = `/api/training-sessions/${s.id}/attendance`;
    // A refused mark (a field error) writes nothing.
    const refused = await trainer('POST', url, {
      marks: [
        { delegate_id: d.id, attendance: 'attended' },
        { delegate_id: d.id, attendance: 'attended' },
      ],
    });
    expect(refused.statusCode).toBe(422);
    expect(await entriesFor(w.learner.id)).toEqual([]);

    expect(
      (await trainer('POST', url, { marks: [{ delegate_id: d.id, attendance: 'attended' }] })).statusCode,
    ).toBe(200);
    const first = await h.db
      .selectFrom('session_delegates')
      .select('result_id')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    let rows = await entriesFor(w.learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'created',
      subject_id: first.result_id,
      actor_user_id: w.trainer.id,
      actor_name: 'Tia Trainer',
      before: null,
      via: { how: 'attendance', ref: s.uuid, detail: 'attended' },
    });
    expect(rows[0]?.after).toMatchObject({ passed: true, type: 'face2face' });

    expect(
      (await trainer('POST', url, { marks: [{ delegate_id: d.id, attendance: 'no_show' }] })).statusCode,
    ).toBe(200);
    const second = await h.db
      .selectFrom('session_delegates')
      .select('result_id')
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    rows = await entriesFor(w.learner.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({
      action: 'updated',
      subject_id: second.result_id,
      actor_user_id: w.trainer.id,
      via: { how: 'attendance', detail: 'no_show' },
    });
    expect(rows[1]?.before).toMatchObject({ id: first.result_id, passed: true, deleted_at: null });
    expect(rows[1]?.after).toMatchObject({ id: second.result_id, passed: false });

    const seen = await history(w.org.id, w.learner.id);
    expect(seen.map((e) => describeAuditEntry(e))).toEqual([
      expect.stringMatching(
        /^Tia Trainer changed Lee Learner's attendance mark at the session “.+” to a no-show: now a fail for .+ on \d\d\/\d\d\/\d{4}\.$/,
      ),
      expect.stringMatching(
        /^Tia Trainer marked Lee Learner as attended at the session “.+”: a pass for .+ on \d\d\/\d\d\/\d{4}\.$/,
      ),
    ]);
  });
});

describe('results earned by reading a document and by completing a pathway', () => {
  it('a document acknowledged: by the reader, via document; a pathway finished by a pass: by the system, via pathway', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    await openDocument(h, w.learner.id, doc.id);
    const learner = await asDocs(h, w.learner.id);
    const ack = await learner('POST', `/api/documents/${doc.id}/acknowledge`, {
      typed_name: 'Lee Learner',
      version: 1,
    });
    expect(ack.statusCode, ack.body).toBe(201);
    let rows = await entriesFor(w.learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'created',
      actor_user_id: w.learner.id,
      via: { how: 'document', ref: String(doc.id), detail: 'version 1' },
    });
    expect(rows[0]?.after).toMatchObject({ type: 'document', passed: true });

    // A pathway of one course step, finished by a pass a manager records: its 'pathway' result is the system's.
    const admin = await clientFor(h.app, h.db, (await buildUser(h.db, { superAdmin: true })).id);
    const course = await buildCourse(h.db, w.group.id, { title: `Induction ${w.group.id}` });
    const made = await admin('POST', '/api/pathways', {
      title: 'Birch induction',
      sequential: false,
      requires_final_sign_off: false,
      steps: [{ type: 'course', course_id: course.id }],
    });
    expect(made.statusCode, made.body).toBe(201);
    const allocated = await admin('POST', `/api/pathways/${made.json().data.id}/allocations`, {
      user_ids: [w.learner.id],
    });
    expect(allocated.statusCode, allocated.body).toBe(201);
    const recorded = await admin('POST', '/api/results/historical/create', {
      user_id: w.learner.id,
      course_id: course.id,
      passed: true,
      completed_at: new Date(Date.now() - DAY).toISOString().slice(0, 10),
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    rows = await entriesFor(w.learner.id);
    const pathway = rows.find((r) => (r.via as { how?: string } | null)?.how === 'pathway');
    expect(pathway, JSON.stringify(rows.map((r) => r.via))).toMatchObject({
      action: 'created',
      actor_user_id: null,
      via: { how: 'pathway', label: 'Birch induction' },
    });
    expect(pathway?.after).toMatchObject({ type: 'pathway', passed: true });
    const seen = await history(w.group.id, w.learner.id);
    expect(seen.map((e) => describeAuditEntry(e))).toContainEqual(
      expect.stringMatching(
        /^The system recorded Lee Learner's pass for Birch induction on \d\d\/\d\d\/\d{4}, for completing the pathway\.$/,
      ),
    );
    expect(seen.map((e) => describeAuditEntry(e))).toContainEqual(
      expect.stringMatching(
        /^Lee Learner earned a pass for .+ on \d\d\/\d\d\/\d{4} by reading and acknowledging the document\.$/,
      ),
    );
  });
});

/** Counts the INSERTs into audit_entries a database handle makes (the importer's jobs run on it below). */
function countAuditInserts() {
  const counter = { inserts: 0 };
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      const n = node as RootOperationNode & { into?: { table?: { identifier?: { name?: string } } } };
      if (n.kind === 'InsertQueryNode' && n.into?.table?.identifier?.name === 'audit_entries')
        counter.inserts += 1;
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
  return { counter, db: h.db.withPlugin(plugin) };
}

describe('records applied and undone by the importer', () => {
  it('training records: imported, updated by a second file, undone; by the person who ran it; one INSERT a batch', async () => {
    const w = await importerWorld(h);
    const learner = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id, name: 'Ira Imported' });
    const { email } = await h.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', learner.id)
      .executeTakeFirstOrThrow();
    // 1,200 passes on as many days: two batches of the apply job (BATCH 1000).
    const start = Date.UTC(2020, 0, 1);
    const days = Array.from({ length: 1200 }, (_, i) => new Date(start + i * DAY).toISOString().slice(0, 10));
    const plan = (
      await planCsv(
        h,
        w.importer.id,
        'training',
        csv([['email', 'course', 'completed_date'], ...days.map((d) => [email, w.course.title, d])]),
        'training-2020.csv',
      )
    ).json().data;
    expect(plan.counts).toMatchObject({ create: 1200, errors: 0 });
    const c = await as(h, w.importer.id);
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/apply`)).statusCode).toBe(202);
    const counted = countAuditInserts();
    registerImporterJobs();
    await runDueJobs({ ...h.deps, db: counted.db }, new Date());
    expect((await c('GET', `/api/importer/imports/${plan.uuid}`)).json().data.import.status).toBe('applied');
    expect(counted.counter.inserts).toBe(2);
    let rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1200);
    expect(rows.every((r) => r.action === 'created' && r.subject_kind === 'result')).toBe(true);
    expect(rows[0]).toMatchObject({
      actor_user_id: w.importer.id,
      // The import's organisation is the importer's own: not acting as another.
      acting_as_entity_id: null,
      subject_entity_id: w.home.id,
      before: null,
      via: { how: 'import', label: 'training-2020.csv', ref: plan.uuid },
    });
    expect(rows[0]?.after).toMatchObject({
      passed: true,
      type: 'historical',
      completed_at: '2020-01-01T00:00:00.000Z',
    });

    // A second file: the pass of 01/01/2020 with an expiry date updates that record.
    const second = (
      await planCsv(
        h,
        w.importer.id,
        'training',
        csv([
          ['email', 'course', 'completed_date', 'expiry_date'],
          [email, w.course.title, '2020-01-01', '2030-06-30'],
        ]),
        'expiry-fix.csv',
      )
    ).json().data;
    expect(second.counts, JSON.stringify(second)).toMatchObject({ update: 1 });
    expect((await c('POST', `/api/importer/imports/${second.uuid}/apply`)).statusCode).toBe(202);
    await runJobs(h);
    rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1201);
    const updated = rows[1200] as (typeof rows)[number];
    expect(updated).toMatchObject({
      action: 'updated',
      subject_id: rows[0]?.subject_id,
      via: { how: 'import', label: 'expiry-fix.csv' },
    });
    expect((updated.after as { expires_at: string }).expires_at).toBe('2030-06-30T00:00:00.000Z');
    expect((updated.before as { expires_at: string }).expires_at).not.toBe('2030-06-30T00:00:00.000Z');

    // Undo the second (the expiry comes back), then the first (its records removed): import_undo.
    expect((await c('POST', `/api/importer/imports/${second.uuid}/undo`)).statusCode).toBe(202);
    await runJobs(h);
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/undo`)).statusCode).toBe(202);
    const undoCount = countAuditInserts();
    await runDueJobs({ ...h.deps, db: undoCount.db }, new Date());
    expect(undoCount.counter.inserts).toBe(2);
    rows = await entriesFor(learner.id);
    expect(rows).toHaveLength(1201 + 1 + 1200);
    expect(rows[1201]).toMatchObject({
      action: 'updated',
      via: { how: 'import_undo', label: 'expiry-fix.csv' },
    });
    expect((rows[1201]?.after as { expires_at: string } | undefined)?.expires_at).toBe(
      (updated.before as { expires_at: string }).expires_at,
    );
    expect(rows.slice(1202).every((r) => r.action === 'deleted' && r.after === null)).toBe(true);
    expect(rows[1202]).toMatchObject({
      actor_user_id: w.importer.id,
      via: { how: 'import_undo', label: 'training-2020.csv' },
    });

    // The read routes and the sentences.
    const home = await (await reader(w.group.id))(
      'GET',
      `/api/audit/entities/${w.home.slug}?kind=result&per_page=1`,
    );
    expect(home.json().meta.total).toBe(2402);
    const newest = home.json().data[0] as AuditEntryView;
    expect(describeAuditEntry(newest)).toMatch(
      new RegExp(
        `^${w.importer.name} undid the import of “training-2020.csv”: removed Ira Imported's pass for ${w.course.title} on \\d\\d/\\d\\d/\\d{4}\\.$`,
      ),
    );
    const fix = (await (await reader(w.group.id))('GET', `/api/audit/results/${rows[0]?.subject_id}`)).json()
      .data as AuditEntryView[];
    expect(fix.map((e) => describeAuditEntry(e))).toEqual([
      expect.stringContaining('undid the import of “training-2020.csv”: removed Ira Imported'),
      expect.stringContaining(
        `undid the import of “expiry-fix.csv”: changed back the end date of Ira Imported's result for ${w.course.title}`,
      ),
      expect.stringContaining(
        `changed the end date of Ira Imported's result for ${w.course.title}, imported from “expiry-fix.csv”`,
      ),
      expect.stringContaining(
        `imported Ira Imported's pass for ${w.course.title} on 01/01/2020 from “training-2020.csv”`,
      ),
    ]);
  });

  it('people: added and changed by an import, removed and changed back by its undo; the inspection pack lists them', async () => {
    const w = await importerWorld(h);
    const existing = await buildUser(h.db, {
      entityId: w.home.id,
      name: 'Old Name',
      email: `kim-${w.group.slug}@example.test`,
    });
    const file = csv([
      ['name', 'email', 'organisation', 'job_role'],
      ['Amy Carter', `amy-${w.group.slug}@example.test`, w.home.slug, 'Care Assistant'],
      ['Kim New', `kim-${w.group.slug}@example.test`, w.home.slug, 'Care Assistant'],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'users', file, 'staff.csv')).json().data;
    expect(plan.counts, JSON.stringify(plan)).toMatchObject({ create: 1, update: 1 });
    const c = await as(h, w.importer.id);
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/apply`)).statusCode).toBe(202);
    await runJobs(h);
    const amy = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', `amy-${w.group.slug}@example.test`)
      .executeTakeFirstOrThrow();
    const [added] = await entriesFor(amy.id);
    expect(added).toMatchObject({
      action: 'created',
      subject_kind: 'user',
      actor_user_id: w.importer.id,
      via: { how: 'import', label: 'staff.csv' },
    });
    const [changed] = await entriesFor(existing.id);
    expect(changed).toMatchObject({ action: 'updated', via: { how: 'import' } });
    expect(changed?.before).toMatchObject({ name: 'Old Name', role_id: null });
    expect(changed?.after).toMatchObject({
      name: 'Kim New',
      role_id: w.role.id,
      role_label: 'Care Assistant',
    });

    // The inspection pack's "Changes to training records" lists what the import did, in words.
    const packer = await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { entityId: w.group.id, permissions: [13, 24] })).id,
    );
    const queued = (await packer('POST', `/api/entities/${w.home.slug}/inspection-pack`)).json().data;
    await runDueJobs(h.deps, new Date());
    const status = (await packer('GET', `/api/inspection-packs/${queued.id}`)).json().data;
    expect(status.status, JSON.stringify(status)).toBe('done');
    const text = (await pdfText((await packer('GET', status.pdf_url)).rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('added Amy Carter, imported from “staff.csv”');

    expect((await c('POST', `/api/importer/imports/${plan.uuid}/undo`)).statusCode).toBe(202);
    await runJobs(h);
    const gone = await entriesFor(amy.id);
    expect(gone.map((e) => e.action)).toEqual(['created', 'deleted']);
    expect(gone[1]).toMatchObject({ after: null, via: { how: 'import_undo', label: 'staff.csv' } });
    const back = await entriesFor(existing.id);
    expect(back[1]).toMatchObject({ action: 'updated', via: { how: 'import_undo' } });
    expect(back[1]?.after).toMatchObject({ name: 'Old Name', role_id: null });
    const seen = await history(w.group.id, existing.id);
    expect(describeAuditEntry(seen[0] as AuditEntryView)).toContain(
      'undid the import of “staff.csv”: changed back Old Name',
    );
  });
});

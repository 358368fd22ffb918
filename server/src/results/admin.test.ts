import { calendarDay, PERMISSIONS, ResultsMessages, ResultsPerm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildCourse, buildPassedResult } from '../../test/learning-factories';
import { recordResult } from './service';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const P = ResultsPerm;
const ALL = PERMISSIONS.map((p) => p.id);
const as = (userId: number) => clientFor(h.app, h.db, userId);
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

/** A multipart/form-data body built by hand (what a browser's FormData sends). */
function multipart(
  fields: Record<string, string>,
  file?: { filename: string; bytes: Buffer; type?: string },
) {
  const boundary = `----cc-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="evidence"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function upload(
  userId: number,
  method: 'POST' | 'PATCH',
  url: string,
  fields: Record<string, string>,
  file?: { filename: string; bytes: Buffer; type?: string },
) {
  const form = multipart(fields, file);
  return h.app.inject({
    method,
    url,
    payload: form.payload,
    headers: { ...(await bearer(h.db, userId)), ...form.headers },
  });
}

const latest = (userId: number, courseId: number) =>
  h.db
    .selectFrom('latest_results')
    .selectAll()
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();

/** An organisation with an admin (all permissions), a learner, a course, and an outsider holding everything. */
async function world(o: { requireEvidence?: boolean } = {}) {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, {
    level: 'B',
    parentId: org.id,
    settings: o.requireEvidence ? { require_training_record_evidence: true } : {},
  });
  const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL, name: 'Ada Admin' });
  const learner = await buildUser(h.db, { entityId: site.id, permissions: [6], name: 'Lena Learner' });
  const course = await buildCourse(h.db, org.id, { title: `Moving and Handling ${Math.random()}` });
  const outsider = await buildUser(h.db, { permissions: ALL });
  return { org, site, admin, learner, course, outsider };
}

describe('historical results', () => {
  it('answers 401, 422, 404 for another organisation, 403 without 26, then creates with latest_results', async () => {
    const w = await world();
    const body = {
      user_id: w.learner.id,
      course_id: w.course.id,
      completed_at: '2024-04-10',
      score: 88,
      notes: 'Paper record',
    };
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/results/historical/create', payload: body }))
        .statusCode,
    ).toBe(401);

    const admin = await as(w.admin.id);
    const bad = await admin('POST', '/api/results/historical/create', { user_id: w.learner.id });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['course_id', 'completed_at']));
    const future = await admin('POST', '/api/results/historical/create', {
      ...body,
      completed_at: '2999-01-01',
    });
    expect(future.json().errors.completed_at).toEqual([ResultsMessages.completedInFuture]);
    const foreignCourse = await buildCourse(h.db, (await buildEntity(h.db)).id);
    const hidden = await admin('POST', '/api/results/historical/create', {
      ...body,
      course_id: foreignCourse.id,
    });
    expect(hidden.json().errors).toEqual({ course_id: [ResultsMessages.courseInvalid] });

    expect((await (await as(w.outsider.id))('POST', '/api/results/historical/create', body)).statusCode).toBe(
      404,
    );
    const peer = await buildUser(h.db, { entityId: w.org.id, permissions: [P.updateRecord] });
    expect((await (await as(peer.id))('POST', '/api/results/historical/create', body)).statusCode).toBe(403);
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();

    const res = await admin('POST', '/api/results/historical/create', body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe(ResultsMessages.historicalCreated);
    const result = res.json().data;
    expect(result).toMatchObject({
      type: 'historical',
      status: 'approved',
      passed: true,
      score: 88,
      notes: 'Paper record',
      completed_at: '2024-04-10T00:00:00.000Z',
      user: { id: w.learner.id, name: 'Lena Learner' },
      course: { id: w.course.id },
      created_by: { id: w.admin.id },
      evidence: null,
    });
    expect(await latest(w.learner.id, w.course.id)).toMatchObject({
      result_id: result.id,
      passed: true,
      type: 'historical',
    });
  });

  it('takes evidence by multipart, checks its type and size, refuses a missing one where required, serves it as an attachment', async () => {
    const w = await world({ requireEvidence: true });
    const fields = {
      user_id: String(w.learner.id),
      course_id: String(w.course.id),
      completed_at: '2024-02-01',
      passed: 'true',
    };
    const missing = await upload(w.admin.id, 'POST', '/api/results/historical/create', fields);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toEqual({ evidence: [ResultsMessages.evidenceRequired] });
    const json = await (await as(w.admin.id))('POST', '/api/results/historical/create', {
      user_id: w.learner.id,
      course_id: w.course.id,
      completed_at: '2024-02-01',
    });
    expect(json.json().errors).toEqual({ evidence: [ResultsMessages.evidenceRequired] });

    const html = await upload(w.admin.id, 'POST', '/api/results/historical/create', fields, {
      filename: 'evil.pdf',
      bytes: Buffer.from('<html><script>alert(1)</script></html>'),
      type: 'application/pdf',
    });
    expect(html.json().errors).toEqual({ evidence: [ResultsMessages.evidenceType] });
    const big = await upload(w.admin.id, 'POST', '/api/results/historical/create', fields, {
      filename: 'big.pdf',
      bytes: Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 10)]),
    });
    expect(big.json().errors).toEqual({ evidence: [ResultsMessages.evidenceSize] });
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();

    const ok = await upload(w.admin.id, 'POST', '/api/results/historical/create', fields, {
      filename: 'certificate scan.png',
      bytes: PNG,
      type: 'text/html',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const result = ok.json().data;
    expect(result.evidence).toMatchObject({ name: 'certificate_scan.png', mime_type: 'image/png' });

    const download = await (await as(w.learner.id))('GET', result.evidence.url);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['content-disposition']).toBe('attachment; filename="certificate_scan.png"');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.rawPayload.equals(PNG)).toBe(true);
    const stranger = await buildUser(h.db, { entityId: w.org.id, permissions: [] });
    expect((await (await as(stranger.id))('GET', result.evidence.url)).statusCode).toBe(403);
    // Never served by the public file route.
    const file = await h.db
      .selectFrom('files')
      .select('uuid')
      .where('id', '=', result.evidence.id)
      .executeTakeFirstOrThrow();
    expect((await h.app.inject({ method: 'GET', url: `/api/files/${file.uuid}` })).statusCode).toBe(404);

    // Update: replace by a PDF; removing it without a new one is refused where evidence is required.
    const removed = await upload(w.admin.id, 'PATCH', `/api/results/historical/${result.id}`, {
      remove_evidence: 'true',
    });
    expect(removed.json().errors).toEqual({ evidence: [ResultsMessages.evidenceRequired] });
    const replaced = await upload(
      w.admin.id,
      'PATCH',
      `/api/results/historical/${result.id}`,
      { notes: 'Scanned again' },
      {
        filename: 'scan.pdf',
        bytes: PDF,
      },
    );
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data).toMatchObject({
      notes: 'Scanned again',
      evidence: { name: 'scan.pdf', mime_type: 'application/pdf' },
    });
    expect(
      await h.db.selectFrom('files').select('id').where('id', '=', result.evidence.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('updates with 25 only, re-dates latest_results, and is 404 for a result that is not historical', async () => {
    const w = await world();
    const admin = await as(w.admin.id);
    const created = (
      await admin('POST', '/api/results/historical/create', {
        user_id: w.learner.id,
        course_id: w.course.id,
        completed_at: '2024-01-01',
      })
    ).json().data;
    const url = `/api/results/historical/${created.id}`;
    const adder = await buildUser(h.db, { entityId: w.org.id, permissions: [P.addRecord] });
    expect((await (await as(adder.id))('PATCH', url, { passed: false })).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('PATCH', url, { passed: false })).statusCode).toBe(404);
    expect((await admin('PATCH', url, { score: 101 })).statusCode).toBe(422);

    const other = await buildCourse(h.db, w.org.id);
    const moved = await admin('PATCH', url, {
      course_id: other.id,
      completed_at: '2024-05-05',
      passed: false,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({
      passed: false,
      course: { id: other.id },
      completed_at: '2024-05-05T00:00:00.000Z',
    });
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();
    expect(await latest(w.learner.id, other.id)).toMatchObject({ result_id: created.id, passed: false });

    const content = await buildContent(h.db, w.org.id);
    const elearning = await buildPassedResult(h.db, {
      userId: w.learner.id,
      entityId: w.site.id,
      courseId: content.course_id,
    });
    expect((await admin('PATCH', `/api/results/historical/${elearning.id}`, { notes: 'x' })).statusCode).toBe(
      404,
    );
  });
});

describe('pending results', () => {
  it('a learner submits their own; 24/25 list it by type; 25 approves it and latest_results follows; 85 deletes', async () => {
    const w = await world();
    const learner = await as(w.learner.id);
    const submitted = await learner('POST', '/api/results/historical/create', {
      user_id: w.learner.id,
      course_id: w.course.id,
      completed_at: '2024-03-03',
    });
    expect(submitted.statusCode, submitted.body).toBe(201);
    expect(submitted.json().message).toBe(ResultsMessages.historicalSubmitted);
    const pending = submitted.json().data;
    expect(pending.status).toBe('pending');
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();
    const second = (
      await learner('POST', '/api/results/historical/create', {
        user_id: w.learner.id,
        course_id: w.course.id,
        completed_at: '2024-03-04',
      })
    ).json().data;

    const admin = await as(w.admin.id);
    const list = await admin('GET', '/api/results/pending/historical?per_page=1');
    expect(list.statusCode).toBe(200);
    expect(list.json().meta).toMatchObject({ total: 2, last_page: 2 });
    expect((await admin('GET', '/api/results/pending/face2face')).json().data).toEqual([]);
    expect((await admin('GET', '/api/results/pending/nonsense')).statusCode).toBe(422);
    expect((await learner('GET', '/api/results/pending/historical')).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('GET', '/api/results/pending/historical')).json().data).toEqual(
      [],
    );

    const approveUrl = `/api/results/pending/${pending.id}/approve`;
    expect((await learner('POST', approveUrl)).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('POST', approveUrl)).statusCode).toBe(404);
    const approved = await admin('POST', approveUrl);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'approved', approved_by: { id: w.admin.id } });
    expect(await latest(w.learner.id, w.course.id)).toMatchObject({ result_id: pending.id, passed: true });
    expect((await admin('POST', approveUrl)).statusCode).toBe(409);

    const approver = await buildUser(h.db, { entityId: w.org.id, permissions: [P.updateRecord] });
    expect((await (await as(approver.id))('DELETE', `/api/results/pending/${second.id}`)).statusCode).toBe(
      403,
    );
    expect((await admin('DELETE', `/api/results/pending/${pending.id}`)).statusCode).toBe(409);
    expect((await admin('DELETE', `/api/results/pending/${second.id}`)).statusCode).toBe(200);
    expect((await admin('GET', '/api/results/pending/historical')).json().data).toEqual([]);
    expect(await latest(w.learner.id, w.course.id)).toMatchObject({ result_id: pending.id });
  });
});

describe('exemptions', () => {
  it('creates (26), lists with filters (24), updates (25), deletes (85), and counts as in date in latest_results', async () => {
    const w = await world();
    const admin = await as(w.admin.id);
    const body = {
      user_id: w.learner.id,
      course_id: w.course.id,
      start_date: '2024-01-01',
      notes: 'Medical',
    };
    expect(
      (await admin('POST', '/api/results/exempt', { ...body, end_date: '2023-12-01' })).json().errors,
    ).toEqual({
      end_date: [ResultsMessages.endBeforeStart],
    });
    expect((await (await as(w.outsider.id))('POST', '/api/results/exempt', body)).statusCode).toBe(404);
    const reader = await buildUser(h.db, { entityId: w.org.id, permissions: [P.searchTrainingRecords] });
    expect((await (await as(reader.id))('POST', '/api/results/exempt', body)).statusCode).toBe(403);

    const created = await admin('POST', '/api/results/exempt', body);
    expect(created.statusCode, created.body).toBe(201);
    const exempt = created.json().data;
    expect(exempt).toMatchObject({ type: 'exempt', passed: true, expires_at: null, notes: 'Medical' });
    expect(await latest(w.learner.id, w.course.id)).toMatchObject({
      result_id: exempt.id,
      passed: true,
      expires_at: null,
      type: 'exempt',
    });

    const other = await buildUser(h.db, { entityId: w.org.id });
    await admin('POST', '/api/results/exempt', {
      user_id: other.id,
      course_id: w.course.id,
      notes: 'Agency',
    });
    const all = await (await as(reader.id))('GET', '/api/results/exempt');
    expect(all.json().meta.total).toBe(2);
    expect(
      (await admin('GET', `/api/results/exempt?user_id=${w.learner.id}`))
        .json()
        .data.map((r: { id: number }) => r.id),
    ).toEqual([exempt.id]);
    expect((await admin('GET', `/api/results/exempt?entity_id=${w.site.id}`)).json().meta.total).toBe(1);
    expect(
      (await admin('GET', `/api/results/exempt?course_id=${w.course.id}&per_page=1`)).json().meta.last_page,
    ).toBe(2);
    expect(
      (await admin('GET', `/api/results/exempt?entity_id=${(await buildEntity(h.db)).id}`)).statusCode,
    ).toBe(404);
    expect((await (await as(w.outsider.id))('GET', '/api/results/exempt')).json().data).toEqual([]);

    const url = `/api/results/exempt/${exempt.id}`;
    const updated = await admin('PATCH', url, { end_date: '2030-06-30' });
    expect(updated.json().data.expires_at).toBe('2030-06-30T00:00:00.000Z');
    expect((await latest(w.learner.id, w.course.id))?.expires_at?.toISOString()).toBe(
      '2030-06-30T00:00:00.000Z',
    );
    expect((await admin('GET', `/api/results/${exempt.id}`)).json().data.expires_at).toBe(
      '2030-06-30T00:00:00.000Z',
    );

    expect((await (await as(reader.id))('DELETE', url)).statusCode).toBe(403);
    expect((await admin('DELETE', url)).statusCode).toBe(200);
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();
    expect((await admin('PATCH', url, { notes: 'gone' })).statusCode).toBe(404);
  });
});

describe('deleting a record (85) and suppressing a certificate (124)', () => {
  it('soft-deletes and falls back to the previous result; a suppressed certificate is not downloadable', async () => {
    const w = await world();
    const content = await buildContent(h.db, w.org.id);
    const older = await buildPassedResult(h.db, {
      userId: w.learner.id,
      entityId: w.site.id,
      courseId: content.course_id,
      contentId: content.id,
      completedAt: new Date('2024-01-01T00:00:00Z'),
    });
    const newer = await buildPassedResult(h.db, {
      userId: w.learner.id,
      entityId: w.site.id,
      courseId: content.course_id,
      contentId: content.id,
      completedAt: new Date('2024-06-01T00:00:00Z'),
    });
    const admin = await as(w.admin.id);
    const cert = `/api/users/${w.learner.id}/training-certificate?result_id=${older.id}`;
    const learner = await as(w.learner.id);
    expect((await learner('GET', cert)).statusCode).toBe(200);

    const suppressUrl = `/api/results/${older.id}/suppress-certificate`;
    const noPerm = await buildUser(h.db, { entityId: w.org.id, permissions: [P.deleteTrainingRecord] });
    expect((await (await as(noPerm.id))('PATCH', suppressUrl, { suppressed: true })).statusCode).toBe(403);
    expect((await admin('PATCH', suppressUrl, { suppressed: 'yes' })).statusCode).toBe(422);
    const suppressed = await admin('PATCH', suppressUrl, { suppressed: true });
    expect(suppressed.json()).toMatchObject({
      message: ResultsMessages.certificateSuppressed,
      data: { certificate_suppressed: true },
    });
    expect((await learner('GET', cert)).statusCode).toBe(404);
    await admin('PATCH', suppressUrl, { suppressed: false });
    expect((await learner('GET', cert)).statusCode).toBe(200);

    const deleter = await buildUser(h.db, { entityId: w.org.id, permissions: [P.searchTrainingRecords] });
    expect((await (await as(deleter.id))('DELETE', `/api/results/${newer.id}`)).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('DELETE', `/api/results/${newer.id}`)).statusCode).toBe(404);
    expect(await latest(w.learner.id, content.course_id)).toMatchObject({ result_id: newer.id });
    expect((await admin('DELETE', `/api/results/${newer.id}`)).statusCode).toBe(200);
    expect(await latest(w.learner.id, content.course_id)).toMatchObject({ result_id: older.id });
    expect((await admin('GET', `/api/results/${newer.id}`)).statusCode).toBe(404);
    const row = await h.db
      .selectFrom('results')
      .select('deleted_at')
      .where('id', '=', newer.id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });
});

describe('bulk add events', () => {
  it('writes one result per user in one transaction, lists the history, and 36 undoes it', async () => {
    const w = await world();
    const second = await buildUser(h.db, { entityId: w.site.id, name: 'Sam Second' });
    const admin = await as(w.admin.id);
    const body = {
      user_ids: [w.learner.id, second.id],
      course_id: w.course.id,
      completed_at: '2024-07-01',
      type: 'face2face',
    };
    expect((await admin('POST', '/api/users/bulk-add-events', { ...body, user_ids: [] })).statusCode).toBe(
      422,
    );
    expect(
      (await admin('POST', '/api/users/bulk-add-events', { ...body, type: 'elearning' })).statusCode,
    ).toBe(422);
    // One foreign user: 404 and nothing is written.
    const foreign = await buildUser(h.db);
    expect(
      (await admin('POST', '/api/users/bulk-add-events', { ...body, user_ids: [w.learner.id, foreign.id] }))
        .statusCode,
    ).toBe(404);
    const noPerm = await buildUser(h.db, { entityId: w.org.id, permissions: [P.deleteUserEvents] });
    expect((await (await as(noPerm.id))('POST', '/api/users/bulk-add-events', body)).statusCode).toBe(403);
    expect(
      await h.db.selectFrom('results').select('id').where('course_id', '=', w.course.id).execute(),
    ).toEqual([]);

    const res = await admin('POST', '/api/users/bulk-add-events', { ...body, score: 75 });
    expect(res.statusCode, res.body).toBe(201);
    const op = res.json().data;
    expect(op).toMatchObject({
      type: 'face2face',
      user_count: 2,
      course: { id: w.course.id },
      created_by: { name: 'Ada Admin' },
    });
    for (const id of [w.learner.id, second.id])
      expect(await latest(id, w.course.id)).toMatchObject({ passed: true, type: 'face2face' });
    const rows = await h.db
      .selectFrom('results')
      .selectAll()
      .where('bulk_operation_id', '=', op.id)
      .execute();
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => Number(r.score) === 75)).toBe(true);

    const history = await (await as(noPerm.id))('GET', '/api/users/bulk-add-events-history');
    expect(history.statusCode).toBe(200);
    expect(history.json().data).toMatchObject([{ id: op.id, user_count: 2, deleted_at: null }]);
    expect(
      (await (await as(w.outsider.id))('GET', '/api/users/bulk-add-events-history')).json().data,
    ).toEqual([]);
    expect((await (await as(w.learner.id))('GET', '/api/users/bulk-add-events-history')).statusCode).toBe(
      403,
    );

    const adder = await buildUser(h.db, { entityId: w.org.id, permissions: [P.addUserEvents] });
    expect((await (await as(adder.id))('DELETE', `/api/users/bulk-add-events/${op.id}`)).statusCode).toBe(
      403,
    );
    const undone = await (await as(noPerm.id))('DELETE', `/api/users/bulk-add-events/${op.id}`);
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json().data.deleted_by).toMatchObject({ id: noPerm.id });
    for (const id of [w.learner.id, second.id]) expect(await latest(id, w.course.id)).toBeUndefined();
    expect((await admin('DELETE', `/api/users/bulk-add-events/${op.id}`)).statusCode).toBe(409);
  });

  it('refuses historical bulk adds for organisations that require evidence', async () => {
    const w = await world({ requireEvidence: true });
    const res = await (await as(w.admin.id))('POST', '/api/users/bulk-add-events', {
      user_ids: [w.learner.id],
      course_id: w.course.id,
      completed_at: '2024-07-01',
      type: 'historical',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.user_ids[0]).toContain('Lena Learner');
  });
});

describe('nothing is dated in the future (issue 28 §2): one rule, results/completion-date.ts', () => {
  const DAY = 86_400_000;
  // UK calendar days by the server's clock: tomorrow was accepted before (a day of "slack" past UTC midnight).
  const today = () => calendarDay(h.deps.clock());
  const tomorrow = () => calendarDay(new Date(h.deps.clock().getTime() + DAY));

  it("historical records (an admin's, a learner's own, an edit): tomorrow is refused, today is fine", async () => {
    const w = await world();
    const admin = await as(w.admin.id);
    const body = { user_id: w.learner.id, course_id: w.course.id };
    const future = await admin('POST', '/api/results/historical/create', {
      ...body,
      completed_at: tomorrow(),
    });
    expect(future.statusCode).toBe(422);
    expect(future.json().errors).toEqual({ completed_at: [ResultsMessages.completedInFuture] });
    const own = await (await as(w.learner.id))('POST', '/api/results/historical/create', {
      ...body,
      completed_at: tomorrow(),
    });
    expect(own.statusCode).toBe(422);
    expect(own.json().errors).toEqual({ completed_at: [ResultsMessages.completedInFuture] });
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();

    const made = await admin('POST', '/api/results/historical/create', { ...body, completed_at: today() });
    expect(made.statusCode, made.body).toBe(201);
    const edit = await admin('PATCH', `/api/results/historical/${made.json().data.id}`, {
      completed_at: tomorrow(),
    });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors).toEqual({ completed_at: [ResultsMessages.completedInFuture] });
  });

  it('"today" is the UK day of the server clock: at 00:30 BST the new day is today, the next one is not', async () => {
    const w = await world();
    const admin = await as(w.admin.id);
    const realClock = h.deps.clock;
    h.deps.clock = () => new Date('2026-06-30T23:30:00Z');
    try {
      const body = { user_id: w.learner.id, course_id: w.course.id };
      const ok = await admin('POST', '/api/results/historical/create', {
        ...body,
        completed_at: '2026-07-01',
      });
      expect(ok.statusCode, ok.body).toBe(201);
      const next = await admin('POST', '/api/results/historical/create', {
        ...body,
        completed_at: '2026-07-02',
      });
      expect(next.json().errors).toEqual({ completed_at: [ResultsMessages.completedInFuture] });
    } finally {
      h.deps.clock = realClock;
    }
  });

  it('bulk events and exemptions: a day after today is refused and nothing is written', async () => {
    const w = await world();
    const admin = await as(w.admin.id);
    const bulk = await admin('POST', '/api/users/bulk-add-events', {
      user_ids: [w.learner.id],
      course_id: w.course.id,
      completed_at: tomorrow(),
      type: 'face2face',
    });
    expect(bulk.statusCode).toBe(422);
    expect(bulk.json().errors).toEqual({ completed_at: [ResultsMessages.completedInFuture] });
    const exempt = await admin('POST', '/api/results/exempt', {
      user_id: w.learner.id,
      course_id: w.course.id,
      start_date: tomorrow(),
      notes: 'Trained by the agency',
    });
    expect(exempt.statusCode).toBe(422);
    expect(exempt.json().errors).toEqual({ start_date: [ResultsMessages.startInFuture] });
    expect(
      await h.db.selectFrom('results').select('id').where('user_id', '=', w.learner.id).execute(),
    ).toEqual([]);
    const started = await admin('POST', '/api/results/exempt', {
      user_id: w.learner.id,
      course_id: w.course.id,
      start_date: today(),
      notes: 'Trained by the agency',
    });
    expect(started.statusCode, started.body).toBe(201);
    const moved = await admin('PATCH', `/api/results/exempt/${started.json().data.id}`, {
      start_date: tomorrow(),
    });
    expect(moved.json().errors).toEqual({ start_date: [ResultsMessages.startInFuture] });
  });

  it('recordResult, which every other writer goes through, refuses a completion after today (422)', async () => {
    const w = await world();
    const write = (completedAt: Date) =>
      h.db.transaction().execute((trx) =>
        recordResult(
          trx,
          {
            userId: w.learner.id,
            entityId: w.site.id,
            courseId: w.course.id,
            contentId: null,
            type: 'face2face',
            passed: true,
            score: null,
            completedAt,
            attemptId: null,
            createdBy: null,
          },
          h.deps.clock(),
        ),
      );
    await expect(write(new Date(h.deps.clock().getTime() + 14 * DAY))).rejects.toMatchObject({
      status: 422,
      errors: { completed_at: [ResultsMessages.completedInFuture] },
    });
    expect(await latest(w.learner.id, w.course.id)).toBeUndefined();
    await expect(write(h.deps.clock())).resolves.toMatchObject({ id: expect.any(Number) });
  });
});

describe('GET /users/{id}/results and the course picker', () => {
  it('includes assessments and admin-only results by default (spec 2 §4), with filters to change that', async () => {
    const w = await world();
    const adminOnly = await buildContent(h.db, w.org.id, { adminOnly: true });
    await buildPassedResult(h.db, {
      userId: w.learner.id,
      entityId: w.site.id,
      courseId: adminOnly.course_id,
      contentId: adminOnly.id,
      completedAt: new Date('2024-01-10T00:00:00Z'),
    });
    const { recordResult } = await import('./service');
    await h.db.transaction().execute((trx) =>
      recordResult(trx, {
        userId: w.learner.id,
        entityId: w.site.id,
        courseId: w.course.id,
        contentId: null,
        type: 'assessment',
        passed: true,
        score: 70,
        completedAt: new Date('2024-02-10T00:00:00Z'),
        attemptId: null,
        createdBy: null,
      }),
    );
    const url = `/api/users/${w.learner.uuid}/results`;
    const own = await (await as(w.learner.id))('GET', url);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.map((r: { type: string }) => r.type)).toEqual(['assessment', 'elearning']);
    expect(own.json().data[1].admin_only).toBe(true);
    const admin = await as(w.admin.id);
    expect(
      (await admin('GET', `${url}?include_assessments=0`)).json().data.map((r: { type: string }) => r.type),
    ).toEqual(['elearning']);
    expect(
      (await admin('GET', `${url}?include_admin_only=false`))
        .json()
        .data.map((r: { type: string }) => r.type),
    ).toEqual(['assessment']);
    expect((await admin('GET', `${url}?from=2024-02-01&to=2024-02-10`)).json().meta.total).toBe(1);
    expect((await admin('GET', `${url}?date_by=created&from=2024-02-01`)).json().meta.total).toBe(2);
    const peer = await buildUser(h.db, { entityId: w.org.id, permissions: [] });
    expect((await (await as(peer.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('GET', url)).statusCode).toBe(404);

    const picker = await admin('GET', `/api/results/courses?search=${encodeURIComponent('Moving and')}`);
    expect(picker.json().data.map((c: { id: number }) => c.id)).toEqual([w.course.id]);
    expect((await (await as(w.outsider.id))('GET', '/api/results/courses?per_page=100')).body).not.toContain(
      w.course.title,
    );
    expect((await (await as(peer.id))('GET', '/api/results/courses')).statusCode).toBe(403);
  });
});

describe('the self course picker (GET /results/courses?self=1)', () => {
  it('lists, to a carer without 24/25/26/35, the courses their organisation offers learners; still refuses without self', async () => {
    const w = await world();
    const draft = await buildCourse(h.db, w.org.id, { title: `Draft ${Math.random()}`, published: false });
    const foreign = await buildCourse(h.db, (await buildEntity(h.db, { level: 'A' })).id, {
      title: `Elsewhere ${Math.random()}`,
    });
    const learner = await as(w.learner.id);
    expect((await h.app.inject({ method: 'GET', url: '/api/results/courses?self=1' })).statusCode).toBe(401);
    expect((await learner('GET', '/api/results/courses')).statusCode).toBe(403);
    expect((await learner('GET', '/api/results/courses?self=0')).statusCode).toBe(403);

    const own = await learner('GET', '/api/results/courses?self=1&per_page=100');
    expect(own.statusCode, own.body).toBe(200);
    const ids = own.json().data.map((c: { id: number }) => c.id);
    expect(ids).toContain(w.course.id);
    expect(ids).not.toContain(draft.id);
    expect(ids).not.toContain(foreign.id);
    const found = await learner(
      'GET',
      `/api/results/courses?self=1&search=${encodeURIComponent('Moving and')}`,
    );
    expect(found.json().data.map((c: { id: number }) => c.id)).toEqual([w.course.id]);
    // Another organisation's carer does not see this organisation's course.
    const stranger = await buildUser(h.db, { permissions: [] });
    expect(
      (await (await as(stranger.id))('GET', '/api/results/courses?self=1&per_page=100')).body,
    ).not.toContain(w.course.title);
    // What the list offers, the learner can record for themselves (pending); for someone else it stays 403.
    const mine = await learner('POST', '/api/results/historical/create', {
      user_id: w.learner.id,
      course_id: ids[0],
      completed_at: '2024-05-05',
    });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().data.status).toBe('pending');
    const peer = await buildUser(h.db, { entityId: w.site.id, permissions: [] });
    expect(
      (
        await learner('POST', '/api/results/historical/create', {
          user_id: peer.id,
          course_id: w.course.id,
          completed_at: '2024-05-05',
        })
      ).statusCode,
    ).toBe(403);
  });
});

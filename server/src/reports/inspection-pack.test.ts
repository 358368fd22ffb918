import { readFile } from 'node:fs/promises';
import { formatDate } from '@cc/contracts';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDelegate, buildSession } from '../../test/calendar-factories';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { pdfPages, pdfText } from '../../test/pdf-text';
import { runDueJobs } from '../jobs/queue';
import { recordResult } from '../results/service';
import { QUALITY_STATEMENTS } from './cqc/quality-statements';
import { SUMMARY_TITLE, sectionTitle } from './inspection-pack-summary';

/**
 * The inspection pack (issue 13): one request on a home queues a job; its PDF names the home, the figures' time and
 * every gap with its dated plan; its zip holds the evidence files; another organisation's home is 404.
 */
let h: Harness;
let home: { id: number; slug: string; name: string };
let manager: { id: number };
let outsider: { id: number };
let noPerm: { id: number };
let auditor: { id: number };
let expiredOn = '';
let bookedOn = '';
let exemptUntil = '';
beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, { level: 'A', name: 'Pack Test Group' });
  home = (await buildEntity(h.db, { parentId: org.id, name: 'Brookside Test Home' })) as typeof home;
  const role = await buildRole(h.db, org.id);
  const fire = await buildCourse(h.db, org.id, { title: 'Fire safety' });
  const moving = await buildCourse(h.db, org.id, { title: 'Moving and handling' });
  for (const course of [fire, moving])
    await h.db
      .insertInto('compliance_rules')
      .values({
        entity_id: org.id,
        role_id: role.id,
        course_id: course.id,
        type: 'primary',
        validity_months: 12,
      })
      .execute();
  // Ann: Fire safety in date with an evidence file; Moving and handling missing (a gap).
  const ann = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Ann Carer' });
  const result = await buildPassedResult(h.db, { userId: ann.id, entityId: home.id, courseId: fire.id });
  const key = await h.deps.storage.put('evidence', Buffer.from('%PDF-1.4 evidence'), 'pdf');
  const file = await h.db
    .insertInto('files')
    .values({
      entity_id: home.id,
      purpose: 'evidence',
      storage_key: key,
      original_name: 'ann fire certificate.pdf',
      mime_type: 'application/pdf',
      size_bytes: 17,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await h.db.updateTable('results').set({ evidence_file_id: file.id }).where('id', '=', result.id).execute();
  // Bob: Fire safety done two years ago (expired: a gap dated by its expiry).
  const bob = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Bob Senior' });
  const old = await buildPassedResult(h.db, {
    userId: bob.id,
    entityId: home.id,
    courseId: fire.id,
    completedAt: new Date(Date.now() - 730 * 86_400_000),
  });
  const row = await h.db
    .selectFrom('results')
    .select('expires_at')
    .where('id', '=', old.id)
    .executeTakeFirstOrThrow();
  expiredOn = formatDate(row.expires_at as Date);
  // Bob is booked on a Fire safety session in 12 days: his gap shows it. Ann's place on a cancelled Moving and
  // handling session shows nothing.
  const fireContent = await h.db
    .insertInto('contents')
    .values({
      entity_id: org.id,
      course_id: fire.id,
      type: 'face2face',
      title: 'Fire safety day',
      prerequisites: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const start = new Date(Date.now() + 12 * 86_400_000);
  const session = await buildSession(h.db, {
    entityId: org.id,
    contentId: fireContent.id,
    days: [{ start }],
  });
  await buildDelegate(h.db, { sessionId: session.id, userId: bob.id, entityId: home.id, status: 'accepted' });
  bookedOn = formatDate(start);
  const movingContent = await h.db
    .insertInto('contents')
    .values({
      entity_id: org.id,
      course_id: moving.id,
      type: 'face2face',
      title: 'M&H day',
      prerequisites: '[]',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cancelled = await buildSession(h.db, {
    entityId: org.id,
    contentId: movingContent.id,
    days: [{ start: new Date(Date.now() + 5 * 86_400_000) }],
    status: 'cancelled',
  });
  await buildDelegate(h.db, {
    sessionId: cancelled.id,
    userId: ann.id,
    entityId: home.id,
    status: 'accepted',
  });
  // Cath: exempt from Moving and handling until a date, for a reason (issue 28 item 6).
  const cath = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Cath Nurse' });
  const until = new Date(Date.now() + 40 * 86_400_000);
  const exempt = await h.db.transaction().execute((trx) =>
    recordResult(trx, {
      userId: cath.id,
      entityId: home.id,
      courseId: moving.id,
      contentId: null,
      type: 'exempt',
      passed: true,
      score: null,
      completedAt: new Date(Date.now() - 86_400_000),
      expiresAt: until,
      attemptId: null,
      createdBy: null,
    }),
  );
  await h.db
    .updateTable('results')
    .set({ notes: 'Registered nurse: covered by her NMC revalidation' })
    .where('id', '=', exempt.id)
    .execute();
  exemptUntil = formatDate(until);
  manager = await buildUser(h.db, { entityId: org.id, permissions: [13] });
  noPerm = await buildUser(h.db, { entityId: org.id, permissions: [] });
  auditor = await buildUser(h.db, { entityId: org.id, permissions: [13, 24] });
  outsider = await buildUser(h.db, { permissions: [13] });
});
afterAll(async () => h?.close());

describe('inspection pack', () => {
  it('queues a job on a home, reports its progress, then serves a PDF with the gaps and a zip with the evidence', async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const res = await as('POST', `/api/entities/${home.slug}/inspection-pack`);
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json().data;
    expect(queued).toMatchObject({
      status: 'queued',
      progress: 0,
      entity: { slug: home.slug, name: home.name },
    });
    expect(queued.pdf_url).toBeNull();

    await runDueJobs(h.deps, new Date());
    const status = (await as('GET', `/api/inspection-packs/${queued.id}`)).json().data;
    expect(status, JSON.stringify(status)).toMatchObject({ status: 'done', progress: 1, error: null });
    expect(status.pdf_url).toBe(`/api/inspection-packs/${queued.id}/pdf`);

    const pdf = await as('GET', status.pdf_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toMatch(
      /inspection-pack-Brookside-Test-Home-\d{4}-\d\d-\d\d\.pdf/,
    );
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Inspection pack · Brookside Test Home');
    expect(text).toMatch(/Figures as at \d\d\/\d\d\/\d{4} \d\d:\d\d/);
    // The gaps with their dated plans: Bob's expired Fire safety, Ann's missing Moving and handling.
    // In the one status's words (contracts courseStatusText), as every other screen says them.
    expect(text).toContain(`Booked on a session on ${bookedOn}. Expired on`);
    expect(text.replace(/\s+/g, ' ')).toContain(`Expired on ${expiredOn}: renew now`);
    expect(text.match(/Booked on a session on/g)).toHaveLength(1);
    expect(text).toContain('Moving and handling');
    expect(text).toContain('Gaps and plans');
    expect(text).toContain('Training matrix by job role');
    expect(text).toContain('ann fire certificate.pdf');
    // The exemption: its end date in the matrix, and its reason and end date in the list of exemptions.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('Exemptions');
    expect(flat).toContain('Registered nurse: covered by her NMC revalidation');
    expect(flat).toContain(`Exempt until ${exemptUntil}`);
    // The sign-off block (issue 33 §6): the declaration, then lines for the reviewer's name, role, date and signature.
    expect(flat).toContain('Sign-off');
    expect(flat).toMatch(
      /I have reviewed this inspection pack for Brookside Test Home\. To the best of my knowledge it is a true and complete record of the training of the staff listed, as at \d\d\/\d\d\/\d{4} \d\d:\d\d/,
    );
    for (const label of ['Reviewed by (name):', 'Role:', 'Date:', 'Signature:'])
      expect(flat).toContain(label);
    expect(flat.indexOf('Sign-off')).toBeGreaterThan(flat.indexOf('Exemptions'));
    // Every page's footer: when the PDF was made and when its figures were read.
    const pages = Number(flat.match(/Page 1 of (\d+)/)?.[1]);
    expect(pages).toBeGreaterThan(1);
    const footers = flat.match(
      /Inspection pack · Brookside Test Home · Generated at \d\d\/\d\d\/\d{4} \d\d:\d\d, data as of \d\d\/\d\d\/\d{4} \d\d:\d\d/g,
    );
    expect(footers).toHaveLength(pages);

    const pageTexts = (await pdfPages(pdf.rawPayload)).map((p) => p.replace(/\s+/g, ' '));
    // The CQC summary (issue 37 §3): page 2, a row per quality statement in its published words, with the pack's own
    // figures (the cover's table, the gaps' plans) and the pages its sections start on.
    const summary = pageTexts[1] ?? '';
    expect(summary).toContain(SUMMARY_TITLE);
    for (const qs of QUALITY_STATEMENTS) {
      expect(summary).toContain(qs.name);
      expect(summary).toContain(qs.statement);
    }
    const cover = pageTexts[0]?.match(/Gaps \(expired or missing\) (\d+) (\d+) (\d+) (\d+)% (\d+)/);
    expect(cover, pageTexts[0]).not.toBeNull();
    const [people, required, inDate, score, gapCount] = (cover as RegExpMatchArray).slice(1);
    expect([people, required, inDate, score, gapCount]).toEqual(['3', '6', '2', '33', '4']);
    expect(summary).toContain(`People in this pack: ${people}`);
    expect(summary).toContain(`Required courses in date: ${inDate} of ${required} (${score}%)`);
    const count = (re: RegExp) => String(flat.match(re)?.length ?? 0);
    expect(summary).toContain(`Expired (out of date): ${count(/Expired on \d\d\/\d\d\/\d{4}: renew now/g)}`);
    expect(summary).toContain(`Due (new starters, new requirements): ${count(/Due by \d\d\/\d\d\/\d{4}:/g)}`);
    expect(summary).toContain('Missing (never done): 0');
    expect(summary).toContain('Awaiting approval: 0');
    expect(summary).toContain(
      `Gaps with a session booked: ${count(/Booked on a session on/g)} of ${gapCount}`,
    );
    expect(summary).toContain(
      `Exemptions running: ${count(/Registered nurse: covered by her NMC revalidation/g)}`,
    );
    const listed = pageTexts[0]?.match(/New starters: (\d+)\. Certificates and evidence listed: (\d+)\./);
    expect(summary).toContain(`Certificates and evidence listed: ${listed?.[2]}`);
    expect(summary).toContain(`New starters: ${listed?.[1]}, of whom 0 have done every required course`);
    expect(summary).toContain('Care Certificate: 0 complete, 0 in progress (0 overdue), 3 not assigned');
    expect(summary).toContain('Policies to read: none at this home');
    expect(summary).toContain('Changes to training records: not in this pack');
    // Where the evidence is: each section named with a page, and that page starts the section. The audit trail is not
    // in this pack (the manager may not read it), so neither is its line.
    const sections = new Set(QUALITY_STATEMENTS.flatMap((qs) => qs.sections));
    for (const key of sections) {
      const title = sectionTitle(key, 'Care Certificate');
      const at = summary.match(new RegExp(`${title.replace(/[()]/g, '\\$&')}: page (\\d+)`));
      if (key === 'changes') {
        expect(at).toBeNull();
        continue;
      }
      expect(at, title).not.toBeNull();
      const page = pageTexts[Number(at?.[1]) - 1] ?? '';
      expect(page).toContain(key === 'figures' ? 'Figures as at' : title);
    }
    expect(pageTexts[2]).toMatch(/^Training matrix by job role/);

    const zipRes = await as('GET', status.zip_url);
    expect(zipRes.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(zipRes.rawPayload);
    const names = Object.keys(zip.files);
    expect(names).toContain('inspection-pack-Brookside-Test-Home.pdf');
    expect(names).toContain('training-matrix-Brookside-Test-Home.pdf');
    const evidence = names.find((n) => n.startsWith('evidence/Ann-Carer/'));
    expect(evidence).toBe('evidence/Ann-Carer/Fire-safety-ann-fire-certificate.pdf');
    expect(await zip.file(evidence as string)?.async('string')).toBe('%PDF-1.4 evidence');
  });

  it('answers 404 for a home outside the caller scope (and for its packs), 403 without permission 13', async () => {
    const out = await clientFor(h.app, h.db, outsider.id);
    expect((await out('POST', `/api/entities/${home.slug}/inspection-pack`)).statusCode).toBe(404);
    expect((await out('POST', '/api/entities/no-such-home/inspection-pack')).statusCode).toBe(404);
    const as = await clientFor(h.app, h.db, manager.id);
    const id = (await as('POST', `/api/entities/${home.slug}/inspection-pack`)).json().data.id;
    expect((await out('GET', `/api/inspection-packs/${id}`)).statusCode).toBe(404);
    expect((await out('GET', `/api/inspection-packs/${id}/pdf`)).statusCode).toBe(404);
    // Not done yet: no file.
    expect((await as('GET', `/api/inspection-packs/${id}/zip`)).statusCode).toBe(404);
    const none = await clientFor(h.app, h.db, noPerm.id);
    expect((await none('POST', `/api/entities/${home.slug}/inspection-pack`)).statusCode).toBe(403);
  });

  it('names the audit trail section and its page in the CQC summary when the maker may read the trail', async () => {
    const as = await clientFor(h.app, h.db, auditor.id);
    const id = (await as('POST', `/api/entities/${home.slug}/inspection-pack`)).json().data.id;
    await runDueJobs(h.deps, new Date());
    const pdf = await as('GET', `/api/inspection-packs/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const pageTexts = (await pdfPages(pdf.rawPayload)).map((p) => p.replace(/\s+/g, ' '));
    const summary = pageTexts[1] ?? '';
    expect(summary).toMatch(/Changes to training records in the last 12 months: \d+/);
    const title = sectionTitle('changes', 'Care Certificate');
    const at = summary.match(/Changes to training records \(last 12 months\): page (\d+)/);
    expect(at, summary).not.toBeNull();
    expect(pageTexts[Number(at?.[1]) - 1]).toContain(title);
  });

  it("quotes each CQC quality statement as its SOURCES.md does, from the CQC's own page", async () => {
    const sources = (await readFile(new URL('./cqc/SOURCES.md', import.meta.url), 'utf8')).replace(
      /\s+/g,
      ' ',
    );
    for (const qs of QUALITY_STATEMENTS) {
      expect(qs.url).toMatch(/^https:\/\/www\.cqc\.org\.uk\/guidance-regulation\/providers\/assessment\//);
      expect(sources).toContain(qs.url);
      expect(sources).toContain(`| ${qs.keyQuestion} | ${qs.name} |`);
      expect(sources).toContain(`| ${qs.statement} |`);
    }
  });
});

import { formatDate, CareCertificateMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { londonDate } from '../bookings/session-service';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import {
  buildCertificate,
  buildObservation,
  buildPeople,
  buildVersion,
  type TestVersion,
} from './approval-world';

/** Standards: POST …/standards/{id}/submit, /approve, /reject; the certificate PDF (88); the all-selected notice. */
let h: Harness;
let v: TestVersion;
beforeAll(async () => {
  h = await createHarness();
  v = await buildVersion(h.db);
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);

async function world(o: { notifyAllSelected?: boolean; version?: TestVersion } = {}) {
  const people = await buildPeople(h.db, o);
  const version = o.version ?? v;
  const cert = await buildCertificate(h.db, { userId: people.learner.id, versionId: version.id });
  const url = (standard: number, action: string) =>
    `/api/care-certificates/${cert.uuid}/standards/${version.standards[standard]}/${action}`;
  return { ...people, cert, url };
}

/** Evidence for every criterion of standards 1 and 2 (a competent observation covers "Demonstrate" 1b too). */
async function evidenceAll(certificateId: number, version = v) {
  return buildObservation(h.db, {
    certificateId,
    criterionIds: [version.criteria['1a'], version.criteria['1b'], version.criteria['2a']],
  });
}

const stateOf = async (certificateId: number, standardId: number) =>
  h.db
    .selectFrom('care_certificate_standard_states')
    .selectAll()
    .where('certificate_id', '=', certificateId)
    .where('standard_id', '=', standardId)
    .executeTakeFirstOrThrow();
const decisionsOf = (certificateId: number) =>
  h.db
    .selectFrom('care_certificate_decisions')
    .select(['standard_id', 'action', 'reasons'])
    .where('certificate_id', '=', certificateId)
    .orderBy('id')
    .execute();

describe('standards workflow', () => {
  it('401 without sign-in', async () => {
    const { url } = await world();
    for (const action of ['submit', 'approve', 'reject'])
      expect(
        (await h.app.inject({ method: 'POST', url: url(1, action), payload: { reasons: 'x' } })).statusCode,
      ).toBe(401);
  });

  it('a standard cannot be selected or approved with a criterion lacking evidence (422), nor one without criteria', async () => {
    const empty = await buildVersion(h.db, { empty: true });
    const { url, cert, learner, approver } = await world({ version: empty });
    // 1a evidenced, 1b ("Demonstrate") only by a file-like route would not do: no observation yet.
    await buildObservation(h.db, { certificateId: cert.id, criterionIds: [empty.criteria['1a']] });
    const submit = await (await as(learner.id))('POST', url(1, 'submit'));
    expect(submit.statusCode).toBe(422);
    expect(submit.json().errors).toEqual({ standard: [M.criteriaMissingEvidence] });
    const approve = await (await as(approver.id))('POST', url(1, 'approve'));
    expect(approve.statusCode).toBe(422);
    expect(approve.json().errors).toEqual({ standard: [M.criteriaMissingEvidence] });
    const none = await (await as(approver.id))('POST', url(3, 'approve'));
    expect(none.json().errors).toEqual({ standard: [M.noCriteria] });
    expect((await stateOf(cert.id, empty.standards[1])).state).toBe('open');
    expect(await decisionsOf(cert.id)).toEqual([]);
    // A not-yet-competent observation is no evidence either.
    await buildObservation(h.db, {
      certificateId: cert.id,
      criterionIds: [empty.criteria['1b']],
      outcome: 'not_yet_competent',
    });
    expect((await (await as(approver.id))('POST', url(1, 'approve'))).statusCode).toBe(422);
  });

  it('403 without the permission; 404 for another organisation and for a standard of another version', async () => {
    const { url, cert, observer, assigner, insider, outsider, approver } = await world();
    await evidenceAll(cert.id);
    expect((await (await as(observer.id))('POST', url(1, 'approve'))).statusCode).toBe(403);
    expect((await (await as(assigner.id))('POST', url(1, 'reject'), { reasons: 'No' })).statusCode).toBe(403);
    expect((await (await as(approver.id))('POST', url(1, 'submit'))).statusCode).toBe(403);
    // Someone in the organisation with no certificate permission cannot see it at all.
    expect((await (await as(insider.id))('POST', url(1, 'submit'))).statusCode).toBe(404);
    for (const action of ['submit', 'approve', 'reject'])
      expect((await (await as(outsider.id))('POST', url(1, action), { reasons: 'x' })).statusCode).toBe(404);
    const other = await buildVersion(h.db);
    const res = await (await as(approver.id))(
      'POST',
      `/api/care-certificates/${cert.uuid}/standards/${other.standards[1]}/approve`,
    );
    expect(res.statusCode).toBe(404);
    expect(await decisionsOf(cert.id)).toEqual([]);
  });

  it('422 when rejecting without reasons', async () => {
    const { url, approver } = await world();
    const res = await (await as(approver.id))('POST', url(1, 'reject'), { reasons: '  ' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['reasons']);
  });

  it('select (owner) → reject with reasons → select again → approve; approving approves its observations', async () => {
    const { url, cert, learner, approver } = await world();
    const o = await evidenceAll(cert.id);
    const submitted = await (await as(learner.id))('POST', url(1, 'submit'));
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().message).toBe(M.standardSubmitted);
    const s1 = submitted.json().data.standards.find((s: { number: number }) => s.number === 1);
    expect(s1).toMatchObject({ state: 'awaiting_approval', status: 'awaiting_approval' });
    // Selecting again changes nothing.
    expect((await (await as(learner.id))('POST', url(1, 'submit'))).statusCode).toBe(200);
    const a = await as(approver.id);
    const rejected = await a('POST', url(1, 'reject'), { reasons: 'Add a second observation.' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().message).toBe(M.standardRejected);
    expect(rejected.json().data.standards[0]).toMatchObject({
      state: 'open',
      rejection_reasons: 'Add a second observation.',
    });
    const again = await a('POST', url(1, 'reject'), { reasons: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(M.notAwaitingApproval);
    await (await as(learner.id))('POST', url(1, 'submit'));
    const approved = await a('POST', url(1, 'approve'));
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().message).toBe(M.standardApproved);
    expect(approved.json().data.standards[0]).toMatchObject({ state: 'approved', rejection_reasons: null });
    expect(approved.json().data.status).toBe('in_progress');
    const row = await h.db
      .selectFrom('care_certificate_observations')
      .select(['approved_at', 'approved_by'])
      .where('id', '=', o.id)
      .executeTakeFirstOrThrow();
    expect(row.approved_by).toBe(approver.id);
    expect(row.approved_at).not.toBeNull();
    const twice = await a('POST', url(1, 'approve'));
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(M.standardApprovedAlready);
    expect((await (await as(learner.id))('POST', url(1, 'submit'))).statusCode).toBe(409);
    expect((await decisionsOf(cert.id)).map((d) => d.action)).toEqual([
      'submitted',
      'rejected',
      'submitted',
      'approved',
    ]);
  });

  it('approving the last standard completes the certificate that day (Europe/London)', async () => {
    const { url, cert, manager } = await world();
    await evidenceAll(cert.id);
    const m = await as(manager.id);
    expect((await m('POST', url(1, 'approve'))).statusCode).toBe(200);
    const last = await m('POST', url(2, 'approve'));
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().data).toMatchObject({ status: 'complete', completed_on: londonDate(new Date()) });
    const row = await h.db
      .selectFrom('care_certificates')
      .select(['status', 'completed_on'])
      .where('id', '=', cert.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'complete', completed_on: londonDate(new Date()) });
  });
});

describe('notify_all_standards_selected', () => {
  const noticesOf = (userId: number) =>
    h.db
      .selectFrom('notifications')
      .select(['kind', 'channel', 'state', 'title', 'link', 'id'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'care_certificate')
      .orderBy('channel')
      .execute();

  it('tells the approvers over the person (in-app and e-mail) once every standard is selected', async () => {
    const { url, cert, learner, approver, manager, observer } = await world({ notifyAllSelected: true });
    await evidenceAll(cert.id);
    const c = await as(learner.id);
    await c('POST', url(1, 'submit'));
    expect(await noticesOf(approver.id)).toEqual([]);
    await c('POST', url(2, 'submit'));
    for (const who of [approver, manager]) {
      const notices = await noticesOf(who.id);
      expect(notices.map((n) => [n.channel, n.state])).toEqual([
        ['email', 'pending'],
        ['in_app', 'sent'],
      ]);
      expect(notices[0]?.title).toBe('Lee Learner: every standard is ready for approval');
      expect(notices[0]?.link).toBe(`/care-certificate/${cert.uuid}`);
    }
    // Not the observer (no approve permission), not the person themself.
    expect(await noticesOf(observer.id)).toEqual([]);
    expect(await noticesOf(learner.id)).toEqual([]);
    const email = (await noticesOf(approver.id))[0];
    const job = await h.db
      .selectFrom('jobs')
      .select(['name'])
      .where('unique_key', '=', `notification:${email?.id}`)
      .executeTakeFirst();
    expect(job?.name).toBe('deliver-notification');
    // Delivered by the notifications machinery: the e-mail is in the outbox and the ledger row is sent.
    registerAllJobs();
    await runDueJobs(h.deps, new Date());
    const mail = await h.db
      .selectFrom('mail_outbox')
      .select(['subject', 'template', 'text_body'])
      .where('to_address', '=', approver.email)
      .execute();
    expect(mail).toEqual([
      expect.objectContaining({
        subject: 'Lee Learner: every standard is ready for approval',
        template: 'notification_care_certificate',
      }),
    ]);
    expect(mail[0]?.text_body).toContain(`/care-certificate/${cert.uuid}`);
    const sent = await h.db
      .selectFrom('notifications')
      .select('state')
      .where('id', '=', email?.id as number)
      .executeTakeFirstOrThrow();
    expect(sent.state).toBe('sent');
  });

  it('tells no one when the organisation has it off', async () => {
    const { url, cert, learner, approver } = await world();
    await evidenceAll(cert.id);
    const c = await as(learner.id);
    await c('POST', url(1, 'submit'));
    await c('POST', url(2, 'submit'));
    expect(await noticesOf(approver.id)).toEqual([]);
  });
});

describe('GET /care-certificates/{uuid}/pdf', () => {
  async function complete() {
    const w = await world();
    await evidenceAll(w.cert.id);
    const m = await as(w.manager.id);
    await m('POST', w.url(1, 'approve'));
    await m('POST', w.url(2, 'approve'));
    return w;
  }

  it('401 without sign-in; 409 until complete', async () => {
    const w = await world();
    const url = `/api/care-certificates/${w.cert.uuid}/pdf`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const res = await (await as(w.manager.id))('GET', url);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(M.notComplete);
  });

  it('422 on a malformed uuid; 403 without download; 404 for another organisation', async () => {
    const w = await complete();
    const url = `/api/care-certificates/${w.cert.uuid}/pdf`;
    expect((await (await as(w.manager.id))('GET', '/api/care-certificates/not-a-uuid/pdf')).statusCode).toBe(
      422,
    );
    expect((await (await as(w.observer.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('GET', url)).statusCode).toBe(404);
  });

  it("prints the organisation's white-label logo, once", async () => {
    const w = await complete();
    const url = `/api/care-certificates/${w.cert.uuid}/pdf`;
    // Image objects, less the transparency masks pdfkit adds beside a PNG with alpha.
    const count = (pdf: Buffer, re: RegExp) => pdf.toString('latin1').match(re)?.length ?? 0;
    const images = (pdf: Buffer) => count(pdf, /\/Subtype \/Image/g) - count(pdf, /\/SMask \d+ 0 R/g);
    expect(images((await (await as(w.manager.id))('GET', url)).rawPayload)).toBe(0);
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const key = await h.deps.storage.put('logo', png, 'png');
    const file = await h.db
      .insertInto('files')
      .values({
        entity_id: w.org.id,
        purpose: 'logo',
        storage_key: key,
        original_name: 'logo.png',
        mime_type: 'image/png',
        size_bytes: png.length,
      })
      .returning('uuid')
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('entities')
      .set({ whitelabel: JSON.stringify({ logo: file.uuid }) })
      .where('id', '=', w.org.id)
      .execute();
    const res = await (await as(w.manager.id))('GET', url);
    expect(res.statusCode).toBe(200);
    expect(images(res.rawPayload)).toBe(1);
  });

  it('the owner and a manager download it: the person, the standards, the date, the approver and the organisation', async () => {
    const w = await complete();
    const url = `/api/care-certificates/${w.cert.uuid}/pdf`;
    const res = await (await as(w.learner.id))('GET', url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('care-certificate-lee-learner-');
    expect((await (await as(w.manager.id))('GET', url)).statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Care Certificate');
    expect(text).toContain('Lee Learner');
    expect(text).toContain('1.');
    expect(text).toContain('Understand your role');
    expect(text).toContain('Duty of care');
    expect(text).toContain('Mia Manager');
    expect(text).toContain('Ann Assessor');
    expect(text).toContain(w.home.name);
    expect(text).toContain(`Completed on: ${formatDate(londonDate(new Date()))}`);
  });
});

import { ObservationBody } from '@cc/contracts';
import PDFDocument from 'pdfkit';
import pino from 'pino';
import { loadActor } from '../auth/actor';
import type { Db } from '../db/connect';
import type { Ctx, Deps } from '../http/context';
import { parseInput } from '../http/errors';
import { approveStandard, submitStandard } from './approval-service';
import { assignCertificate } from './certificate-service';
import { DEMO_ASSESSOR_EMAIL } from './demo';
import { addEvidence } from './evidence';
import { createObservation } from './observation-service';
import { createVersion, deleteStandard } from './standards-service';

/**
 * Issue 32 §3: one demo learner whose whole certificate was evidenced and approved through the real service
 * functions (the ones the REST and GraphQL routes call), so a newcomer sees the finished state and can download the
 * printable certificate.
 *
 * What "complete" means in the code: every standard state of the certificate approved (approval-service.ts), and a
 * standard can be approved only with at least one criterion, every one evidenced as its kind requires (progress.ts).
 * The built-in 2025 version still has standards without criteria (4, 11, 12, 16: SOURCES.md), so no certificate on
 * it can complete until a super admin imports them. The demo therefore uses a copy of the 2025 version made by the
 * super admin (createVersion, copy_from) holding only the standards that have criteria (deleteStandard for the
 * others), titled so nobody takes it for the official version; it is never the default.
 *
 * The steps, each as the person who would take it, on a clock running from ten weeks ago: the manager assigns; per
 * standard, the learner uploads her workbook answers (a PDF) for the knowledge criteria and the assessor records a
 * competent observation for the observed ones; the learner sends the standard for approval; the manager approves.
 */
export const DEMO_FINISHED_EMAIL_DOMAIN = 'meadowbrook.example';
export const DEMO_VERSION_CODE = '2025-demo';
const DAY = 86_400_000;
const silent = pino({ level: 'silent' });

function workbookPdf(person: string, standard: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(16).text(`Workbook answers: ${standard}`);
    doc
      .moveDown()
      .fontSize(11)
      .text(`${person}'s answers to the knowledge questions of this standard (demo data).`);
    doc.end();
  });
}

export async function seedFinishedCareCertificate(deps: Deps, db: Db, now: Date): Promise<string | null> {
  const byEmail = (email: string) =>
    db.selectFrom('users').select(['id', 'name']).where('email', '=', email).executeTakeFirst();
  const [admin, manager, assessor] = await Promise.all([
    byEmail('admin@demo.test'),
    byEmail('manager@demo.test'),
    byEmail(DEMO_ASSESSOR_EMAIL),
  ]);
  const v2025 = await db
    .selectFrom('care_certificate_versions')
    .select('id')
    .where('code', '=', '2025')
    .executeTakeFirst();
  if (!admin || !manager || !assessor || !v2025) return null;
  // An Oakfield carer with no certificate yet (the other demo stages took theirs first).
  const learner = await db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(['u.id', 'u.name'])
    .where('e.slug', '=', 'oakfield-house')
    .where('u.email', 'like', `%@${DEMO_FINISHED_EMAIL_DOMAIN}`)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('care_certificates as c').select('c.id').whereRef('c.user_id', '=', 'u.id'))),
    )
    .orderBy('u.id')
    .executeTakeFirst();
  if (!learner) return null;

  let clock = new Date(now.getTime() - 70 * DAY);
  const as = async (userId: number): Promise<Ctx> => {
    const actor = await loadActor(db, userId, { via: 'session', sessionId: 'demo-seed' });
    if (!actor) throw new Error(`demo: no user ${userId}`);
    const at = clock;
    return { ...deps, db, actor, ip: null, userAgent: null, log: silent, memo: new Map(), clock: () => at };
  };

  // The super admin's copy of 2025 with only the standards that have criteria.
  const copy = await createVersion(await as(admin.id), {
    code: DEMO_VERSION_CODE,
    title: 'Care Certificate 2025, demo copy: only the standards that have criteria',
    effective_from: null,
    is_default: false,
    copy_from_id: v2025.id,
  });
  for (const s of copy.standards)
    if (s.outcomes.every((o) => o.criteria.length === 0)) await deleteStandard(await as(admin.id), s.id);

  const assigned = await assignCertificate(await as(manager.id), {
    user_id: learner.id,
    version_id: copy.id,
    started_on: new Date(clock.getTime()).toISOString().slice(0, 10),
  });
  const uuid = assigned.uuid;
  const standards = [...assigned.standards].sort((a, b) => a.number - b.number);
  for (const s of standards) {
    clock = new Date(clock.getTime() + 3 * DAY);
    const criteria = s.outcomes.flatMap((o) => o.criteria);
    const knowledge = criteria.filter((c) => !c.requires_observation).map((c) => c.id);
    const observed = criteria.filter((c) => c.requires_observation).map((c) => c.id);
    if (knowledge.length) {
      const bytes = await workbookPdf(learner.name, `Standard ${s.number}: ${s.title}`);
      await addEvidence(await as(learner.id), uuid, async () => ({
        multipart: true,
        fields: { description: `My workbook answers, Standard ${s.number}`, criterion_ids: knowledge },
        file: { filename: `workbook-standard-${s.number}.pdf`, bytes, truncated: false },
      }));
    }
    if (observed.length) {
      clock = new Date(clock.getTime() + DAY);
      await createObservation(
        await as(assessor.id),
        uuid,
        parseInput(ObservationBody, {
          observed_at: new Date(clock.getTime() - 2 * 3_600_000).toISOString(),
          place: 'Oakfield House',
          shift: 'early',
          observed: `Observed at work against Standard ${s.number} (${s.title}): every observed criterion met.`,
          outcome: 'competent',
          criterion_ids: observed,
        }),
      );
    }
    await submitStandard(await as(learner.id), uuid, s.id);
    clock = new Date(clock.getTime() + DAY);
    await approveStandard(await as(manager.id), uuid, s.id);
  }
  return uuid;
}

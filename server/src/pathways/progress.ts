import type { PathwayStepStatus, PathwayStepType } from '@cc/contracts';
import { sql } from 'kysely';
import { londonDate } from '../bookings/session-service';
import type { DbOrTrx } from '../jobs/queries';

/**
 * A step's status, computed at read time (contracts pathways.ts "Evidence for a step"): nothing is stored per step
 * but sign-offs, so a result recorded anywhere (a course passed, a document acknowledged) shows at once.
 *
 * - course step: a passed, approved, in-date result of the course completed at or after the step's credit time;
 * - document step: an acknowledgement of the document's CURRENT version at or after the credit time;
 * - sign-off step: a sign-off of the step on this allocation made at or after the credit time.
 * A step not done is `locked` (sequential and an earlier step not done), `overdue` (due date passed) or `to_do`.
 */

export interface StepRow {
  id: number;
  version_id: number;
  key: string;
  position: number;
  type: PathwayStepType;
  course_id: number | null;
  document_id: number | null;
  title: string | null;
  description: string | null;
  due_days: number | null;
  due_from: 'allocation' | 'start_date';
  course_title: string | null;
  document_title: string | null;
}

/** What progress needs of an allocation. */
export interface ProgressInput {
  id: number;
  user_id: number;
  version_id: number;
  allocated_at: Date;
  step_credit: Record<string, string>;
  start_date: string | null;
}

export interface SignOffEvidence {
  signed_by: { id: number; uuid: string; name: string } | null;
  signed_on: string;
  note: string;
  created_at: Date;
}

export interface StepProgress {
  step: StepRow;
  status: PathwayStepStatus;
  due_on: string | null;
  done_at: Date | null;
  sign_off: SignOffEvidence | null;
}

export interface Evidence {
  /** `${userId}:${courseId}` -> latest qualifying completion. */
  courses: Map<string, Date>;
  /** `${userId}:${documentId}` -> latest acknowledgement of the current version. */
  documents: Map<string, Date>;
  /** `${allocationId}:${stepKey}` -> sign-offs, newest first. */
  signOffs: Map<string, SignOffEvidence[]>;
}

/** A step's name as people see it: the sign-off's title, else the course's or document's. */
export const stepTitle = (s: StepRow) => s.title ?? s.course_title ?? s.document_title ?? '';

/** The steps of these versions, in order, with their courses' and documents' titles. */
export async function stepsOf(db: DbOrTrx, versionIds: readonly number[]): Promise<Map<number, StepRow[]>> {
  const byVersion = new Map<number, StepRow[]>();
  if (versionIds.length === 0) return byVersion;
  const rows = await db
    .selectFrom('pathway_steps as s')
    .leftJoin('courses as c', 'c.id', 's.course_id')
    .leftJoin('documents as d', 'd.id', 's.document_id')
    .select([
      's.id',
      's.version_id',
      's.key',
      's.position',
      's.type',
      's.course_id',
      's.document_id',
      's.title',
      's.description',
      's.due_days',
      's.due_from',
      'c.title as course_title',
      'd.title as document_title',
    ])
    .where('s.version_id', 'in', [...new Set(versionIds)])
    .orderBy('s.version_id')
    .orderBy('s.position')
    .execute();
  for (const r of rows) {
    const list = byVersion.get(r.version_id) ?? [];
    list.push(r as StepRow);
    byVersion.set(r.version_id, list);
  }
  return byVersion;
}

const dt = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** Every piece of evidence these allocations' steps could use, in three set-based queries. */
export async function loadEvidence(
  db: DbOrTrx,
  allocations: readonly ProgressInput[],
  steps: Map<number, StepRow[]>,
  now: Date,
): Promise<Evidence> {
  const evidence: Evidence = { courses: new Map(), documents: new Map(), signOffs: new Map() };
  if (allocations.length === 0) return evidence;
  const userIds = [...new Set(allocations.map((a) => a.user_id))];
  const all = allocations.flatMap((a) => steps.get(a.version_id) ?? []);
  const courseIds = [...new Set(all.flatMap((s) => (s.course_id ? [s.course_id] : [])))];
  const documentIds = [...new Set(all.flatMap((s) => (s.document_id ? [s.document_id] : [])))];
  // A document's acknowledgement records a 'document' result on its backing course (documents helper), and a new
  // version expires the earlier ones: an in-date result there counts too, whichever of the two is written first.
  const documentCourses = documentIds.length
    ? await db.selectFrom('documents').select(['id', 'course_id']).where('id', 'in', documentIds).execute()
    : [];
  const resultCourseIds = [...new Set([...courseIds, ...documentCourses.map((d) => d.course_id)])];
  if (resultCourseIds.length) {
    const rows = await db
      .selectFrom('results')
      .select(['user_id', 'course_id', sql<Date>`max(completed_at)`.as('at')])
      .where('user_id', 'in', userIds)
      .where('course_id', 'in', resultCourseIds)
      .where('passed', '=', true)
      .where('status', '=', 'approved')
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .groupBy(['user_id', 'course_id'])
      .execute();
    for (const r of rows) evidence.courses.set(`${r.user_id}:${r.course_id}`, dt(r.at));
  }
  if (documentIds.length) {
    const rows = await db
      .selectFrom('document_acknowledgements as da')
      .innerJoin('documents as d', (j) =>
        j.onRef('d.id', '=', 'da.document_id').onRef('d.current_version_id', '=', 'da.version_id'),
      )
      .select(['da.user_id', 'da.document_id', sql<Date>`max(da.acknowledged_at)`.as('at')])
      .where('da.user_id', 'in', userIds)
      .where('da.document_id', 'in', documentIds)
      .groupBy(['da.user_id', 'da.document_id'])
      .execute();
    for (const r of rows) evidence.documents.set(`${r.user_id}:${r.document_id}`, dt(r.at));
    for (const userId of userIds)
      for (const d of documentCourses) {
        const viaResult = evidence.courses.get(`${userId}:${d.course_id}`);
        const key = `${userId}:${d.id}`;
        const viaAck = evidence.documents.get(key);
        if (viaResult && (!viaAck || viaResult > viaAck)) evidence.documents.set(key, viaResult);
      }
  }
  const signOffs = await db
    .selectFrom('pathway_sign_offs as so')
    .leftJoin('users as u', 'u.id', 'so.signed_by')
    .select([
      'so.allocation_id',
      'so.step_key',
      'so.signed_on',
      'so.note',
      'so.created_at',
      'u.id as by_id',
      'u.uuid as by_uuid',
      'u.name as by_name',
    ])
    .where(
      'so.allocation_id',
      'in',
      allocations.map((a) => a.id),
    )
    .orderBy('so.created_at', 'desc')
    .orderBy('so.id', 'desc')
    .execute();
  for (const r of signOffs) {
    const key = `${r.allocation_id}:${r.step_key}`;
    const list = evidence.signOffs.get(key) ?? [];
    list.push({
      signed_by:
        r.by_id !== null ? { id: r.by_id, uuid: r.by_uuid as string, name: r.by_name as string } : null,
      signed_on: typeof r.signed_on === 'string' ? r.signed_on.slice(0, 10) : londonDate(dt(r.signed_on)),
      note: r.note,
      created_at: dt(r.created_at),
    });
    evidence.signOffs.set(key, list);
  }
  return evidence;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** yyyy-mm-dd: `due_days` after the allocation day, or after the person's start date when asked and known. */
export function dueOn(step: StepRow, a: ProgressInput): string | null {
  if (step.due_days === null) return null;
  const from = step.due_from === 'start_date' && a.start_date ? a.start_date : londonDate(a.allocated_at);
  return addDays(from, step.due_days);
}

/** The step's qualifying evidence time and sign-off, or nulls. */
function evidenceFor(step: StepRow, a: ProgressInput, ev: Evidence) {
  const credit = a.step_credit[step.key] ? new Date(a.step_credit[step.key] as string) : null;
  const counts = (at: Date | undefined) => (at && (!credit || at >= credit) ? at : null);
  if (step.type === 'course')
    return { at: counts(ev.courses.get(`${a.user_id}:${step.course_id}`)), sign: null };
  if (step.type === 'document')
    return { at: counts(ev.documents.get(`${a.user_id}:${step.document_id}`)), sign: null };
  const sign = (ev.signOffs.get(`${a.id}:${step.key}`) ?? []).find((s) => counts(s.created_at)) ?? null;
  return { at: sign?.created_at ?? null, sign };
}

/** Each step's status for one allocation (pure: the evidence is loaded already). */
export function progressOf(
  a: ProgressInput,
  steps: readonly StepRow[],
  ev: Evidence,
  sequential: boolean,
  now: Date,
): StepProgress[] {
  const today = londonDate(now);
  let earlierDone = true;
  return steps.map((step) => {
    const { at, sign } = evidenceFor(step, a, ev);
    const due_on = dueOn(step, a);
    let status: PathwayStepStatus;
    if (at) status = 'done';
    else if (sequential && !earlierDone) status = 'locked';
    else if (due_on && due_on < today) status = 'overdue';
    else status = 'to_do';
    if (!at) earlierDone = false;
    return { step, status, due_on, done_at: at, sign_off: sign };
  });
}

export const allDone = (p: readonly StepProgress[]) => p.length > 0 && p.every((s) => s.status === 'done');

/** The earliest due date of a step not done yet. */
export function nextDueOn(p: readonly StepProgress[]): string | null {
  const dues = p.filter((s) => s.status !== 'done' && s.due_on).map((s) => s.due_on as string);
  return dues.length ? (dues.sort()[0] ?? null) : null;
}

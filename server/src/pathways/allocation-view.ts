import type { AllocationStepView, AllocationSummary, AllocationView } from '@cc/contracts';
import type { DbOrTrx } from '../jobs/queries';
import {
  loadEvidence,
  nextDueOn,
  type ProgressInput,
  progressOf,
  type StepProgress,
  type StepRow,
  stepsOf,
} from './progress';
import { presentStepView } from './steps';

/**
 * Allocations as the contract shows them (AllocationSummary, AllocationView): one select with everything a row
 * needs, then set-based progress (progress.ts) for a whole page at once.
 */

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/** Every allocation column a view needs; callers add their where clauses (scope first). */
export function allocationSelect(db: DbOrTrx) {
  return db
    .selectFrom('pathway_allocations as a')
    .innerJoin('pathways as p', 'p.id', 'a.pathway_id')
    .innerJoin('pathway_versions as v', 'v.id', 'a.version_id')
    .leftJoin('pathway_versions as cv', 'cv.id', 'p.current_version_id')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .leftJoin('pathway_role_allocations as pra', 'pra.id', 'a.role_allocation_id')
    .leftJoin('entities as re', 're.id', 'pra.entity_id')
    .leftJoin('entity_roles as rr', 'rr.id', 'pra.role_id')
    .leftJoin('users as so', 'so.id', 'a.signed_off_by')
    .where('p.deleted_at', 'is', null)
    .select([
      'a.id',
      'a.uuid',
      'a.pathway_id',
      'a.version_id',
      'a.user_id',
      'a.status',
      'a.step_credit',
      'a.allocated_at',
      'a.completed_at',
      'a.signed_off_at',
      'a.sign_off_note',
      'a.result_id',
      'p.title as pathway_title',
      'p.course_id as pathway_course_id',
      'p.sequential',
      'p.requires_final_sign_off',
      'v.number as version',
      'cv.number as current_version',
      'u.uuid as user_uuid',
      'u.name as user_name',
      'u.primary_entity_id as user_entity_id',
      'u.start_date',
      're.id as role_entity_id',
      're.slug as role_entity_slug',
      're.name as role_entity_name',
      'rr.id as role_id',
      'rr.name as role_name',
      'so.id as signer_id',
      'so.uuid as signer_uuid',
      'so.name as signer_name',
    ]);
}

export type AllocationListRow = Awaited<
  ReturnType<ReturnType<typeof allocationSelect>['executeTakeFirstOrThrow']>
>;

const asInput = (r: AllocationListRow): ProgressInput => ({
  id: r.id,
  user_id: r.user_id,
  version_id: r.version_id,
  allocated_at: new Date(r.allocated_at),
  step_credit: (r.step_credit ?? {}) as Record<string, string>,
  start_date: r.start_date,
});

/** Each row's step progress (three evidence queries for the whole set). */
export async function progressFor(
  db: DbOrTrx,
  rows: readonly AllocationListRow[],
  now: Date,
): Promise<Map<number, StepProgress[]>> {
  const steps = await stepsOf(
    db,
    rows.map((r) => r.version_id),
  );
  const inputs = rows.map(asInput);
  const ev = await loadEvidence(db, inputs, steps, now);
  const out = new Map<number, StepProgress[]>();
  rows.forEach((r, i) => {
    out.set(
      r.id,
      progressOf(inputs[i] as ProgressInput, steps.get(r.version_id) ?? [], ev, r.sequential, now),
    );
  });
  return out;
}

export function presentSummary(r: AllocationListRow, progress: readonly StepProgress[]): AllocationSummary {
  return {
    uuid: r.uuid,
    pathway: { id: r.pathway_id, title: r.pathway_title },
    user: { id: r.user_id, uuid: r.user_uuid, name: r.user_name },
    version: r.version,
    current_version: r.current_version ?? r.version,
    status: r.status,
    via_role:
      r.role_entity_id !== null && r.role_id !== null
        ? {
            entity: {
              id: r.role_entity_id,
              slug: r.role_entity_slug as string,
              name: r.role_entity_name as string,
            },
            role: { id: r.role_id, name: r.role_name as string },
          }
        : null,
    steps_done: progress.filter((s) => s.status === 'done').length,
    steps_total: progress.length,
    allocated_at: iso(r.allocated_at),
    completed_at: isoOrNull(r.completed_at),
    next_due_on: r.status === 'in_progress' ? nextDueOn(progress) : null,
  };
}

/** Where the learner goes to do a step. */
function hrefOf(step: StepRow): string | null {
  if (step.type === 'course') return `/courses/${step.course_id}`;
  if (step.type === 'document') return `/document/${step.document_id}`;
  return null;
}

/** A step of an allocation: the step as its pathway version shows it, and the person's progress through it. */
export function presentStep(p: StepProgress): AllocationStepView {
  const s = p.step;
  return {
    ...presentStepView(s),
    status: p.status,
    due_on: p.due_on,
    done_at: isoOrNull(p.done_at),
    sign_off: p.sign_off
      ? { signed_by: p.sign_off.signed_by, signed_on: p.sign_off.signed_on, note: p.sign_off.note }
      : null,
    href: hrefOf(s),
  };
}

export function presentView(
  r: AllocationListRow,
  progress: readonly StepProgress[],
  can: AllocationView['can'],
): AllocationView {
  return {
    ...presentSummary(r, progress),
    sequential: r.sequential,
    requires_final_sign_off: r.requires_final_sign_off,
    steps: progress.map(presentStep),
    signed_off: r.signed_off_at
      ? {
          by:
            r.signer_id !== null
              ? { id: r.signer_id, uuid: r.signer_uuid as string, name: r.signer_name as string }
              : null,
          at: iso(r.signed_off_at),
          note: r.sign_off_note,
        }
      : null,
    result_id: r.result_id,
    can,
  };
}

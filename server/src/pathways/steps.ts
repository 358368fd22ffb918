import { randomUUID } from 'node:crypto';
import {
  PathwayMessages as M,
  type PathwayStepInput,
  type PathwayStepType,
  type PathwayStepView,
} from '@cc/contracts';
import type { z } from 'zod';
import { visibility, visibleCourseClause } from '../courses/visibility';
import type { Ctx } from '../http/context';
import { type FieldErrors, invalid } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { type StepRow, stepTitle } from './progress';

/** Steps as the editor sends them → rows to store, their validation, and what an edit changes (versions). */

type StepInput = z.output<typeof PathwayStepInput>;

export interface NewStep {
  key: string;
  type: PathwayStepType;
  course_id: number | null;
  document_id: number | null;
  title: string | null;
  description: string | null;
  due_days: number | null;
  due_from: 'allocation' | 'start_date';
  /** For change lists: the course's or document's title. */
  label: string;
}

export interface StepChange {
  step_key: string;
  change: 'added' | 'changed' | 'removed';
  title: string;
}

/**
 * Checks the steps' courses (visible to the actor, not a pathway's own course) and documents (in a library the actor
 * can see: its organisation's, an ancestor's shared down, or one below in scope), and keys (each once; a key of the
 * current version edits that step). 422 with `steps.{i}.field` errors. Keyless steps get a fresh key.
 */
export async function normaliseSteps(
  ctx: Ctx,
  db: DbOrTrx,
  input: readonly (StepInput | PathwayStepInput)[],
): Promise<NewStep[]> {
  const steps = input as StepInput[];
  const errors: FieldErrors = {};
  const courseIds = [
    ...new Set(steps.flatMap((s) => (s.type === 'course' && s.course_id ? [s.course_id] : []))),
  ];
  const documentIds = [
    ...new Set(steps.flatMap((s) => (s.type === 'document' && s.document_id ? [s.document_id] : []))),
  ];
  const courses = new Map<number, string>();
  if (courseIds.length) {
    const rows = await db
      .selectFrom('courses as c')
      .select(['c.id', 'c.title'])
      .where('c.id', 'in', courseIds)
      .where('c.kind', '<>', 'pathway')
      .where(await visibleCourseClause(ctx))
      .execute();
    for (const r of rows) courses.set(r.id, r.title);
  }
  const documents = new Map<number, string>();
  if (documentIds.length) {
    const v = await visibility(ctx);
    let q = db
      .selectFrom('documents as d')
      .innerJoin('libraries as l', 'l.id', 'd.library_id')
      .select(['d.id', 'd.title'])
      .where('d.id', 'in', documentIds)
      .where('d.deleted_at', 'is', null)
      .where('l.deleted_at', 'is', null);
    if (v.entityIds) q = q.where('l.entity_id', 'in', v.entityIds.length ? v.entityIds : [0]);
    for (const r of await q.execute()) documents.set(r.id, r.title);
  }
  const seenKeys = new Set<string>();
  const out = steps.map((s, i): NewStep => {
    const key = s.key ?? randomUUID();
    if (seenKeys.has(key)) errors[`steps.${i}.key`] = [M.duplicateStep];
    seenKeys.add(key);
    const course_id = s.type === 'course' ? (s.course_id ?? null) : null;
    const document_id = s.type === 'document' ? (s.document_id ?? null) : null;
    if (course_id !== null && !courses.has(course_id)) errors[`steps.${i}.course_id`] = ['Choose a course.'];
    if (document_id !== null && !documents.has(document_id))
      errors[`steps.${i}.document_id`] = ['Choose a document.'];
    const title = s.title ? s.title : null;
    return {
      key,
      type: s.type,
      course_id,
      document_id,
      title,
      description: s.description ? s.description : null,
      due_days: s.due_days ?? null,
      due_from: s.due_from ?? 'allocation',
      label:
        title ??
        (course_id !== null
          ? courses.get(course_id)
          : document_id !== null
            ? documents.get(document_id)
            : '') ??
        '',
    };
  });
  if (Object.keys(errors).length) throw invalid(errors);
  return out;
}

export async function insertSteps(trx: DbOrTrx, versionId: number, steps: readonly NewStep[]) {
  if (steps.length === 0) return;
  await trx
    .insertInto('pathway_steps')
    .values(
      steps.map((s, position) => ({
        version_id: versionId,
        key: s.key,
        position,
        type: s.type,
        course_id: s.course_id,
        document_id: s.document_id,
        title: s.title,
        description: s.description,
        due_days: s.due_days,
        due_from: s.due_from,
      })),
    )
    .execute();
}

/** Replaces a version's steps (an edit in place: nobody is on the version yet). */
export async function replaceSteps(trx: DbOrTrx, versionId: number, steps: readonly NewStep[]) {
  await trx.deleteFrom('pathway_steps').where('version_id', '=', versionId).execute();
  await insertSteps(trx, versionId, steps);
}

const sameStep = (a: StepRow, b: NewStep) =>
  a.type === b.type &&
  a.course_id === b.course_id &&
  a.document_id === b.document_id &&
  a.title === b.title &&
  a.description === b.description &&
  a.due_days === b.due_days &&
  a.due_from === b.due_from;

/** Added, changed (any field but the position) and removed steps, matched by key. */
export function diffSteps(current: readonly StepRow[], next: readonly NewStep[]): StepChange[] {
  const byKey = new Map(current.map((s) => [s.key, s]));
  const nextKeys = new Set(next.map((s) => s.key));
  const changes: StepChange[] = [];
  for (const s of next) {
    const before = byKey.get(s.key);
    if (!before) changes.push({ step_key: s.key, change: 'added', title: s.label });
    else if (!sameStep(before, s)) changes.push({ step_key: s.key, change: 'changed', title: s.label });
  }
  for (const s of current)
    if (!nextKeys.has(s.key)) changes.push({ step_key: s.key, change: 'removed', title: stepTitle(s) });
  return changes;
}

/** True when the new steps differ from the current ones at all (a change, or only a new order). */
export const stepsDiffer = (current: readonly StepRow[], next: readonly NewStep[], changes: StepChange[]) =>
  changes.length > 0 || current.some((s, i) => s.key !== next[i]?.key);

export function presentStepView(s: StepRow): PathwayStepView {
  return {
    key: s.key,
    position: s.position,
    type: s.type,
    course: s.course_id !== null ? { id: s.course_id, title: s.course_title ?? '' } : null,
    document: s.document_id !== null ? { id: s.document_id, title: s.document_title ?? '' } : null,
    title: stepTitle(s),
    description: s.description,
    due_days: s.due_days,
    due_from: s.due_from,
  };
}

import {
  CreatePathwayBody,
  type PATHWAY_DUE_FROM,
  type PathwayChangesView,
  type PathwayStepInput,
  type PathwayStepType,
  type PathwayVersionChoice,
  type PathwayView,
  UpdatePathwayBody,
} from '@cc/contracts';
import type { ZodError } from 'zod';
import type { FieldErrors } from '../entities/shared';
import type { PickItem } from '../results/Picker';

/**
 * The pathway editor's state and its pure rules (kept out of the components so they are tested alone): a draft of
 * the pathway with its steps in order, moving and removing steps, and turning the draft into the contract's
 * bodies. Field errors use the server's keys (`steps.2.course_id`), so a 422 lands beside the same control.
 */
export interface DraftStep {
  /** React's key (the step's key). */
  id: string;
  /** The step's key: the server's for an existing step, a fresh uuid for a new one. Matches a step across versions. */
  key: string;
  type: PathwayStepType;
  course: PickItem | null;
  document: PickItem | null;
  title: string;
  description: string;
  /** As typed: '' means no due date. */
  dueDays: string;
  dueFrom: (typeof PATHWAY_DUE_FROM)[number];
}

export interface Draft {
  /** The owning organisation's slug on create ('' = the server's default: the actor's or the acting-as one). */
  entity: string;
  title: string;
  description: string;
  sequential: boolean;
  requiresFinalSignOff: boolean;
  steps: DraftStep[];
}

/**
 * A fresh uuid v4 for a new step. The server treats a key the pathway has never had as a new step, and the
 * version choices name steps by key, so the preview (POST /pathways/{id}/changes) and the save must carry the same
 * key for a new step. getRandomValues works on plain http too, where crypto.randomUUID is missing.
 */
export function newStepKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const emptyDraft = (): Draft => ({
  entity: '',
  title: '',
  description: '',
  sequential: false,
  requiresFinalSignOff: false,
  steps: [],
});

export function newStep(type: PathwayStepType): DraftStep {
  const key = newStepKey();
  return {
    id: key,
    key,
    type,
    course: null,
    document: null,
    title: '',
    description: '',
    dueDays: '',
    dueFrom: 'allocation',
  };
}

/** The draft of an existing pathway (its current version's steps). */
export function draftFromView(view: PathwayView): Draft {
  return {
    entity: view.entity.slug,
    title: view.title,
    description: view.description ?? '',
    sequential: view.sequential,
    requiresFinalSignOff: view.requires_final_sign_off,
    steps: [...view.steps]
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        id: s.key,
        key: s.key,
        type: s.type,
        course: s.course ? { id: s.course.id, label: s.course.title } : null,
        document: s.document ? { id: s.document.id, label: s.document.title } : null,
        // A course or document step's title is the item's own; only a sign-off names its competence.
        title: s.type === 'sign_off' ? s.title : '',
        description: s.description ?? '',
        dueDays: s.due_days === null ? '' : String(s.due_days),
        dueFrom: s.due_from,
      })),
  };
}

/** Moves the step at `from` to index `to` (clamped); the same array when nothing moves. */
export function moveStepTo(steps: DraftStep[], from: number, to: number): DraftStep[] {
  const target = Math.max(0, Math.min(steps.length - 1, to));
  if (from === target || from < 0 || from >= steps.length) return steps;
  const next = [...steps];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved as DraftStep);
  return next;
}

/** Move up (-1) or down (+1), for the keyboard buttons. */
export const moveStep = (steps: DraftStep[], index: number, delta: -1 | 1) =>
  moveStepTo(steps, index, index + delta);

export const removeStep = (steps: DraftStep[], index: number) => steps.filter((_, i) => i !== index);

export const updateStep = (steps: DraftStep[], index: number, patch: Partial<DraftStep>) =>
  steps.map((s, i) => (i === index ? { ...s, ...patch } : s));

/** One step as the contract's input: only the fields its type uses. */
export function toStepInput(s: DraftStep): PathwayStepInput {
  const due = s.dueDays.trim();
  return {
    key: s.key,
    type: s.type,
    course_id: s.type === 'course' ? (s.course?.id ?? null) : null,
    document_id: s.type === 'document' ? (s.document?.id ?? null) : null,
    title: s.type === 'sign_off' ? s.title.trim() || null : null,
    description: s.description.trim() || null,
    // A number the schema can refuse (e.g. -1 or 2.5) rather than silently dropped.
    due_days: due === '' ? null : Number(due),
    due_from: s.dueFrom,
  };
}

export function toCreateBody(d: Draft): CreatePathwayBody {
  return {
    ...(d.entity ? { entity: d.entity } : {}),
    title: d.title.trim(),
    description: d.description.trim() || null,
    sequential: d.sequential,
    requires_final_sign_off: d.requiresFinalSignOff,
    steps: d.steps.map(toStepInput),
  };
}

export function toUpdateBody(
  d: Draft,
  version?: { choices: Record<string, PathwayVersionChoice>; note: string },
): UpdatePathwayBody {
  return {
    title: d.title.trim(),
    description: d.description.trim() || null,
    sequential: d.sequential,
    requires_final_sign_off: d.requiresFinalSignOff,
    steps: d.steps.map(toStepInput),
    ...(version
      ? {
          change_note: version.note.trim() || null,
          choices: Object.entries(version.choices).map(([step_key, choice]) => ({ step_key, choice })),
        }
      : {}),
  };
}

/** zod issues keyed like the server's (`steps.0.course_id`). */
export function pathFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    out[key] = [...(out[key] ?? []), issue.message];
  }
  return out;
}

/** Checks the draft with the contract before any call; null when it is fine. */
export function checkDraft(d: Draft, mode: 'create' | 'update'): FieldErrors | null {
  const parsed =
    mode === 'create'
      ? CreatePathwayBody.safeParse(toCreateBody(d))
      : UpdatePathwayBody.safeParse(toUpdateBody(d));
  return parsed.success ? null : pathFieldErrors(parsed.error);
}

/** The errors of one step (`steps.{i}.{field}`), keyed by field; the step's own (`steps.{i}`) under `_`. */
export function stepErrors(errors: FieldErrors, index: number): FieldErrors {
  const prefix = `steps.${index}.`;
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(errors)) {
    if (k === `steps.${index}`) out._ = [...(out._ ?? []), ...v];
    else if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v;
  }
  return out;
}

/** The fields a step of this type shows beside their control; any other error of the step is shown on the step. */
export function fieldsOf(type: PathwayStepType): string[] {
  const own = type === 'course' ? 'course_id' : type === 'document' ? 'document_id' : 'title';
  return [own, 'description', 'due_days', 'due_from'];
}

/** Errors of a step that no control of its type shows (the step's own, a field of another type). */
export function otherStepErrors(errors: FieldErrors, type: PathwayStepType): string[] {
  const shown = new Set(fieldsOf(type));
  return Object.entries(errors)
    .filter(([k]) => !shown.has(k))
    .flatMap(([, v]) => v);
}

/**
 * The field errors still standing after an edit of the draft: a changed top-level field loses its own, a change of
 * the steps loses every step error (their indexes may have moved), so no stale error sits beside a corrected field.
 */
export function errorsAfterEdit(errors: FieldErrors, patch: Partial<Draft>): FieldErrors {
  const changed = Object.keys(patch).map((k) =>
    k === 'requiresFinalSignOff' ? 'requires_final_sign_off' : k,
  );
  const out: FieldErrors = {};
  for (const [k, v] of Object.entries(errors)) {
    const top = k.split('.')[0] ?? k;
    if (!changed.includes(top)) out[k] = v;
  }
  return out;
}

/** Every change of a preview has a choice. */
export const allChosen = (preview: PathwayChangesView, choices: Record<string, PathwayVersionChoice>) =>
  preview.changes.every((c) => Boolean(choices[c.step_key]));

/** A step's name as the lists show it. */
export function stepName(s: DraftStep): string {
  if (s.type === 'course') return s.course?.label ?? 'Course not chosen yet';
  if (s.type === 'document') return s.document?.label ?? 'Document not chosen yet';
  return s.title.trim() || 'Sign-off not named yet';
}

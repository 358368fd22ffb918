import { BULK_EVENTS_MAX_USERS, EVIDENCE_MAX_BYTES, ResultsMessages } from '@cc/contracts';
import type { PickItem } from './Picker';

/**
 * The results forms' client-side checks (the server checks again and its 422 messages win) and how each form is
 * sent. Pure functions, unit-tested in results.test.tsx.
 */
export type FieldErrors = Record<string, string[]>;

const EVIDENCE_EXT = /\.(pdf|png|jpe?g)$/i;

export function evidenceErrors(file: File | null): string[] | null {
  if (!file) return null;
  if (file.size > EVIDENCE_MAX_BYTES) return [ResultsMessages.evidenceSize];
  if (!EVIDENCE_EXT.test(file.name)) return [ResultsMessages.evidenceType];
  return null;
}

export interface HistoricalValues {
  user: PickItem | null;
  course: PickItem | null;
  completed_at: string;
  passed: boolean;
  score: string;
  notes: string;
  evidence: File | null;
  remove_evidence: boolean;
}

export function historicalErrors(v: HistoricalValues, today: string, mode: 'create' | 'update'): FieldErrors {
  const e: FieldErrors = {};
  if (mode === 'create' && !v.user) e.user_id = ['Choose the user.'];
  if (!v.course) e.course_id = ['Choose the course.'];
  if (!v.completed_at) e.completed_at = ['Enter the completed date.'];
  else if (v.completed_at > today) e.completed_at = [ResultsMessages.completedInFuture];
  if (v.score !== '') {
    const n = Number(v.score);
    if (!Number.isFinite(n) || n < 0 || n > 100) e.score = ['The score must be between 0 and 100.'];
  }
  const ev = evidenceErrors(v.evidence);
  if (ev) e.evidence = ev;
  return e;
}

/** The multipart body of POST /results/historical/create and PATCH /results/historical/{id}. */
export function historicalFormData(v: HistoricalValues, mode: 'create' | 'update'): FormData {
  const form = new FormData();
  if (mode === 'create' && v.user) form.append('user_id', String(v.user.id));
  if (v.course) form.append('course_id', String(v.course.id));
  form.append('completed_at', v.completed_at);
  form.append('passed', v.passed ? 'true' : 'false');
  form.append('score', v.score);
  form.append('notes', v.notes);
  if (mode === 'update' && v.remove_evidence && !v.evidence) form.append('remove_evidence', 'true');
  if (v.evidence) form.append('evidence', v.evidence, v.evidence.name);
  return form;
}

export interface ExemptValues {
  user: PickItem | null;
  course: PickItem | null;
  start_date: string;
  end_date: string;
  notes: string;
}

/**
 * An exemption's reason (required) and end date (optional; a new one after today, when the course is required again):
 * issue 28 item 6, the same checks as the server's. `today` is the form's today (results/api.ts todayInput).
 */
export function exemptionErrors(v: { notes: string; end_date: string }, today: string): FieldErrors {
  const e: FieldErrors = {};
  if (!v.notes.trim()) e.notes = [ResultsMessages.reasonRequired];
  if (v.end_date && v.end_date <= today) e.end_date = [ResultsMessages.endNotFuture];
  return e;
}

export function exemptErrors(
  v: ExemptValues,
  mode: 'create' | 'update',
  today: string,
  storedEnd = '',
): FieldErrors {
  // An edit may keep an end date that has passed (to correct the reason); only a new one must be after today.
  const e: FieldErrors = exemptionErrors(
    { notes: v.notes, end_date: v.end_date === storedEnd ? '' : v.end_date },
    today,
  );
  if (mode === 'create' && !v.user) e.user_id = ['Choose the user.'];
  if (!v.course) e.course_id = ['Choose the course.'];
  if (!v.start_date) e.start_date = ['Enter the start date.'];
  if (v.end_date && v.start_date && v.end_date <= v.start_date) e.end_date = [ResultsMessages.endBeforeStart];
  return e;
}

export function exemptBody(v: ExemptValues, mode: 'create' | 'update') {
  return {
    ...(mode === 'create' && v.user ? { user_id: v.user.id } : {}),
    course_id: v.course?.id,
    start_date: v.start_date,
    end_date: v.end_date || null,
    notes: v.notes.trim(),
  };
}

export interface BulkValues {
  users: PickItem[];
  course: PickItem | null;
  completed_at: string;
  type: 'face2face' | 'historical';
  passed: boolean;
  score: string;
  notes: string;
}

export function bulkErrors(v: BulkValues, today: string): FieldErrors {
  const e: FieldErrors = {};
  if (!v.users.length) e.user_ids = ['Choose at least one user.'];
  else if (v.users.length > BULK_EVENTS_MAX_USERS)
    e.user_ids = [`Choose at most ${BULK_EVENTS_MAX_USERS} users at a time.`];
  if (!v.course) e.course_id = ['Choose the course.'];
  if (!v.completed_at) e.completed_at = ['Enter the date.'];
  else if (v.completed_at > today) e.completed_at = [ResultsMessages.completedInFuture];
  if (v.score !== '') {
    const n = Number(v.score);
    if (!Number.isFinite(n) || n < 0 || n > 100) e.score = ['The score must be between 0 and 100.'];
  }
  return e;
}

export function bulkBody(v: BulkValues) {
  return {
    user_ids: v.users.map((u) => u.id),
    course_id: v.course?.id,
    completed_at: v.completed_at,
    type: v.type,
    passed: v.passed,
    score: v.score === '' ? null : Number(v.score),
    notes: v.notes.trim() || null,
  };
}

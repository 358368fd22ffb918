import {
  type AvailableTo,
  BookingsMessages,
  type GradingMethod,
  TrainingSessionBody,
  type TrainingSessionView,
} from '@cc/contracts';
import type { FieldErrors } from '../entities/shared';
import type { PickItem } from './api';
import { hhmm } from './labels';

/** The session form's values: text as typed, pickers as chosen; `sessionBody` turns them into the contract's body. */
export interface DayValues {
  key: string;
  date: string;
  startTime: string;
  endTime: string;
}
export interface SessionFormValues {
  /** The owning organisation ('' = the server's default: the acting-as or the user's own). */
  entity_id: string;
  content: PickItem | null;
  trainer: PickItem | null;
  days: DayValues[];
  virtual: boolean;
  venue: string;
  room: string;
  virtual_url: string;
  area: string;
  aim: string;
  contentCovered: string;
  learningOutcomes: string;
  availableTo: AvailableTo;
  minDelegates: string;
  maxDelegates: string;
  grading_method: GradingMethod;
  pass_mark: string;
}

let dayKey = 0;
export const newDay = (date = '', startTime = '09:30', endTime = '16:30'): DayValues => ({
  key: `day-${++dayKey}`,
  date,
  startTime,
  endTime,
});

export function emptySession(): SessionFormValues {
  return {
    entity_id: '',
    content: null,
    trainer: null,
    days: [newDay()],
    virtual: false,
    venue: '',
    room: '',
    virtual_url: '',
    area: '',
    aim: '',
    contentCovered: '',
    learningOutcomes: '',
    availableTo: 'internal',
    minDelegates: '0',
    maxDelegates: '12',
    grading_method: 'attendance',
    pass_mark: '',
  };
}

export function sessionValues(s: TrainingSessionView): SessionFormValues {
  const dates = s.dates?.length ? s.dates : [{ date: s.date, startTime: s.startTime, endTime: s.endTime }];
  return {
    entity_id: String(s.entity.id),
    content: { id: s.contentId, label: s.content.title, hint: s.course.title },
    trainer: s.trainer ? { id: s.trainer.id, label: s.trainer.name } : null,
    days: dates.map((d) => newDay(d.date, hhmm(d.startTime), hhmm(d.endTime))),
    virtual: s.virtual,
    venue: s.venue ?? '',
    room: s.room ?? '',
    virtual_url: s.virtual_url ?? '',
    area: s.area ?? '',
    aim: s.aim ?? '',
    contentCovered: s.contentCovered ?? '',
    learningOutcomes: s.learningOutcomes ?? '',
    availableTo: s.availableTo,
    minDelegates: String(s.minDelegates),
    maxDelegates: String(s.maxDelegates),
    grading_method: s.grading_method,
    pass_mark: s.pass_mark === null ? '' : String(s.pass_mark),
  };
}

const num = (v: string) => (v.trim() === '' ? undefined : Number(v));
const textOrNull = (v: string) => (v.trim() === '' ? null : v.trim());

/**
 * The POST body, checked with the contract's schema plus the rules it cannot express alone (min ≤ max, end after
 * start on every day, a pass mark for scores). Errors are keyed by the contract's field names; the days' errors by
 * `days.<i>.<field>` so each shows beside its input.
 */
export function sessionBody(
  v: SessionFormValues,
): { ok: true; body: TrainingSessionBody } | { ok: false; errors: FieldErrors } {
  const [first, ...rest] = v.days;
  const raw = {
    contentId: v.content?.id,
    entity_id: v.entity_id ? Number(v.entity_id) : undefined,
    date: first?.date ?? '',
    startTime: first?.startTime ?? '',
    endTime: first?.endTime ?? '',
    additionalDates: rest.map((d) => ({ date: d.date, startTime: d.startTime, endTime: d.endTime })),
    trainerId: v.trainer?.id ?? null,
    venue: textOrNull(v.venue),
    room: v.virtual ? null : textOrNull(v.room),
    virtual: v.virtual,
    virtual_url: v.virtual ? textOrNull(v.virtual_url) : null,
    area: textOrNull(v.area),
    aim: textOrNull(v.aim),
    contentCovered: textOrNull(v.contentCovered),
    learningOutcomes: textOrNull(v.learningOutcomes),
    availableTo: v.availableTo,
    minDelegates: num(v.minDelegates) ?? 0,
    maxDelegates: num(v.maxDelegates),
    grading_method: v.grading_method,
    pass_mark: v.grading_method === 'score' ? (num(v.pass_mark) ?? null) : null,
  };
  const errors: FieldErrors = {};
  const parsed = TrainingSessionBody.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, index, field] = issue.path.map(String);
      let key = head ?? '_';
      if (head === 'date' || head === 'startTime' || head === 'endTime') key = `days.0.${head}`;
      if (head === 'additionalDates' && index !== undefined) key = `days.${Number(index) + 1}.${field}`;
      let message = issue.message;
      if (head === 'maxDelegates' && raw.maxDelegates === undefined) message = 'Enter the most delegates.';
      if (head === 'contentId' && raw.contentId === undefined) message = BookingsMessages.notFace2face;
      errors[key] = [...(errors[key] ?? []), message];
    }
  }
  v.days.forEach((d, i) => {
    if (d.startTime && d.endTime && d.endTime <= d.startTime && !errors[`days.${i}.endTime`])
      errors[`days.${i}.endTime`] = [BookingsMessages.endBeforeStart];
  });
  const min = num(v.minDelegates);
  const max = num(v.maxDelegates);
  if (min !== undefined && max !== undefined && min > max && !errors.minDelegates)
    errors.minDelegates = [BookingsMessages.minAboveMax];
  if (v.grading_method === 'score' && v.pass_mark.trim() === '' && !errors.pass_mark)
    errors.pass_mark = ['Enter the pass mark (0 to 100).'];
  if (v.virtual && !v.virtual_url.trim() && !errors.virtual_url)
    errors.virtual_url = ['Enter the joining link.'];
  if (Object.keys(errors).length || !parsed.success) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** The PATCH body: only the fields that differ from the session as loaded (PATCH changes only fields sent). */
export function changedFields(
  body: TrainingSessionBody,
  initial: TrainingSessionBody,
): Partial<TrainingSessionBody> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(body) as (keyof TrainingSessionBody)[]) {
    if (JSON.stringify(body[key] ?? null) !== JSON.stringify(initial[key] ?? null)) out[key] = body[key];
  }
  // The days go together: the first day is date/startTime/endTime and the others additionalDates.
  if (['date', 'startTime', 'endTime', 'additionalDates'].some((k) => k in out)) {
    out.date = body.date;
    out.startTime = body.startTime;
    out.endTime = body.endTime;
    out.additionalDates = body.additionalDates;
  }
  return out as Partial<TrainingSessionBody>;
}

/**
 * The server's 422 errors keyed like the form's: date/startTime/endTime belong to the first day,
 * additionalDates.<i>.<field> to day i+1.
 */
export function formErrorsOf(server: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(server)) {
    const parts = key.split('.');
    let mapped = key;
    if (parts[0] === 'date' || parts[0] === 'startTime' || parts[0] === 'endTime')
      mapped = `days.0.${parts[0]}`;
    if (parts[0] === 'additionalDates' && parts[1] !== undefined)
      mapped = parts[2] ? `days.${Number(parts[1]) + 1}.${parts[2]}` : 'additionalDates';
    out[mapped] = [...(out[mapped] ?? []), ...messages];
  }
  return out;
}

/**
 * The "Run by" choices of a new session (issue 33 §1): every organisation in scope but the default one, which the
 * empty choice already names ("Oakfield House" once, not twice). Editing a session shows them all: its own is chosen.
 */
export function runByOptions(
  entities: readonly { id: number; name: string }[],
  defaultId: number | null | undefined,
  editing: boolean,
): { value: number; label: string }[] {
  return entities.filter((e) => editing || e.id !== defaultId).map((e) => ({ value: e.id, label: e.name }));
}

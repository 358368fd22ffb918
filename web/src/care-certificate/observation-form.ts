import {
  ObservationBody,
  type ObservationOutcome,
  type ObservationShift,
  type ObservationUpdate,
  type ObservationView,
} from '@cc/contracts';
import { type FieldErrors, zodFieldErrors } from '../entities/shared';

/** The observation form's values (strings as the inputs hold them). */
export interface ObservationValues {
  assessor: 'me' | 'other';
  assessor_name: string;
  /** datetime-local value (local time, yyyy-mm-ddThh:mm). */
  observed_at: string;
  place: string;
  shift: ObservationShift | '';
  observed: string;
  outcome: ObservationOutcome | '';
  criterion_ids: number[];
  correction_reason: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as a datetime-local value in the browser's time zone. */
export function toLocalInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function emptyObservation(now: Date = new Date(), criterionIds: number[] = []): ObservationValues {
  return {
    assessor: 'me',
    assessor_name: '',
    observed_at: toLocalInput(now),
    place: '',
    shift: '',
    observed: '',
    outcome: '',
    criterion_ids: criterionIds,
    correction_reason: '',
  };
}

/** An existing observation as form values (to edit it, or to start its correction). */
export function observationValues(o: ObservationView, myId: number | undefined): ObservationValues {
  const mine = o.assessor.id !== null && o.assessor.id === myId;
  return {
    assessor: mine ? 'me' : 'other',
    assessor_name: mine ? '' : o.assessor.name,
    observed_at: toLocalInput(new Date(o.observed_at)),
    place: o.place,
    shift: o.shift,
    observed: o.observed,
    outcome: o.outcome,
    criterion_ids: [...o.criterion_ids],
    correction_reason: '',
  };
}

/** The local time as an ISO instant (the contract wants a date-time with an offset). */
const toIso = (local: string): string | undefined => {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? 'invalid' : d.toISOString();
};

/**
 * The POST body (contracts ObservationBody), or the field errors to show. `supersedes` makes it a correction: the
 * reason is then required.
 */
export function observationBody(
  v: ObservationValues,
  supersedes: ObservationView | null = null,
): { ok: true; body: ObservationBody } | { ok: false; errors: FieldErrors } {
  const parsed = ObservationBody.safeParse({
    assessor_id: undefined,
    assessor_name: v.assessor === 'other' ? v.assessor_name.trim() || null : undefined,
    observed_at: toIso(v.observed_at),
    place: v.place,
    shift: v.shift || undefined,
    observed: v.observed,
    outcome: v.outcome || undefined,
    criterion_ids: v.criterion_ids,
    supersedes_id: supersedes?.id ?? null,
    correction_reason: supersedes ? v.correction_reason.trim() || null : null,
  });
  const errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error);
  if (v.assessor === 'other' && !v.assessor_name.trim())
    errors.assessor_name = ['Enter the assessor’s name.'];
  if (supersedes && !v.correction_reason.trim())
    errors.correction_reason = ['Give the reason for the correction.'];
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  const body = { ...parsed.data };
  if (body.assessor_name === undefined) delete body.assessor_name;
  if (body.assessor_id === undefined) delete body.assessor_id;
  return { ok: true, body };
}

/** The PATCH body: only the fields that changed (contracts ObservationUpdate). */
export function observationChanges(original: ObservationView, body: ObservationBody): ObservationUpdate {
  const out: ObservationUpdate = {};
  if (new Date(body.observed_at).getTime() !== new Date(original.observed_at).getTime())
    out.observed_at = body.observed_at;
  if (body.place !== original.place) out.place = body.place;
  if (body.shift !== original.shift) out.shift = body.shift;
  if (body.observed !== original.observed) out.observed = body.observed;
  if (body.outcome !== original.outcome) out.outcome = body.outcome;
  const a = [...body.criterion_ids].sort((x, y) => x - y).join(',');
  const b = [...original.criterion_ids].sort((x, y) => x - y).join(',');
  if (a !== b) out.criterion_ids = body.criterion_ids;
  if (body.assessor_name !== undefined && body.assessor_name !== original.assessor.name)
    out.assessor_name = body.assessor_name;
  return out;
}

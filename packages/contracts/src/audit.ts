import { z } from 'zod';
import { PageQuery } from './common';
import { type DateFormat, dateFormat, formatDate } from './dates';

/**
 * The audit trail (issue 35 §3; server/src/audit, docs/audit-trail.md): who changed a training record, a requirement,
 * a person's role, an organisation, its user types or permissions, when, from where, and the values before and after.
 * Append-only: there is no route that changes or deletes an entry.
 */

/** Reading the trail needs "search training records" (24) and the subject in the caller's scope (404 otherwise). */
export const AuditPerm = { viewHistory: 24 } as const;

export const AUDIT_ACTIONS = ['created', 'updated', 'deleted', 'approved'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about. */
export const AUDIT_KINDS = [
  'result',
  'exemption',
  'compliance_rule',
  'user_courses',
  'user',
  'entity',
  'role',
  'type',
  'type_permissions',
  'user_permission',
  'entity_permissions',
  /** Issue 35 §4: a subject access export (created), erasure (updated), the records removed after retention (deleted). */
  'personal_data',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/**
 * How a change came about when it was not typed in by hand (issue 35 §3): a result earned by taking training online
 * (e-learning with its quizzes and H5P items, a SCORM package), offline on a device and synced, by a trainer's
 * attendance mark at a session, by reading and acknowledging a document, by completing a pathway; or a record applied
 * or undone by the importer. A change made through a form carries none.
 */
export const AUDIT_VIA = [
  'elearning',
  'scorm',
  'offline',
  'attendance',
  'document',
  'pathway',
  'import',
  'import_undo',
  'exemption_end',
] as const;
export type AuditViaHow = (typeof AUDIT_VIA)[number];

export const AuditVia = z.object({
  how: z.enum(AUDIT_VIA),
  /** What it came through, by name: the content or package, the session, the document, the pathway, the file. */
  label: z.string().nullable(),
  /** Its reference where the app can link to it (the import's uuid, the session's id). */
  ref: z.string().nullable(),
  /** For attendance: the mark given ('attended', 'no_show'). */
  detail: z.string().nullable(),
});
export type AuditVia = z.infer<typeof AuditVia>;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be in the format YYYY-MM-DD.');

/** GET /audit/users/{id}, /audit/results/{id}: page, per_page. */
export const AuditPageQuery = PageQuery.pick({ page: true, per_page: true });
export type AuditPageQuery = z.infer<typeof AuditPageQuery>;

/** GET /audit/entities/{id}: page, per_page, from and to (UK calendar days, both included), action, kind, deep. */
export const AuditEntityQuery = PageQuery.pick({ page: true, per_page: true, deep: true }).extend({
  from: day.optional(),
  to: day.optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
});
export type AuditEntityQuery = z.infer<typeof AuditEntityQuery>;

export const AuditEntryView = z.object({
  id: z.number(),
  occurred_at: z.string(),
  actor: z.object({ id: z.number().nullable(), name: z.string().nullable() }),
  /** The organisation the actor acted as (spec 1 §6, permission 19), when they did. */
  acting_as: z.object({ id: z.number(), name: z.string().nullable() }).nullable(),
  ip: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  kind: z.string(),
  subject: z.object({
    id: z.number().nullable(),
    entity_id: z.number().nullable(),
    user_id: z.number().nullable(),
    label: z.string(),
  }),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  /** How the change came about when not by hand (AUDIT_VIA); null for a change made through a form. */
  via: AuditVia.nullable(),
});
export type AuditEntryView = z.infer<typeof AuditEntryView>;

/** The words a sentence uses for the organisation (white-label entityAltName), e.g. "home". */
export interface AuditWords {
  entity?: string;
  /** The organisation's date format where the caller knows it (the server's PDFs); else the app's current one. */
  dateFormat?: DateFormat;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The fields whose values differ between before and after (labels for "changed ... "). */
export function auditChangedFields(entry: Pick<AuditEntryView, 'before' | 'after'>): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  // A re-mark at a session replaces the result (a new id): the record's values changed, not "its id".
  return [...keys].filter(
    (k) => k !== 'id' && !k.endsWith('_label') && JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
}

const FIELD_WORDS: Record<string, string> = {
  left_on: 'leaving date',
  retention_years: 'retention period',
  course_id: 'course',
  completed_at: 'date',
  passed: 'outcome',
  score: 'score',
  notes: 'notes',
  evidence_file_id: 'evidence',
  expires_at: 'end date',
  role_id: 'role',
  type_id: 'user type',
  primary_entity_id: 'organisation',
  status: 'status',
  validity_months: 'validity',
  compliance_type: 'type',
  name: 'name',
  permissions: 'permissions',
  courses: 'courses',
};

/** "score and date": the fields an edit changed, in words; '' when none is named. */
function changedWords(entry: Pick<AuditEntryView, 'before' | 'after'>): string {
  const fields = [...new Set(auditChangedFields(entry).map((f) => FIELD_WORDS[f] ?? f.replaceAll('_', ' ')))];
  if (fields.length <= 1) return fields[0] ?? '';
  return `${fields.slice(0, -1).join(', ')} and ${fields[fields.length - 1]}`;
}

/** "changed the score and date of X", or "changed X" when no field is named. */
const changedOf = (entry: Pick<AuditEntryView, 'before' | 'after'>, what: string) => {
  const fields = changedWords(entry);
  return fields ? `changed the ${fields} of ${what}` : `changed ${what}`;
};

const quoted = (v: string | null | undefined): string | null => (v ? `“${v}”` : null);
const fileOf = (via: AuditVia | null | undefined): string => quoted(via?.label) ?? 'a file';

/**
 * A result that was earned (taking training online or offline, attendance, a document, a pathway) or applied or undone
 * by the importer, in words: "earned a pass for Fire Safety on 12/03/2026 by passing “Fire Safety Basics” online".
 * Null for a combination with no sentence of its own (the caller's hand-made wording then applies).
 */
function viaResult(
  entry: AuditEntryView,
  via: AuditVia,
  w: { who: string; person: string | null; course: string; on: string; record: string },
): string | null {
  const values = entry.after ?? entry.before ?? {};
  const passed = values.passed !== false;
  // The learner's own training reads "earned a pass", not "Casey Lee earned Casey Lee's pass".
  const own = w.person !== null && w.person === w.who;
  const plain = `a ${passed ? 'pass' : 'fail'} for ${w.course}${w.on ? ` on ${w.on}` : ''}`;
  const record = own ? plain : w.record;
  const thing = via.label && via.label !== w.course ? quoted(via.label) : 'it';
  const whose = w.person ? `${w.person}'s` : 'a';
  switch (via.how) {
    case 'elearning':
    case 'scorm':
    case 'offline': {
      if (entry.action !== 'created') return null;
      const where = via.how === 'offline' ? 'offline on a device, synced later' : 'online';
      return passed
        ? `earned ${record} by passing ${thing} ${where}`
        : `recorded ${record} by taking ${thing} ${where}`;
    }
    case 'document':
      // A document's course carries its title: "by reading and acknowledging the document".
      return entry.action === 'created'
        ? `earned ${record} by reading and acknowledging ${thing === 'it' ? 'the document' : thing}`
        : null;
    case 'pathway':
      return entry.action === 'created'
        ? `recorded ${w.record}, for completing the pathway${thing === 'it' ? '' : ` ${thing}`}`
        : null;
    case 'attendance': {
      const session = via.label ? `the session ${quoted(via.label)}` : 'a session';
      const mark =
        via.detail === 'no_show' ? 'a no-show' : via.detail === 'partial' ? 'partly attended' : 'attended';
      if (entry.action === 'created')
        return `marked ${w.person ?? 'someone'} as ${via.detail === 'no_show' ? 'a no-show' : mark} at ${session}: ${plain}`;
      if (entry.action === 'updated')
        return `changed ${whose} attendance mark at ${session} to ${mark}: now ${plain}`;
      return null;
    }
    case 'import': {
      const file = fileOf(via);
      if (entry.action === 'created') return `imported ${w.record} from ${file}`;
      return `${changedOf(entry, `${whose} result for ${w.course}`)}, imported from ${file}`;
    }
    case 'exemption_end':
      return entry.action === 'updated'
        ? `ended ${whose} exemption from ${w.course}: its end date had come, the course is required again`
        : null;
    case 'import_undo': {
      const file = fileOf(via);
      if (entry.action === 'deleted') return `undid the import of ${file}: removed ${w.record}`;
      return `undid the import of ${file}: ${changedOf(entry, `${whose} result for ${w.course}`).replace(/^changed/, 'changed back')}`;
    }
  }
}

/**
 * One entry in plain words, the same on every screen and in the inspection pack: "Alex Smith recorded a pass for Fire
 * Safety on 12/03/2026 (acting as Rose House)". Dates in the organisation's format (dates.ts).
 */
export function describeAuditEntry(entry: AuditEntryView, words: AuditWords = {}): string {
  const dateOf = (v: unknown): string =>
    typeof v === 'string' || v instanceof Date ? formatDate(v, words.dateFormat ?? dateFormat()) : '';
  const who = entry.actor.name ?? 'The system';
  const values = entry.after ?? entry.before ?? {};
  const course = str(values.course_label) ?? 'a course';
  const person = str(values.user_label);
  const label = entry.subject.label;
  const entityWord = words.entity ?? 'organisation';
  let what: string;
  switch (entry.kind) {
    case 'result': {
      // "Casey Lee's pass for Fire Safety on 12/03/2026"
      const outcome = `${person ? `${person}'s` : 'a'} ${values.passed === false ? 'fail' : 'pass'}`;
      const on = dateOf(values.completed_at);
      const record = `${outcome} for ${course}${on ? ` on ${on}` : ''}`;
      const earned = entry.via ? viaResult(entry, entry.via, { who, person, course, on, record }) : null;
      if (earned) what = earned;
      else if (entry.action === 'created') what = `recorded ${record}`;
      else if (entry.action === 'approved') what = `approved ${record}`;
      else if (entry.action === 'deleted') what = `deleted ${record}`;
      else what = changedOf(entry, `${person ? `${person}'s` : 'a'} result for ${course}`);
      break;
    }
    case 'exemption': {
      const until = dateOf(values.expires_at);
      const end = until ? ` until ${until}` : '';
      const whom = person ?? 'someone';
      if (entry.action === 'created') what = `exempted ${whom} from ${course}${end}`;
      else if (entry.action === 'deleted')
        what = `removed ${person ? `${person}'s` : 'an'} exemption from ${course}`;
      else what = changedOf(entry, `${person ? `${person}'s` : 'an'} exemption from ${course}`);
      break;
    }
    case 'compliance_rule':
      what =
        entry.action === 'created'
          ? `added ${course} to the requirements of ${label}`
          : entry.action === 'deleted'
            ? `removed ${course} from the requirements of ${label}`
            : changedOf(entry, `${course} for ${label}`);
      break;
    case 'user_courses':
      what = `changed the required courses of ${label}`;
      break;
    case 'user': {
      what =
        entry.action === 'created'
          ? `added ${label}`
          : entry.action === 'deleted'
            ? `removed ${label}`
            : `changed ${entry.via?.how === 'import_undo' ? 'back ' : ''}${label}'s ${changedWords(entry) || 'details'}`;
      const file = fileOf(entry.via);
      if (entry.via?.how === 'import') what = `${what}, imported from ${file}`;
      else if (entry.via?.how === 'import_undo') what = `undid the import of ${file}: ${what}`;
      break;
    }
    case 'entity':
      what = changedOf(entry, `the ${entityWord} ${label}`);
      break;
    case 'role':
    case 'type': {
      const noun = entry.kind === 'role' ? 'role' : 'user type';
      what =
        entry.action === 'created'
          ? `added the ${noun} ${label}`
          : entry.action === 'deleted'
            ? `deleted the ${noun} ${label}`
            : str(entry.before?.name) && entry.before?.name !== entry.after?.name
              ? `renamed the ${noun} ${str(entry.before?.name)} to ${label}`
              : changedOf(entry, `the ${noun} ${label}`);
      break;
    }
    case 'type_permissions':
      what = `changed the permissions of the user type ${label}`;
      break;
    case 'entity_permissions':
      what = `changed the permissions allowed to ${label}`;
      break;
    case 'user_permission':
      what =
        entry.action === 'created'
          ? `granted ${label}`
          : entry.action === 'deleted'
            ? `withdrew ${label}`
            : `changed ${label}`;
      break;
    case 'personal_data':
      what =
        entry.action === 'created'
          ? `downloaded the personal data of ${label}`
          : entry.action === 'deleted'
            ? `removed the training record of ${label} at the end of the retention period`
            : `erased the personal details of ${label}`;
      break;
    default:
      what = `${entry.action} ${label}`;
  }
  const acting = entry.acting_as ? ` (acting as ${entry.acting_as.name ?? entry.acting_as.id})` : '';
  return `${who} ${what}${acting}.`;
}

import { z } from 'zod';
import { PageQuery, updateSchemaOf } from './common';
import { CELL_STATUSES } from './course-status';

/**
 * Report presets and schedules (spec 2 §3 "Report preset", §7 "Reports", permission 117 "schedules").
 *
 * Where the spec names a field without its values, ours (written down here, used by server and web alike):
 * - entities, courses, pathways, users, roles: ids the report is limited to (empty: no limit); every id must be
 *   inside the caller's scope.
 * - includeStatusTypes: which cell statuses the report shows (empty: all).
 * - includeStarters: whether new starters appear at all; new_starters_filter says how (§3 enumeration).
 * - compliance_type: primary (Mandatory, the navigation default), secondary (Required) or all.
 * - previousMonths: how many past months the compliance trend covers.
 * - grade: a result grade the certificate report is limited to (free text, e.g. "Pass").
 * - filter_by: which date the period filters on, completion (the results default) or expiry.
 * - course_type: a content / result type, or none for all.
 * - period: today, last_week, otherwise last month; from_date / to_date override it when given.
 * - date_completion: show completion dates in cells instead of expiry dates.
 */

export const PRESET_PERMISSIONS = {
  matrixReport: 12,
  complianceReport: 13,
  userCertificates: 7,
  resultsReport: 56,
  schedules: 117,
} as const;
/** Any of these lets a user keep presets (the report itself checks its own permission when run). */
export const PRESET_ANY_OF = [
  PRESET_PERMISSIONS.matrixReport,
  PRESET_PERMISSIONS.complianceReport,
  PRESET_PERMISSIONS.userCertificates,
  PRESET_PERMISSIONS.resultsReport,
] as const;

export const PresetMessages = {
  failedToFetch: 'Failed to fetch report preset.',
  created: 'Report preset has been created.',
  updated: 'Report preset has been updated.',
  deleted: 'Report preset has been deleted.',
  scheduleCreated: 'Report schedule has been created.',
  scheduleUpdated: 'Report schedule has been updated.',
  scheduleDeleted: 'Report schedule has been deleted.',
  scheduleQueued: 'The report has been queued and will be e-mailed shortly.',
  failedToFetchSchedules: 'Failed to fetch report schedules.',
  notInScope: 'The selected ids are not available to you.',
  noRenderer: (type: string) =>
    `The ${type} report cannot be generated yet: no report renderer is installed.`,
} as const;

export const REPORT_TYPES = ['certificate', 'matrix'] as const;
export const PRESET_PERIODS = ['today', 'last_week', 'last_month'] as const;
export const NEW_STARTERS_FILTERS = [
  'exclude_new_starters',
  'include_new_starters',
  'new_starters_only',
] as const;
export const CARE_CERTIFICATE_FILTERS = ['in_progress', 'complete', 'either'] as const;
/** includeStatusTypes: the cell statuses (compliance.ts CELL_STATUSES, exempt included). */
export const STATUS_TYPES = CELL_STATUSES;
export const PRESET_COMPLIANCE_TYPES = ['primary', 'secondary', 'all'] as const;
export const PRESET_FILTER_BY = ['completed', 'expires'] as const;
export const PRESET_COURSE_TYPES = [
  'elearning',
  'scorm',
  'historical',
  'face2face',
  'exempt',
  'assessment',
  'pathway',
  'document',
] as const;
export const EXPORT_FORMATS = ['PDF', 'XLSX'] as const;
export const SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const WEEKDAYS = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export const DEFAULT_SCHEDULE_TIMEZONE = 'Europe/London';
export const MAX_SCHEDULE_RECIPIENTS = 20;
export const MAX_PRESET_IDS = 1000;

export type ReportType = (typeof REPORT_TYPES)[number];
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

const dbId = z.number().int().positive().max(2147483647);
const idList = z.array(dbId).max(MAX_PRESET_IDS, `At most ${MAX_PRESET_IDS} ids may be chosen.`);
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be YYYY-MM-DD.')
  .refine(
    (s) =>
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'The date is not a valid date.',
    },
  );

/** Every field of spec 2 §3 "Report preset", all optional: a missing one keeps its default (or stored value). */
const presetFields = {
  name: z.string().trim().min(1, 'The name field is required.').max(120),
  report_type: z.enum(REPORT_TYPES, { message: 'The report type must be certificate or matrix.' }),
  entities: idList,
  courses: idList,
  pathways: idList,
  users: idList,
  roles: idList,
  includeStatusTypes: z.array(z.enum(STATUS_TYPES)).max(STATUS_TYPES.length),
  includeStarters: z.boolean(),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES),
  previousMonths: z.number().int().min(1).max(24).nullable(),
  grade: z.string().trim().max(50).nullable(),
  filter_by: z.enum(PRESET_FILTER_BY),
  course_type: z.enum(PRESET_COURSE_TYPES).nullable(),
  period: z.enum(PRESET_PERIODS, { message: 'The period must be today, last_week or last_month.' }),
  from_date: isoDate.nullable(),
  to_date: isoDate.nullable(),
  primary_only: z.boolean(),
  never_logged_in_only: z.boolean(),
  date_completion: z.boolean(),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS),
  care_certificate_filter: z.enum(CARE_CERTIFICATE_FILTERS),
};

export const CreatePresetBody = z
  .object({
    ...presetFields,
    name: presetFields.name,
    report_type: presetFields.report_type,
    /** spec 2 §7: the entity the preset belongs to (an entity the caller may act as); default: the current one. */
    acting_as_id: dbId.nullable().optional(),
  })
  .partial()
  .required({ name: true, report_type: true });
export type CreatePresetBody = z.infer<typeof CreatePresetBody>;
export const UpdatePresetBody = updateSchemaOf(z.object(presetFields));
export type UpdatePresetBody = z.infer<typeof UpdatePresetBody>;

export const PresetListQuery = PageQuery.extend({
  acting_as_id: z.coerce.number().int().positive().max(2147483647).optional(),
  report_type: z.enum(REPORT_TYPES).optional(),
});
/** GET /reports/presets/options/{kind}: choices for a preset's id lists, within the preset entity's scope. */
export const PRESET_OPTION_KINDS = ['entities', 'users', 'roles', 'courses', 'pathways'] as const;
export const PresetOptionParams = z.object({ kind: z.enum(PRESET_OPTION_KINDS) });
export const PresetOptionsQuery = z.object({
  acting_as_id: z.coerce.number().int().positive().max(2147483647).optional(),
  search: z.string().trim().max(200).optional(),
  /** Comma-separated ids whose labels the form needs (a saved preset's choices). */
  ids: z
    .string()
    .regex(/^\d{1,9}(,\d{1,9}){0,999}$/, 'ids must be a comma-separated list of ids.')
    .transform((v) => v.split(',').map(Number))
    .optional(),
  actingAs: z.string().max(120).optional(),
});
export const PresetOption = z.object({ id: z.number(), label: z.string() });
export type PresetOption = z.infer<typeof PresetOption>;
export const PresetIdParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

export const ReportPreset = z.object({
  id: z.number(),
  uuid: z.string(),
  user_id: z.number(),
  entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  name: z.string(),
  report_type: z.enum(REPORT_TYPES),
  entities: z.array(z.number()),
  courses: z.array(z.number()),
  pathways: z.array(z.number()),
  users: z.array(z.number()),
  roles: z.array(z.number()),
  includeStatusTypes: z.array(z.enum(STATUS_TYPES)),
  includeStarters: z.boolean(),
  compliance_type: z.enum(PRESET_COMPLIANCE_TYPES),
  previousMonths: z.number().nullable(),
  grade: z.string().nullable(),
  filter_by: z.enum(PRESET_FILTER_BY),
  course_type: z.enum(PRESET_COURSE_TYPES).nullable(),
  period: z.enum(PRESET_PERIODS),
  from_date: z.string().nullable(),
  to_date: z.string().nullable(),
  primary_only: z.boolean(),
  never_logged_in_only: z.boolean(),
  date_completion: z.boolean(),
  new_starters_filter: z.enum(NEW_STARTERS_FILTERS),
  care_certificate_filter: z.enum(CARE_CERTIFICATE_FILTERS),
  schedules_count: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReportPreset = z.infer<typeof ReportPreset>;

// --- Schedules (permission 117).

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'The time must be HH:MM (24-hour).');
export const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const email = z
  .string()
  .trim()
  .toLowerCase()
  .email('Each recipient must be a valid e-mail address.')
  .max(255);

const scheduleFields = {
  preset_id: dbId,
  frequency: z.enum(SCHEDULE_FREQUENCIES, { message: 'The frequency must be daily, weekly or monthly.' }),
  time: hhmm,
  /** 0 = Sunday … 6 = Saturday; required for weekly schedules. */
  weekday: z.number().int().min(0).max(6).nullable(),
  /** 1 to 28 (so every month has the day); required for monthly schedules. */
  day_of_month: z
    .number()
    .int()
    .min(1, 'The day must be 1 to 28.')
    .max(28, 'The day must be 1 to 28.')
    .nullable(),
  timezone: z.string().max(64).refine(isTimeZone, 'The time zone is not known.'),
  recipients: z
    .array(email)
    .min(1, 'Add at least one recipient.')
    .max(MAX_SCHEDULE_RECIPIENTS, `At most ${MAX_SCHEDULE_RECIPIENTS} recipients.`),
  format: z.enum(EXPORT_FORMATS, { message: 'The format must be PDF or XLSX.' }),
  active: z.boolean(),
};

export interface RecurrenceFields {
  frequency: (typeof SCHEDULE_FREQUENCIES)[number];
  weekday?: number | null;
  day_of_month?: number | null;
}
/** A weekly schedule needs its weekday, a monthly one its day (checked on create and on the merged update). */
export function recurrenceErrors(s: RecurrenceFields): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (s.frequency === 'weekly' && (s.weekday === null || s.weekday === undefined))
    errors.weekday = ['Choose the day of the week.'];
  if (s.frequency === 'monthly' && (s.day_of_month === null || s.day_of_month === undefined))
    errors.day_of_month = ['Choose the day of the month.'];
  return errors;
}

export const CreateScheduleBody = z
  .object(scheduleFields)
  .partial()
  .required({ preset_id: true, frequency: true, time: true, recipients: true, format: true });
export type CreateScheduleBody = z.infer<typeof CreateScheduleBody>;
export const UpdateScheduleBody = updateSchemaOf(z.object(scheduleFields));
export type UpdateScheduleBody = z.infer<typeof UpdateScheduleBody>;
export const ScheduleListQuery = PageQuery;

export const ReportSchedule = z.object({
  id: z.number(),
  uuid: z.string(),
  user_id: z.number(),
  entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  preset: z.object({ id: z.number(), name: z.string(), report_type: z.enum(REPORT_TYPES) }),
  frequency: z.enum(SCHEDULE_FREQUENCIES),
  time: z.string(),
  weekday: z.number().nullable(),
  day_of_month: z.number().nullable(),
  timezone: z.string(),
  cron: z.string(),
  recipients: z.array(z.string()),
  format: z.enum(EXPORT_FORMATS),
  active: z.boolean(),
  next_run_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_status: z.enum(['queued', 'sent', 'failed']).nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ReportSchedule = z.infer<typeof ReportSchedule>;

/** The 5-field cron expression of a recurrence (minute hour day-of-month month day-of-week). */
export function recurrenceCron(s: RecurrenceFields & { time: string }): string {
  const [hour, minute] = s.time.split(':').map(Number);
  if (s.frequency === 'weekly') return `${minute} ${hour} * * ${s.weekday ?? 0}`;
  if (s.frequency === 'monthly') return `${minute} ${hour} ${s.day_of_month ?? 1} * *`;
  return `${minute} ${hour} * * *`;
}

/** "Every Monday at 07:30", for lists and e-mails. */
export function describeRecurrence(s: RecurrenceFields & { time: string }): string {
  if (s.frequency === 'weekly') return `Every ${WEEKDAYS[s.weekday ?? 0]} at ${s.time}`;
  if (s.frequency === 'monthly') {
    const d = s.day_of_month ?? 1;
    const suffix =
      d % 10 === 1 && d !== 11
        ? 'st'
        : d % 10 === 2 && d !== 12
          ? 'nd'
          : d % 10 === 3 && d !== 13
            ? 'rd'
            : 'th';
    return `Monthly on the ${d}${suffix} at ${s.time}`;
  }
  return `Daily at ${s.time}`;
}

/**
 * spec 2 §9: a report file name combines the report type, the user's name and the date as DD-MM-YYYY,
 * e.g. `matrix-Jane-Smith-21-11-2026.xlsx`. `date` is a Date (shown in `timeZone`, default Europe/London) or a
 * 'YYYY-MM-DD' string. Characters that are unsafe in file names are dropped; spaces become hyphens.
 */
export function reportFileName(
  type: string,
  userName: string,
  date: Date | string,
  ext: string,
  timeZone = DEFAULT_SCHEDULE_TIMEZONE,
): string {
  const clean = (s: string) =>
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '');
  let ddmmyyyy: string;
  if (typeof date === 'string') {
    const [y, m, d] = date.slice(0, 10).split('-');
    ddmmyyyy = `${d}-${m}-${y}`;
  } else {
    const parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).formatToParts(date);
    const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
    ddmmyyyy = `${get('day')}-${get('month')}-${get('year')}`;
  }
  const extension = ext.replace(/^\./, '').toLowerCase();
  return `${[clean(type), clean(userName) || 'user', ddmmyyyy].filter(Boolean).join('-')}.${extension}`;
}

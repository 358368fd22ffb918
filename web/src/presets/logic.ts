import {
  type CARE_CERTIFICATE_FILTERS,
  CELL_STATUS_LABELS,
  type CreatePresetBody,
  type CreateScheduleBody,
  DEFAULT_SCHEDULE_TIMEZONE,
  describeRecurrence,
  type ExportFormat,
  formatDateTime,
  type GenericReportBody,
  type NEW_STARTERS_FILTERS,
  type PRESET_COMPLIANCE_TYPES,
  type PRESET_COURSE_TYPES,
  type PRESET_FILTER_BY,
  type PRESET_PERIODS,
  type ReportPreset,
  type ReportSchedule,
  type ReportType,
  type SCHEDULE_FREQUENCIES,
  type STATUS_TYPES,
} from '@cc/contracts';
import type { z } from 'zod';

/** The preset form's state: every field of spec 2 §3 "Report preset", ids as lists, dates as '' when unset. */
export interface PresetForm {
  name: string;
  report_type: ReportType;
  entities: number[];
  courses: number[];
  pathways: number[];
  users: number[];
  roles: number[];
  includeStatusTypes: (typeof STATUS_TYPES)[number][];
  includeStarters: boolean;
  compliance_type: (typeof PRESET_COMPLIANCE_TYPES)[number];
  previousMonths: string;
  grade: string;
  filter_by: (typeof PRESET_FILTER_BY)[number];
  course_type: (typeof PRESET_COURSE_TYPES)[number] | '';
  period: (typeof PRESET_PERIODS)[number];
  from_date: string;
  to_date: string;
  primary_only: boolean;
  never_logged_in_only: boolean;
  date_completion: boolean;
  new_starters_filter: (typeof NEW_STARTERS_FILTERS)[number];
  care_certificate_filter: (typeof CARE_CERTIFICATE_FILTERS)[number];
}

/** The server's defaults (migration 008), so a new form shows what an empty save would store. */
export function emptyPreset(): PresetForm {
  return {
    name: '',
    report_type: 'matrix',
    entities: [],
    courses: [],
    pathways: [],
    users: [],
    roles: [],
    includeStatusTypes: [],
    includeStarters: true,
    compliance_type: 'primary',
    previousMonths: '',
    grade: '',
    filter_by: 'completed',
    course_type: '',
    period: 'last_month',
    from_date: '',
    to_date: '',
    primary_only: false,
    never_logged_in_only: false,
    date_completion: false,
    new_starters_filter: 'include_new_starters',
    care_certificate_filter: 'either',
  };
}

export function presetToForm(p: ReportPreset): PresetForm {
  return {
    name: p.name,
    report_type: p.report_type,
    entities: p.entities,
    courses: p.courses,
    pathways: p.pathways,
    users: p.users,
    roles: p.roles,
    includeStatusTypes: p.includeStatusTypes,
    includeStarters: p.includeStarters,
    compliance_type: p.compliance_type,
    previousMonths: p.previousMonths === null ? '' : String(p.previousMonths),
    grade: p.grade ?? '',
    filter_by: p.filter_by,
    course_type: p.course_type ?? '',
    period: p.period,
    from_date: p.from_date ?? '',
    to_date: p.to_date ?? '',
    primary_only: p.primary_only,
    never_logged_in_only: p.never_logged_in_only,
    date_completion: p.date_completion,
    new_starters_filter: p.new_starters_filter,
    care_certificate_filter: p.care_certificate_filter,
  };
}

/** The request body (spec field names); empty optional inputs become null. */
export function formToBody(f: PresetForm, actingAsId?: number | null): CreatePresetBody {
  const months = f.previousMonths.trim();
  return {
    name: f.name.trim(),
    report_type: f.report_type,
    entities: f.entities,
    courses: f.courses,
    pathways: f.pathways,
    users: f.users,
    roles: f.roles,
    includeStatusTypes: f.includeStatusTypes,
    includeStarters: f.includeStarters,
    compliance_type: f.compliance_type,
    previousMonths: months === '' ? null : Number(months),
    grade: f.grade.trim() === '' ? null : f.grade.trim(),
    filter_by: f.filter_by,
    course_type: f.course_type === '' ? null : f.course_type,
    period: f.period,
    from_date: f.from_date || null,
    to_date: f.to_date || null,
    primary_only: f.primary_only,
    never_logged_in_only: f.never_logged_in_only,
    date_completion: f.date_completion,
    new_starters_filter: f.new_starters_filter,
    care_certificate_filter: f.care_certificate_filter,
    ...(actingAsId ? { acting_as_id: actingAsId } : {}),
  };
}

/**
 * POST /report's body for running a saved preset now (spec 2 §3: certificate or matrix), as its schedule would: the
 * preset's fields, and its own entity when it names none (the server checks that entity is in the caller's scope).
 */
export function presetReportBody(p: ReportPreset, format: ExportFormat): z.input<typeof GenericReportBody> {
  return {
    report_type: p.report_type,
    format,
    entities: p.entities.length ? p.entities : [p.entity.id],
    users: p.users,
    courses: p.courses,
    roles: p.roles,
    includeStatusTypes: p.includeStatusTypes,
    includeStarters: p.includeStarters,
    compliance_type: p.compliance_type,
    primary_only: p.primary_only,
    new_starters_filter: p.new_starters_filter,
    period: p.period,
    from_date: p.from_date,
    to_date: p.to_date,
    filter_by: p.filter_by,
    course_type: p.course_type,
    grade: p.grade,
    date_completion: p.date_completion,
  };
}

export const LABELS = {
  report_type: { certificate: 'Certificate report', matrix: 'Compliance matrix' },
  period: { today: 'Today', last_week: 'Last week', last_month: 'Last month' },
  new_starters_filter: {
    exclude_new_starters: 'Exclude new starters',
    include_new_starters: 'Include new starters',
    new_starters_only: 'New starters only',
  },
  care_certificate_filter: { in_progress: 'In progress', complete: 'Complete', either: 'Either' },
  status: CELL_STATUS_LABELS,
  filter_by: { completed: 'Completion date', expires: 'Expiry date' },
  course_type: {
    elearning: 'E-learning',
    scorm: 'SCORM',
    historical: 'Historical',
    face2face: 'Face-to-face',
    exempt: 'Exempt',
    assessment: 'Assessment',
    pathway: 'Pathway',
    document: 'Document read',
  },
  frequency: { daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' },
} as const;

export const options = <K extends string>(values: readonly K[], labels: Record<K, string>) =>
  values.map((value) => ({ value, label: labels[value] }));

/** One line about a preset's filters for the list ("Last month · 2 entities · new starters only"). */
export function presetSummary(p: ReportPreset): string {
  const parts: string[] = [
    p.from_date || p.to_date ? `${p.from_date ?? '…'} to ${p.to_date ?? '…'}` : LABELS.period[p.period],
  ];
  const count = (n: number, one: string, many: string) => (n ? `${n} ${n === 1 ? one : many}` : null);
  for (const part of [
    count(p.entities.length, 'entity', 'entities'),
    count(p.roles.length, 'role', 'roles'),
    count(p.courses.length, 'course', 'courses'),
    count(p.users.length, 'user', 'users'),
  ])
    if (part) parts.push(part);
  if (p.new_starters_filter !== 'include_new_starters')
    parts.push(LABELS.new_starters_filter[p.new_starters_filter]);
  return parts.join(' · ');
}

// --- Schedules.

export interface ScheduleForm {
  preset_id: string;
  frequency: (typeof SCHEDULE_FREQUENCIES)[number];
  time: string;
  weekday: string;
  day_of_month: string;
  timezone: string;
  recipients: string;
  format: ExportFormat;
  active: boolean;
}

export function emptySchedule(presetId?: number, email?: string): ScheduleForm {
  return {
    preset_id: presetId ? String(presetId) : '',
    frequency: 'weekly',
    time: '07:00',
    weekday: '1',
    day_of_month: '1',
    timezone: DEFAULT_SCHEDULE_TIMEZONE,
    recipients: email ?? '',
    format: 'XLSX',
    active: true,
  };
}

export function scheduleToForm(s: ReportSchedule): ScheduleForm {
  return {
    preset_id: String(s.preset.id),
    frequency: s.frequency,
    time: s.time,
    weekday: String(s.weekday ?? 1),
    day_of_month: String(s.day_of_month ?? 1),
    timezone: s.timezone,
    recipients: s.recipients.join('\n'),
    format: s.format,
    active: s.active,
  };
}

/** Recipients typed one per line, or separated by commas or semicolons. */
export function parseRecipients(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export function scheduleFormToBody(f: ScheduleForm): CreateScheduleBody {
  return {
    preset_id: Number(f.preset_id),
    frequency: f.frequency,
    time: f.time,
    weekday: f.frequency === 'weekly' ? Number(f.weekday) : null,
    day_of_month: f.frequency === 'monthly' ? Number(f.day_of_month) : null,
    timezone: f.timezone,
    recipients: parseRecipients(f.recipients),
    format: f.format,
    active: f.active,
  };
}

/** Field errors keyed "recipients.0" by the server are shown on the recipients box. */
export function foldIndexedErrors(errors: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(errors)) {
    const field = key.split('.')[0] ?? key;
    out[field] = [...new Set([...(out[field] ?? []), ...messages])];
  }
  return out;
}

export function scheduleSummary(
  s: Pick<ReportSchedule, 'frequency' | 'time' | 'weekday' | 'day_of_month'>,
): string {
  return describeRecurrence(s);
}

/** "21/11/2026 07:30" in the organisation's date format (dates.ts); '—' for none. */
export function formatWhen(iso: string | null): string {
  return formatDateTime(iso, undefined, '—');
}

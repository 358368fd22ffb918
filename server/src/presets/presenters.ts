import type { ReportPreset, ReportSchedule } from '@cc/contracts';
import type { PresetRow, ScheduleRow } from './queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
export const dateOnly = (d: string | Date | null) =>
  d === null ? null : typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10);

/** Column names are snake_case; the spec's camelCase fields (includeStatusTypes, …) are kept on the wire. */
export function presentPreset(r: PresetRow): ReportPreset {
  return {
    id: r.id,
    uuid: r.uuid,
    user_id: r.user_id,
    entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
    name: r.name,
    report_type: r.report_type,
    entities: r.entities,
    courses: r.courses,
    pathways: r.pathways,
    users: r.users,
    roles: r.roles,
    includeStatusTypes: r.include_status_types as ReportPreset['includeStatusTypes'],
    includeStarters: r.include_starters,
    compliance_type: r.compliance_type as ReportPreset['compliance_type'],
    previousMonths: r.previous_months,
    grade: r.grade,
    filter_by: r.filter_by as ReportPreset['filter_by'],
    course_type: r.course_type as ReportPreset['course_type'],
    period: r.period,
    from_date: dateOnly(r.from_date),
    to_date: dateOnly(r.to_date),
    primary_only: r.primary_only,
    never_logged_in_only: r.never_logged_in_only,
    date_completion: r.date_completion,
    new_starters_filter: r.new_starters_filter,
    care_certificate_filter: r.care_certificate_filter,
    schedules_count: r.schedules_count,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export function presentSchedule(r: ScheduleRow): ReportSchedule {
  return {
    id: r.id,
    uuid: r.uuid,
    user_id: r.user_id,
    entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
    preset: { id: r.preset_id, name: r.preset_name, report_type: r.report_type },
    frequency: r.frequency,
    time: r.time_of_day,
    weekday: r.weekday,
    day_of_month: r.day_of_month,
    timezone: r.timezone,
    cron: r.cron,
    recipients: r.recipients,
    format: r.format,
    active: r.active,
    next_run_at: iso(r.next_run_at),
    last_run_at: iso(r.last_run_at),
    last_status: r.last_status,
    last_error: r.last_error,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

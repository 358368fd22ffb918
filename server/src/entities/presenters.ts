import type { EntityCourseSummary, EntityDto, EntitySummary, PasswordRequirements } from '@cc/contracts';
import type { EntityWithParent } from './queries';

const iso = (d: Date | string | null): string | null =>
  d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString();

export function presentEntitySummary(row: {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id: number | null;
  is_training_company: boolean;
}): EntitySummary {
  return {
    id: row.id,
    uuid: row.uuid,
    slug: row.slug,
    name: row.name,
    level: row.level,
    parent_id: row.parent_id,
    is_training_company: row.is_training_company,
  };
}

/**
 * The API shape of an entity. The restricted-access password hash never leaves the server (only whether one
 * is set); `notes` are included only when the caller may view them (permission 120, spec 2 §6), `score` only when
 * they may read scores. `courses` and `score` (spec 1 §3) come from set-based queries over the whole page.
 */
export function presentEntity(
  row: EntityWithParent,
  opts: { canSeeNotes: boolean; courses: EntityCourseSummary[]; score?: number },
): EntityDto {
  return {
    ...presentEntitySummary(row),
    parent:
      row.parent_id !== null
        ? { id: row.parent_id, slug: row.parent_slug ?? '', name: row.parent_name ?? '' }
        : null,
    subdomain: row.subdomain,
    email: row.email,
    code: row.code,
    telephone: row.telephone,
    website: row.website,
    ...(opts.canSeeNotes ? { notes: row.notes } : {}),
    address: row.address,
    events_reminder: row.events_reminder,
    allow_ms_sign_in: row.allow_ms_sign_in,
    allow_google_sign_in: row.allow_google_sign_in,
    notify_all_standards_selected: row.notify_all_standards_selected,
    require_training_record_evidence: row.require_training_record_evidence,
    expiry_warning: row.expiry_warning,
    starter_period: row.starter_period,
    new_requirement_days: row.new_requirement_days,
    pat_max_days: row.pat_max_days,
    training_company_status: row.is_training_company ? (row.training_company_status ?? 'pending') : null,
    has_restricted_access_password: row.restricted_access_password !== null,
    restricted_access_at: iso(row.restricted_access_at),
    restricted_access_message: row.restricted_access_message,
    password_expire_period_in_months: row.password_expire_period_in_months,
    password_requirements: (row.password_requirements as PasswordRequirements | null) ?? null,
    compromised_passwords: row.compromised_passwords,
    always_show_popup_on_login: row.always_show_popup_on_login,
    popup_link: row.popup_link,
    quiet_hours_start: row.quiet_hours_start,
    quiet_hours_end: row.quiet_hours_end,
    login_popup_alt_name: row.login_popup_alt_name,
    focused_courses: Array.isArray(row.focused_courses) ? row.focused_courses : [],
    can_view_internal_bookings: row.can_view_internal_bookings,
    can_view_external_bookings: row.can_view_external_bookings,
    can_manage_bookings: row.can_manage_bookings,
    can_see_new_dashboards: row.can_see_new_dashboards,
    created_at: iso(row.created_at) ?? '',
    updated_at: iso(row.updated_at) ?? '',
    courses: opts.courses,
    ...(opts.score === undefined ? {} : { score: opts.score }),
  };
}

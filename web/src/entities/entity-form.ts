import { CreateEntityBody, type EntityDto, type EntityLevel, UpdateEntityBody } from '@cc/contracts';
import { type FieldErrors, zodFieldErrors } from './shared';

/**
 * The entity settings form (spec 2 §3 settings, spec 1 §3 a_entity flags) as the inputs hold it: texts as
 * strings (empty = not set), numbers as strings, booleans as booleans. `toEntityBody` turns it into the
 * contract's body and validates it with the same zod schema the server uses.
 */
export const ENTITY_FLAGS = [
  'events_reminder',
  'allow_ms_sign_in',
  'allow_google_sign_in',
  'notify_all_standards_selected',
  'require_training_record_evidence',
  'is_training_company',
  'always_show_popup_on_login',
  'can_view_internal_bookings',
  'can_view_external_bookings',
  'can_manage_bookings',
  'can_see_new_dashboards',
] as const;
export type EntityFlag = (typeof ENTITY_FLAGS)[number];

/** The four product feature flags (spec 1 §3); only a super admin changes them. */
export const FEATURE_FLAGS: readonly EntityFlag[] = [
  'can_view_internal_bookings',
  'can_view_external_bookings',
  'can_manage_bookings',
  'can_see_new_dashboards',
];

const TEXT_FIELDS = [
  'name',
  'slug',
  'email',
  'code',
  'telephone',
  'website',
  'address',
  'notes',
  'subdomain',
  'restricted_access_password',
  'restricted_access_message',
  'popup_link',
  'login_popup_alt_name',
  'quiet_hours_start',
  'quiet_hours_end',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

export type EntityFormState = Record<TextField, string> &
  Record<EntityFlag, boolean> & {
    level: EntityLevel;
    parent_id: string;
    expiry_warning: string;
    starter_period: string;
    new_requirement_days: string;
    pat_max_days: string;
    /** datetime-local value (local time, no zone). */
    restricted_access_at: string;
  };

export function emptyEntityForm(): EntityFormState {
  const texts = Object.fromEntries(TEXT_FIELDS.map((f) => [f, ''])) as Record<TextField, string>;
  const flags = Object.fromEntries(ENTITY_FLAGS.map((f) => [f, false])) as Record<EntityFlag, boolean>;
  return {
    ...texts,
    ...flags,
    level: 'B',
    parent_id: '',
    expiry_warning: '30',
    starter_period: '90',
    new_requirement_days: '30',
    pat_max_days: '365',
    restricted_access_at: '',
  };
}

/** An ISO instant as the value of a datetime-local input (in the browser's zone). */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function entityToForm(entity: EntityDto): EntityFormState {
  const form = emptyEntityForm();
  for (const f of TEXT_FIELDS) {
    if (f === 'restricted_access_password') continue; // never sent back by the server (only whether one is set)
    const value = (entity as unknown as Record<string, unknown>)[f];
    form[f] = typeof value === 'string' ? value : '';
  }
  for (const f of ENTITY_FLAGS) form[f] = Boolean(entity[f]);
  form.level = entity.level;
  form.parent_id = entity.parent_id ? String(entity.parent_id) : '';
  form.expiry_warning = String(entity.expiry_warning);
  form.starter_period = String(entity.starter_period);
  form.new_requirement_days = String(entity.new_requirement_days ?? 30);
  form.pat_max_days = String(entity.pat_max_days ?? 365);
  form.restricted_access_at = isoToLocalInput(entity.restricted_access_at);
  return form;
}

const orNull = (v: string) => (v.trim() === '' ? null : v.trim());
const toInt = (v: string) => (v.trim() === '' ? undefined : Number(v));

export type EntityBodyResult =
  | { ok: true; body: CreateEntityBody | UpdateEntityBody }
  | { ok: false; errors: FieldErrors };

/**
 * Create: every field the form holds. Update: the same, except the level (fixed), a blank slug (unchanged), a
 * blank restricted-access password (keeps the stored one) and fields the caller may not see (`omit`).
 */
export function toEntityBody(
  form: EntityFormState,
  mode: 'create' | 'update',
  omit: readonly string[] = [],
): EntityBodyResult {
  const raw: Record<string, unknown> = {
    name: form.name.trim(),
    email: orNull(form.email),
    code: orNull(form.code),
    telephone: orNull(form.telephone),
    website: orNull(form.website),
    address: orNull(form.address),
    notes: orNull(form.notes),
    subdomain: orNull(form.subdomain)?.toLowerCase() ?? null,
    expiry_warning: toInt(form.expiry_warning),
    starter_period: toInt(form.starter_period),
    new_requirement_days: toInt(form.new_requirement_days),
    pat_max_days: toInt(form.pat_max_days),
    restricted_access_message: orNull(form.restricted_access_message),
    restricted_access_at: form.restricted_access_at
      ? new Date(form.restricted_access_at).toISOString()
      : null,
    popup_link: orNull(form.popup_link),
    login_popup_alt_name: orNull(form.login_popup_alt_name),
    quiet_hours_start: orNull(form.quiet_hours_start),
    quiet_hours_end: orNull(form.quiet_hours_end),
  };
  for (const f of ENTITY_FLAGS) raw[f] = form[f];
  if (form.slug.trim()) raw.slug = form.slug.trim().toLowerCase();
  if (form.restricted_access_password) raw.restricted_access_password = form.restricted_access_password;
  if (form.level === 'B' && form.parent_id) raw.parent_id = Number(form.parent_id);
  if (mode === 'create') {
    raw.level = form.level;
    if (form.level === 'B' && !form.parent_id) {
      return { ok: false, errors: { parent_id: ['Choose the group it belongs to.'] } };
    }
  }
  for (const key of omit) delete raw[key];
  const schema = mode === 'create' ? CreateEntityBody : UpdateEntityBody;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, errors: zodFieldErrors(parsed.error) };
  return { ok: true, body: parsed.data };
}

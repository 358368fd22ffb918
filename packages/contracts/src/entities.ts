import { z } from 'zod';
import { PageQuery, queryBool, updateSchemaOf } from './common';
import { COMPROMISED_PASSWORD_SETTINGS, ENTITY_LEVELS } from './constants';
import { QuietHoursTime } from './notifications';
import { Whitelabel } from './whitelabel';

/**
 * ASVS 2.1.1 / 2.1.2: passwords of at least 12 characters, up to 200 (the password fields' limit; ASVS asks that at
 * least 64 be allowed). No composition rule by default (ASVS 2.1.9); an organisation may ask for more.
 */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 200;

/** Entity password rules (spec 2 §3 password_requirements); the shape is ours. */
export const PasswordRequirements = z.object({
  min_length: z
    .number()
    .int()
    .min(PASSWORD_MIN_LENGTH, `The minimum length must be at least ${PASSWORD_MIN_LENGTH}.`)
    .max(64)
    .default(PASSWORD_MIN_LENGTH),
  require_uppercase: z.boolean().default(false),
  require_lowercase: z.boolean().default(false),
  require_number: z.boolean().default(false),
  require_symbol: z.boolean().default(false),
});
export type PasswordRequirements = z.infer<typeof PasswordRequirements>;
export const DEFAULT_PASSWORD_REQUIREMENTS: PasswordRequirements = {
  min_length: PASSWORD_MIN_LENGTH,
  require_uppercase: false,
  require_lowercase: false,
  require_number: false,
  require_symbol: false,
};

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, 'The slug must be at least 2 characters.')
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The slug may only contain letters, numbers and dashes.')
  // An entity is addressed by numeric id OR slug (/entities/{id}); an all-digit slug would be ambiguous.
  .refine((v) => !/^\d+$/.test(v), 'The slug may not be only digits.');

/** Every settings field of spec 2 §3, plus the feature flags of spec 1 §3. */
export const EntitySettings = z.object({
  email: z.string().trim().email('The email must be a valid email address.').nullable().optional(),
  code: optionalText(50),
  telephone: optionalText(50),
  website: optionalText(255),
  notes: optionalText(5000),
  address: optionalText(1000),
  subdomain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'The sub-domain may only contain letters, numbers and dashes.')
    .max(63)
    .nullable()
    .optional(),
  events_reminder: z.boolean().optional(),
  allow_ms_sign_in: z.boolean().optional(),
  allow_google_sign_in: z.boolean().optional(),
  notify_all_standards_selected: z.boolean().optional(),
  require_training_record_evidence: z.boolean().optional(),
  is_training_company: z.boolean().optional(),
  expiry_warning: z.number().int().min(0, 'The expiry warning must be 0 or more days.').max(365).optional(),
  starter_period: z.number().int().min(0, 'The starter period must be 0 or more days.').max(730).optional(),
  /** Issue 33 §4: "Days to complete new requirements", a new requirement's default grace period (0: due at once). */
  new_requirement_days: z
    .number()
    .int('The days to complete new requirements must be a whole number of days.')
    .min(0, 'The days to complete new requirements must be 0 or more.')
    .max(365, 'The days to complete new requirements must be 365 or fewer.')
    .optional(),
  /** Issue 18: the longest a personal access token may last, in days (the level A organisation's value applies). */
  pat_max_days: z
    .number({ error: 'Enter a number of days.' })
    .int('Enter a whole number of days.')
    .min(1, 'The longest token must be at least 1 day.')
    .max(3650, 'The longest token can be at most 3650 days (10 years).')
    .optional(),
  /** Write-only (spec 2 §3 lists it among the settings; issue 38): never returned, see has_restricted_access_password. */
  restricted_access_password: optionalText(200).describe(
    'Write-only: the restricted-access password is never returned; reads answer has_restricted_access_password.',
  ),
  restricted_access_at: z.string().datetime({ offset: true }).nullable().optional(),
  restricted_access_message: optionalText(1000),
  password_expire_period_in_months: z.number().int().min(1).max(60).nullable().optional(),
  password_requirements: PasswordRequirements.optional(),
  compromised_passwords: z.enum(COMPROMISED_PASSWORD_SETTINGS).optional(),
  always_show_popup_on_login: z.boolean().optional(),
  popup_link: z.string().trim().url('The popup link must be a valid URL.').max(500).nullable().optional(),
  login_popup_alt_name: optionalText(100),
  focused_courses: z.array(z.number().int().positive()).max(500).optional(),
  can_view_internal_bookings: z.boolean().optional(),
  can_view_external_bookings: z.boolean().optional(),
  can_manage_bookings: z.boolean().optional(),
  can_see_new_dashboards: z.boolean().optional(),
  /** Ours (issue 14): e-mail notifications due inside these hours (UK time) are held until they end. */
  quiet_hours_start: QuietHoursTime,
  quiet_hours_end: QuietHoursTime,
});

export const CreateEntityBody = EntitySettings.extend({
  name: z.string().trim().min(1, 'The name field is required.').max(255),
  slug: slug.optional(),
  level: z.enum(ENTITY_LEVELS, { message: 'The level must be A or B.' }),
  parent_id: z.number().int().positive().nullable().optional(),
});
/**
 * `level` is accepted only unchanged (a full form may send it back); the level of an entity never changes.
 * `password_requirements` may name only the rules that change: the others keep their stored values.
 */
export const UpdateEntityBody = updateSchemaOf(CreateEntityBody).extend({
  password_requirements: updateSchemaOf(PasswordRequirements).optional(),
});
export type CreateEntityBody = z.infer<typeof CreateEntityBody>;
export type UpdateEntityBody = z.infer<typeof UpdateEntityBody>;

export const EntityListQuery = PageQuery.extend({
  level: z.enum(ENTITY_LEVELS).optional(),
  is_training_company: queryBool.optional(),
  parent_id: z.coerce.number().int().positive().optional(),
});

/** An entity is addressed by numeric id or slug (spec uses both: /entities/{id}, /entities/{slug}/...). */
export const EntityRefParams = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/, 'The entity must be an id or a slug.'),
});

export const EntitySummary = z.object({
  id: z.number(),
  uuid: z.string(),
  slug: z.string(),
  name: z.string(),
  level: z.enum(ENTITY_LEVELS),
  parent_id: z.number().nullable(),
  is_training_company: z.boolean(),
});
export type EntitySummary = z.infer<typeof EntitySummary>;

/** Entity-specific texts (ours: the spec gives no wording for these validation failures). */
export const EntityMessages = {
  slugTaken: 'The slug has already been taken.',
  subdomainTaken: 'The subdomain has already been taken.',
  parentRequired: 'The parent field is required for a level B entity.',
  parentInvalid: 'The selected parent is invalid.',
  levelANoParent: 'A level A entity cannot have a parent.',
  levelFixed: 'The level of an entity cannot be changed.',
} as const;

const EntityRefSummary = z.object({ id: z.number(), slug: z.string(), name: z.string() });

/**
 * A course available at an entity (spec 1 §3 entity `courses`, §7 GET /entity-courses). Ours, where the spec names
 * only the field: the courses the entity's people may be given, i.e. owned by the entity or an entity above it,
 * or switched on for it (or above it) through entity courses (a platform course once published), and not switched
 * off for it or above it. Only courses the caller may see are listed.
 */
export const EntityCourseSummary = z.object({ id: z.number(), title: z.string() });
export type EntityCourseSummary = z.infer<typeof EntityCourseSummary>;

/** Max entity ids in one GET /entity-courses. */
export const MAX_ENTITY_COURSES_IDS = 100;
const idListQuery = z.preprocess(
  (v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : v),
  z
    .array(z.string().regex(/^\d{1,9}(,\d{1,9})*$/, 'entityIds must be entity ids.'))
    .max(MAX_ENTITY_COURSES_IDS)
    .transform((parts) => parts.flatMap((p) => p.split(',').map(Number))),
);

/**
 * GET /entity-courses (spec 1 §7 "with entityIds"): the courses available at each of these entities. The ids come as
 * `entityIds=1,2`, repeated `entityIds=1&entityIds=2`, or `entityIds[]=1&entityIds[]=2` (the web client's arrays);
 * at least one, at most MAX_ENTITY_COURSES_IDS. An id outside the caller's scope answers 404, as for a missing
 * entity (other organisations' ids reveal nothing). Paged like every list; rows ordered by entity, then title.
 */
export const EntityCoursesQuery = PageQuery.extend({
  entityIds: idListQuery.optional(),
  'entityIds[]': idListQuery.optional(),
});
export const EntityCourseRow = z.object({ entity_id: z.number(), course_id: z.number(), title: z.string() });
export type EntityCourseRow = z.infer<typeof EntityCourseRow>;

/**
 * An entity as the API returns it (spec 2 §3 settings, spec 1 §3 flags). Never the restricted-access password
 * itself, only whether one is set; `notes` only for holders of permission 120. `children` is on the list items and
 * the single-entity read; `whitelabel` on the single-entity read (GET /entities/{id}) only.
 */
export const Entity = EntitySummary.extend({
  parent: EntityRefSummary.nullable(),
  subdomain: z.string().nullable(),
  email: z.string().nullable(),
  code: z.string().nullable(),
  telephone: z.string().nullable(),
  website: z.string().nullable(),
  notes: z.string().nullable().optional(),
  address: z.string().nullable(),
  events_reminder: z.boolean(),
  allow_ms_sign_in: z.boolean(),
  allow_google_sign_in: z.boolean(),
  notify_all_standards_selected: z.boolean(),
  require_training_record_evidence: z.boolean(),
  expiry_warning: z.number(),
  starter_period: z.number(),
  new_requirement_days: z.number(),
  pat_max_days: z.number(),
  has_restricted_access_password: z
    .boolean()
    .describe('Whether a restricted-access password is set (restricted_access_password is write-only).'),
  restricted_access_at: z.string().nullable(),
  restricted_access_message: z.string().nullable(),
  password_expire_period_in_months: z.number().nullable(),
  password_requirements: PasswordRequirements.nullable(),
  compromised_passwords: z.enum(COMPROMISED_PASSWORD_SETTINGS),
  always_show_popup_on_login: z.boolean(),
  popup_link: z.string().nullable(),
  quiet_hours_start: z.string().nullable(),
  quiet_hours_end: z.string().nullable(),
  login_popup_alt_name: z.string().nullable(),
  focused_courses: z.array(z.number()),
  can_view_internal_bookings: z.boolean(),
  can_view_external_bookings: z.boolean(),
  can_manage_bookings: z.boolean(),
  can_see_new_dashboards: z.boolean(),
  /**
   * Issue 29 §7 (ours): a super admin's answer to the training company request. null when not a training company;
   * only an `approved` one lists its sessions on other organisations' marketplace.
   */
  training_company_status: z.enum(['pending', 'approved', 'refused']).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** spec 1 §3: the courses available at the entity (EntityCourseSummary), by title. */
  courses: z.array(EntityCourseSummary),
  /**
   * spec 1 §3: the entity's compliance score, Mandatory (primary) courses of the entity and all its descendants,
   * new starters included, 0-100 as GET /entities/{id}/score/primary?deep=1 answers it (100 when nothing is
   * required). Present only for callers who may read scores (SCORE_READ_ANY_OF), like `notes` for 120.
   */
  score: z.number().int().min(0).max(100).optional(),
  children: z.array(EntitySummary).optional(),
  whitelabel: Whitelabel.optional(),
});
export type EntityDto = z.infer<typeof Entity>;

/** GET /entities/organisation (spec 1 §7): the caller's organisation as a nested tree. */
export interface OrganisationNode {
  id: number;
  uuid: string;
  slug: string;
  name: string;
  level: 'A' | 'B';
  is_training_company: boolean;
  children: OrganisationNode[];
}
export const OrganisationNode: z.ZodType<OrganisationNode> = z.lazy(() =>
  z.object({
    id: z.number(),
    uuid: z.string(),
    slug: z.string(),
    name: z.string(),
    level: z.enum(ENTITY_LEVELS),
    is_training_company: z.boolean(),
    children: z.array(OrganisationNode),
  }),
);

// --- Training company approval (issue 29 §7, ours) -----------------------------------------------------------

/**
 * An organisation that marks itself a training company (is_training_company, or POST
 * /entities/{id}/training-company/request) waits for a super admin: `pending`, then `approved` or `refused`. Until
 * approved its sessions are not on other organisations' marketplace, nobody else can book or order them, and its
 * trainers are not offered to the organisations it works with. A super admin who marks an entity a training
 * company approves it in the same act.
 */
export const TRAINING_COMPANY_STATUSES = ['pending', 'approved', 'refused'] as const;
export type TrainingCompanyStatus = (typeof TRAINING_COMPANY_STATUSES)[number];

/** GET /training-company-requests (super admin): the requests in one status (pending by default), oldest first. */
export const TrainingCompanyRequestsQuery = PageQuery.pick({
  page: true,
  per_page: true,
  search: true,
}).extend({
  status: z.enum(TRAINING_COMPANY_STATUSES).default('pending'),
});
export type TrainingCompanyRequestsQuery = z.infer<typeof TrainingCompanyRequestsQuery>;

export const TrainingCompanyRequest = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  level: z.enum(ENTITY_LEVELS),
  parent: EntityRefSummary.nullable(),
  website: z.string().nullable(),
  status: z.enum(TRAINING_COMPANY_STATUSES),
  requested_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  decided_by: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type TrainingCompanyRequest = z.infer<typeof TrainingCompanyRequest>;

export const TrainingCompanyMessages = {
  requested: 'Your request has been sent. A super admin will review it.',
  alreadyApproved: 'This organisation is already an approved training company.',
  approved: 'Training company approved.',
  refused: 'Training company request refused.',
} as const;

/** POST /entities/{id}/send-welcome-email answer. */
export const WelcomeEmailResult = z.object({ sent: z.number() });

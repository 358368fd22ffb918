import type { ScormItem } from '@cc/contracts';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp with a database default (created_at, updated_at). */
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string | T | undefined, string | T>;

export interface EntitiesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id: number | null;
  is_training_company: Generated<boolean>;
  /** Migration 048: the super admin's answer to its training company request; null when not one. */
  training_company_status: 'pending' | 'approved' | 'refused' | null;
  training_company_requested_at: Date | null;
  training_company_decided_at: Date | null;
  training_company_decided_by: number | null;
  subdomain: string | null;
  email: string | null;
  code: string | null;
  telephone: string | null;
  website: string | null;
  notes: string | null;
  address: string | null;
  events_reminder: Generated<boolean>;
  allow_ms_sign_in: Generated<boolean>;
  allow_google_sign_in: Generated<boolean>;
  notify_all_standards_selected: Generated<boolean>;
  require_training_record_evidence: Generated<boolean>;
  expiry_warning: Generated<number>;
  starter_period: Generated<number>;
  /** Days to complete a new requirement (migration 054): a new rule's default grace period. */
  new_requirement_days: Generated<number>;
  restricted_access_password: string | null;
  restricted_access_at: Date | null;
  restricted_access_message: string | null;
  password_expire_period_in_months: number | null;
  password_requirements: Json<Record<string, unknown> | null>;
  compromised_passwords: Generated<'enforce_change' | 'off'>;
  always_show_popup_on_login: Generated<boolean>;
  popup_link: string | null;
  login_popup_alt_name: string | null;
  focused_courses: Json<number[]>;
  can_view_internal_bookings: Generated<boolean>;
  can_view_external_bookings: Generated<boolean>;
  can_manage_bookings: Generated<boolean>;
  can_see_new_dashboards: Generated<boolean>;
  whitelabel: Json<Record<string, unknown>>;
  /** 022: the organisation's DateFormat; null follows the level A parent, then DD/MM/YYYY. */
  date_format: Generated<'DD/MM/YYYY' | 'MM/DD/YYYY' | 'YYYY-MM-DD' | null>;
  /** 024: quiet hours ('HH:MM', UK local time; both null = none): e-mail notifications are held inside them. */
  quiet_hours_start: Generated<string | null>;
  quiet_hours_end: Generated<string | null>;
  plan: 'free' | 'standard' | 'enterprise' | null;
  /** 033: the longest expiry, in days, of a personal access token (level A's value applies to its homes). */
  pat_max_days: Generated<number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface EntityRolesTable {
  id: Generated<number>;
  entity_id: number;
  name: string;
  inspectable: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface EntityTypesTable {
  id: Generated<number>;
  entity_id: number;
  name: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface UsersTable {
  id: Generated<number>;
  uuid: Generated<string>;
  name: string;
  email: string;
  password_hash: string | null;
  email_verified_at: Date | null;
  /** An address asked for and not yet confirmed from it (migration 015). */
  pending_email: string | null;
  super_admin: Generated<boolean>;
  primary_entity_id: number;
  role_id: number | null;
  type_id: number | null;
  is_trainer: Generated<boolean>;
  start_date: string | null;
  user_preferences: Json<Record<string, unknown>>;
  password_changed_at: Date | null;
  password_change_required: Generated<boolean>;
  last_login_at: Date | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface PermissionsTable {
  id: number;
  name: string;
  description: string;
  category: string;
}
export interface EntityPermissionsTable {
  entity_id: number;
  permission_id: number;
  created_at: DefaultTimestamp;
}
export interface TypePermissionsTable {
  type_id: number;
  permission_id: number;
  created_at: DefaultTimestamp;
}
export interface UserPermissionsTable {
  id: Generated<number>;
  user_id: number;
  permission_id: number;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: string;
  public_id: Generated<string>;
  user_id: number | null;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created_at: DefaultTimestamp;
  last_activity_at: DefaultTimestamp;
  expires_at: Timestamp;
  /** 044: when the password was last given on this session (sign-in, confirm-password); issue 29 §6. */
  password_confirmed_at: Date | null;
}

export interface PersonalAccessTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  abilities: Json<string[]>;
  last_used_at: Date | null;
  expires_at: Date | null;
  created_at: DefaultTimestamp;
  /** 033: 'device' (a mobile login's token) or 'personal' (a personal access token, /personal-access-tokens). */
  kind: Generated<'device' | 'personal'>;
  /** 033: the token's visible start (a personal access token's prefix and first characters), never the secret. */
  token_prefix: string | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  /** 044: when the password was last given on this device token (sign-in, confirm-password); never for 'personal'. */
  password_confirmed_at: Date | null;
}

/** Keys shared by every server process (016_server_secrets). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: DefaultTimestamp;
}

export interface UserTokensTable {
  id: Generated<number>;
  user_id: number;
  /** 045: 'email_change_old' (the old address agrees to a change, issue 29 §4); 046: 'sign_in_unlock' (§8). */
  purpose: 'password_reset' | 'email_verify' | 'email_change' | 'email_change_old' | 'sign_in_unlock';
  token_hash: string;
  email: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: DefaultTimestamp;
}

/** Failed attempts per key in a one-hour window (auth/throttle.ts). */
export interface AuthThrottlesTable {
  key: string;
  failures: number;
  window_started_at: Date;
  last_failure_at: Date;
}

/** A browser or app the user has signed in from (auth/known-devices.ts); only the secret's hash is kept. */
export interface KnownDevicesTable {
  token_hash: string;
  user_id: number;
  name: string | null;
  created_at: DefaultTimestamp;
  last_login_at: DefaultTimestamp;
}

/** A sign-up waiting for its address to be confirmed (registration/service.ts). */
export interface PendingRegistrationsTable {
  id: Generated<number>;
  token_hash: string;
  plan: string;
  name: string;
  organisation: string;
  email: string;
  password_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
}

export interface AuthEventsTable {
  id: Generated<number>;
  event: 'login' | 'logout' | 'failed_login' | 'password_reset' | 'password_changed';
  user_id: number | null;
  entity_id: number | null;
  email: string | null;
  ip: string | null;
  user_agent: string | null;
  via: Generated<string>;
  created_at: DefaultTimestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  template: string;
  transport: Generated<string>;
  sent_at: Date | null;
  error: string | null;
  /** Migration 011: one message per key (a job's run + recipient); null for mail without one. */
  idempotency_key: string | null;
  created_at: DefaultTimestamp;
}

export interface FilesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number | null;
  purpose: string;
  storage_key: string;
  original_name: string;
  mime_type: string;
  size_bytes: number;
  created_at: DefaultTimestamp;
}

/** 021: an inspection pack a manager asked for on a home (reports/inspection-pack.ts). */
export interface InspectionPacksTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  requested_by: number;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  progress: Generated<number>;
  pdf_key: string | null;
  zip_key: string | null;
  error: string | null;
  created_at: DefaultTimestamp;
  finished_at: Date | null;
}

export interface Database {
  entities: EntitiesTable;
  entity_roles: EntityRolesTable;
  entity_types: EntityTypesTable;
  users: UsersTable;
  permissions: PermissionsTable;
  entity_permissions: EntityPermissionsTable;
  type_permissions: TypePermissionsTable;
  user_permissions: UserPermissionsTable;
  sessions: SessionsTable;
  personal_access_tokens: PersonalAccessTokensTable;
  user_tokens: UserTokensTable;
  server_secrets: ServerSecretsTable;
  auth_events: AuthEventsTable;
  auth_throttles: AuthThrottlesTable;
  known_devices: KnownDevicesTable;
  pending_registrations: PendingRegistrationsTable;
  mail_outbox: MailOutboxTable;
  files: FilesTable;
}

export type EntityRow = Selectable<EntitiesTable>;
export type NewEntity = Insertable<EntitiesTable>;
export type EntityUpdate = Updateable<EntitiesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

// --- Authoring (migration 004, spec 2 §3): courses, content, lessons, topics, quizzes, H5P, availability, feedback.

export type ContentType = 'elearning' | 'scorm' | 'historical' | 'face2face';

export interface CourseCategoriesTable {
  id: Generated<number>;
  /** null: platform-wide category. */
  entity_id: number | null;
  name: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CoursesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** Owner; null: platform catalogue (made by super admins). */
  entity_id: number | null;
  title: string;
  short_title: string | null;
  category_id: number | null;
  published: Generated<boolean>;
  /** 031: 'document' / 'pathway' courses back a document or a pathway (matrix columns, compliance, results). */
  kind: Generated<CourseKind>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export type CourseKind = 'course' | 'document' | 'pathway';

export interface ContentsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** Owner; null: platform catalogue. */
  entity_id: number | null;
  course_id: number;
  type: ContentType;
  title: string;
  aims: string | null;
  outcomes: string | null;
  image_file_id: number | null;
  /** Minutes. */
  estimated_duration: number | null;
  cpd_accredited: Generated<boolean>;
  admin_only: Generated<boolean>;
  published: Generated<boolean>;
  /** Options, each a list of content ids: any one option fully completed unlocks the content. */
  prerequisites: Json<number[][]>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface LessonsTable {
  id: Generated<number>;
  entity_id: number | null;
  title: string;
  question_qty: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface ContentLessonsTable {
  content_id: number;
  lesson_id: number;
  position: Generated<number>;
}

export interface TopicResource {
  title: string;
  url: string;
}

export interface TopicsTable {
  id: Generated<number>;
  entity_id: number | null;
  title: string;
  /** Sanitised on write (content/sanitize.ts). */
  body_html: Generated<string>;
  hidden: Generated<boolean>;
  skippable: Generated<boolean>;
  is_child: Generated<boolean>;
  h5p_id: number | null;
  resources: Json<TopicResource[]>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface LessonTopicsTable {
  lesson_id: number;
  topic_id: number;
  position: Generated<number>;
}

export interface QuizzesTable {
  id: Generated<number>;
  entity_id: number | null;
  title: string;
  published: Generated<boolean>;
  is_randomized: Generated<boolean>;
  /** Percentage 0-100. */
  pass_mark: Generated<number>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface QuestionsTable {
  id: Generated<number>;
  quiz_id: number;
  text: string;
  position: Generated<number>;
}

export interface AnswersTable {
  id: Generated<number>;
  question_id: number;
  text: string;
  is_correct: Generated<boolean>;
  position: Generated<number>;
}

export interface ContentQuizzesTable {
  content_id: number;
  quiz_id: number;
  position: Generated<number>;
}

export interface H5psTable {
  id: Generated<number>;
  entity_id: number | null;
  title: string;
  video_id: string | null;
  package_dir: string | null;
  library: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface EntityContentTable {
  entity_id: number;
  content_id: number;
  enabled: Generated<boolean>;
  admin_only_override: boolean | null;
  created_at: DefaultTimestamp;
}

export interface EntityCoursesTable {
  entity_id: number;
  course_id: number;
  enabled: Generated<boolean>;
  created_at: DefaultTimestamp;
}

export interface FeedbackTable {
  id: Generated<number>;
  content_id: number;
  user_id: number;
  rating: number;
  message: string | null;
  created_at: DefaultTimestamp;
}

export interface Database {
  course_categories: CourseCategoriesTable;
  courses: CoursesTable;
  contents: ContentsTable;
  lessons: LessonsTable;
  content_lessons: ContentLessonsTable;
  topics: TopicsTable;
  lesson_topics: LessonTopicsTable;
  quizzes: QuizzesTable;
  questions: QuestionsTable;
  answers: AnswersTable;
  content_quizzes: ContentQuizzesTable;
  h5ps: H5psTable;
  entity_content: EntityContentTable;
  entity_courses: EntityCoursesTable;
  feedback: FeedbackTable;
}

// --- Learning (migration 005, issue 4): attempts, quiz attempts, results, latest results, certificate branding.

export type AttemptStatus = 'in_progress' | 'completed' | 'passed' | 'failed';
export type ResultType =
  | 'elearning'
  | 'scorm'
  | 'historical'
  | 'face2face'
  | 'exempt'
  | 'assessment'
  | 'pathway'
  | 'document';

/** What a learner has done in an attempt (elearning); SCORM keeps its own data in `cmi`. */
export interface AttemptProgress {
  visited_topic_ids?: number[];
  completed_topic_ids?: number[];
  skipped_topic_ids?: number[];
  current?: { lesson_id?: number | null; topic_id?: number | null; quiz_id?: number | null } | null;
  /** H5P outcomes by topic id (learning/progress.ts recordH5pOutcome). */
  h5p_results?: Record<
    string,
    {
      h5p_id: number;
      score_scaled: number | null;
      /** The judged verdict (learning/verdict.ts): true passed, false failed, null nothing to judge. */
      success: boolean | null;
      completion: boolean;
      pass_mark?: number | null;
      recorded_at: string;
    }
  >;
}

export interface AttemptsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  content_id: number;
  course_id: number;
  status: Generated<AttemptStatus>;
  progress: Json<AttemptProgress>;
  cmi: Json<Record<string, unknown>>;
  /** numeric comes back as a string from the drivers. */
  score: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  /** Optimistic concurrency: every write bumps it; a PATCH with an older one is refused (409). */
  version: Generated<number>;
  started_at: DefaultTimestamp;
  completed_at: Date | null;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

export interface QuizAttemptsTable {
  id: Generated<number>;
  attempt_id: number;
  quiz_id: number;
  question_order: Json<number[]>;
  /** question id -> answer ids in the order shown. */
  answer_order: Json<Record<string, number[]>>;
  responses: Json<Record<string, number[]> | null>;
  score: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  passed: boolean | null;
  created_at: DefaultTimestamp;
  submitted_at: Date | null;
}

/** 061_attempt_client_writes: the client ids of attempt writes the server applied (issue 31 §2), once each. */
export interface AttemptClientWritesTable {
  user_id: number;
  client_id: string;
  attempt_id: number;
  quiz_attempt_id: number | null;
  created_at: DefaultTimestamp;
}

export interface ResultsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  /** The learner's primary entity when the result was recorded. */
  entity_id: number;
  course_id: number;
  content_id: number | null;
  type: ResultType;
  status: Generated<'approved' | 'pending'>;
  passed: boolean;
  score: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  completed_at: Timestamp;
  expires_at: Date | null;
  attempt_id: number | null;
  certificate_suppressed: Generated<boolean>;
  evidence_file_id: number | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

/** One row per (user, course): the latest passed result, or the latest result when none passed. */
export interface LatestResultsTable {
  user_id: number;
  course_id: number;
  result_id: number;
  passed: boolean;
  completed_at: Timestamp;
  expires_at: Date | null;
  type: ResultType;
  /** Approved, not deleted results of (user, course): the matrix cell's result_count. */
  result_count: Generated<number>;
  /**
   * An exemption with an end date (migration 063): what counts once its end (expires_at) has come (the latest
   * result without an end of its own); null passed: nothing. Null for any other latest result.
   */
  then_passed: Generated<boolean | null>;
  then_expires_at: Generated<Date | null>;
  then_exempt: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

// --- Compliance (migration 006, ARCHITECTURE "Compliance rules").

export type ComplianceType = 'primary' | 'secondary';

export interface ComplianceRulesTable {
  id: Generated<number>;
  entity_id: number;
  role_id: number;
  course_id: number;
  type: ComplianceType;
  /** null: a pass never expires. */
  validity_months: number | null;
  /** When people who have not done it become out of date (migration 054); null: at once. */
  due_at: Date | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

/** View: the rules that apply to each entity's users (own rows, plus the level A parent's not overridden). */
export interface EffectiveComplianceRulesView {
  entity_id: number;
  role_id: number;
  course_id: number;
  type: ComplianceType;
  validity_months: number | null;
  rule_id: number;
  inherited: boolean;
}

export interface ComplianceSnapshotsTable {
  entity_id: number;
  /** First day of the month, 'YYYY-MM-DD'. */
  month: string;
  type: ComplianceType;
  users: number;
  required: number;
  in_date: number;
  expiring: number;
  expired: number;
  missing: number;
  /** Exempt cells (migration 011; before it, exemptions were counted in in_date). */
  exempt: Generated<number>;
  created_at: DefaultTimestamp;
}

export interface CertificateBrandingTable {
  entity_id: number;
  title: string | null;
  signatory_name: string | null;
  signatory_role: string | null;
  accent_colour: string | null;
  logo_file_id: number | null;
  updated_at: DefaultTimestamp;
}

export interface Database {
  attempts: AttemptsTable;
  quiz_attempts: QuizAttemptsTable;
  attempt_client_writes: AttemptClientWritesTable;
  results: ResultsTable;
  latest_results: LatestResultsTable;
  certificate_branding: CertificateBrandingTable;
  compliance_rules: ComplianceRulesTable;
  effective_compliance_rules: EffectiveComplianceRulesView;
  compliance_snapshots: ComplianceSnapshotsTable;
  user_requirements: UserRequirementsTable;
}

/** 009_user_requirements: users ⋈ effective_compliance_rules, kept by triggers on every write (read-only here). */
export interface UserRequirementsTable {
  user_id: number;
  course_id: number;
  /** The user's primary entity and role (denormalised for grouping and filters). */
  entity_id: number;
  role_id: number;
  type: ComplianceType;
  /** The (user, course)'s latest result (latest_results), null without one. */
  passed: boolean | null;
  expires_at: Date | null;
  /** The latest result is an exemption (latest_results.type = 'exempt'; migration 011). */
  exempt: Generated<boolean>;
  /** latest_results.then_* (migration 063): what counts once an exemption's end has come. */
  then_passed: Generated<boolean | null>;
  then_expires_at: Generated<Date | null>;
  then_exempt: Generated<boolean>;
}

/** Uploaded SCORM packages (005_packages): one per scorm content. */
export interface ScormPackagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number | null;
  content_id: number;
  version: '1.2' | '2004';
  title: string;
  launch_path: string;
  mastery_score: ColumnType<string | null, number | null | undefined, number | null>;
  storage_dir: string;
  size_bytes: number;
  created_at: DefaultTimestamp;
  /** Every item of the organisation (012_scorm_items; packages/manifest.ts ScormItem). */
  items: Json<ScormItem[]>;
}

/** Extracted .h5p packages (005_packages): one per H5P item. */
export interface H5pPackagesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number | null;
  h5p_id: number;
  title: string;
  main_library: string;
  storage_dir: string;
  size_bytes: number;
  created_at: DefaultTimestamp;
}

export interface Database {
  scorm_packages: ScormPackagesTable;
  h5p_packages: H5pPackagesTable;
}

// --- Results of every kind (migration 007, issue 5 item 1): notes, approval, bulk-added events.
export interface ResultsTable {
  notes: string | null;
  approved_by: number | null;
  approved_at: Date | null;
  bulk_operation_id: number | null;
  /** An exemption the nightly job ended (migration 063, results/exemption-end.ts): once, with its reminder. */
  exemption_ended_at: Generated<Date | null>;
}

export interface BulkEventOperationsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  /** The entity the actor worked in (acting-as or primary): who may see the row. */
  entity_id: number;
  course_id: number;
  type: 'face2face' | 'historical';
  completed_at: Timestamp;
  passed: boolean;
  user_count: number;
  created_by: number | null;
  created_at: DefaultTimestamp;
  deleted_at: Date | null;
  deleted_by: number | null;
}

export interface Database {
  bulk_event_operations: BulkEventOperationsTable;
}

// --- Jobs, report presets and schedules (migration 008, issue 5 item 5).

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: Generated<number>;
  name: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<JobStatus>;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  timeout_seconds: Generated<number>;
  unique_key: string | null;
  locked_by: string | null;
  locked_at: Date | null;
  last_error: string | null;
  finished_at: Date | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface MailAttachmentsTable {
  id: Generated<number>;
  mail_id: number;
  filename: string;
  content_type: string;
  size_bytes: number;
  content: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  created_at: DefaultTimestamp;
}

export interface ReportPresetsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  entity_id: number;
  name: string;
  report_type: 'certificate' | 'matrix';
  entities: Json<number[]>;
  courses: Json<number[]>;
  pathways: Json<number[]>;
  users: Json<number[]>;
  roles: Json<number[]>;
  include_status_types: Json<string[]>;
  include_starters: Generated<boolean>;
  compliance_type: Generated<string>;
  previous_months: number | null;
  grade: string | null;
  filter_by: Generated<string>;
  course_type: string | null;
  period: Generated<'today' | 'last_week' | 'last_month'>;
  from_date: string | null;
  to_date: string | null;
  primary_only: Generated<boolean>;
  never_logged_in_only: Generated<boolean>;
  date_completion: Generated<boolean>;
  new_starters_filter: Generated<'exclude_new_starters' | 'include_new_starters' | 'new_starters_only'>;
  care_certificate_filter: Generated<'in_progress' | 'complete' | 'either'>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface ReportSchedulesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  entity_id: number;
  preset_id: number;
  frequency: 'daily' | 'weekly' | 'monthly';
  /** 'HH:MM', in `timezone`. */
  time_of_day: string;
  weekday: number | null;
  day_of_month: number | null;
  timezone: string;
  cron: string;
  recipients: Json<string[]>;
  format: 'PDF' | 'XLSX';
  active: Generated<boolean>;
  next_run_at: Date | null;
  last_run_at: Date | null;
  last_status: 'queued' | 'sent' | 'failed' | null;
  last_error: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface Database {
  jobs: JobsTable;
  inspection_packs: InspectionPacksTable;
  mail_attachments: MailAttachmentsTable;
  report_presets: ReportPresetsTable;
  report_schedules: ReportSchedulesTable;
}

// --- Tags (migration 010): tags of an entity and their linked users.

export interface TagsTable {
  id: Generated<number>;
  entity_id: number;
  name: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface TagUsersTable {
  tag_id: number;
  user_id: number;
  created_at: DefaultTimestamp;
}

export interface Database {
  tags: TagsTable;
  tag_users: TagUsersTable;
}

/** 014: secrets shared by every server process (the package launch key). */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: DefaultTimestamp;
}

export interface Database {
  server_secrets: ServerSecretsTable;
}

// --- Messaging (migration 023): one row per send and the people it reached.

export interface MessagesTable {
  id: Generated<number>;
  sender_id: number;
  entity_id: number;
  text: string;
  audience_kind: 'person' | 'people' | 'role' | 'entity' | 'tag' | 'system';
  audience_name: string;
  audience_deep: Generated<boolean>;
  mailed: Generated<boolean>;
  sent_at: DefaultTimestamp;
  sender_deleted_at: Date | null;
}

export interface MessageRecipientsTable {
  message_id: number;
  recipient_id: number;
  read_at: Date | null;
  deleted_at: Date | null;
}

export interface Database {
  messages: MessagesTable;
  message_recipients: MessageRecipientsTable;
}

/** 024: the delivery ledger (notifications/): one row per notification, recipient and channel. */
export interface NotificationsTable {
  id: Generated<number>;
  kind:
    | 'expiry_reminder'
    | 'manager_digest'
    | 'booking'
    | 'care_certificate'
    | 'message'
    | 'document_reminder'
    | 'due_reminder'
    | 'behind_reminder'
    | 'exemption_ended';
  subject_key: string;
  occasion: string;
  user_id: number;
  entity_id: number;
  channel: 'in_app' | 'email' | 'push';
  state: 'pending' | 'held' | 'sent' | 'failed' | 'read' | 'dismissed' | 'skipped';
  course_id: number | null;
  expires_at: Date | null;
  title: string;
  body: string;
  link: string;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  last_error: string | null;
  mail_id: number | null;
  created_at: DefaultTimestamp;
  sent_at: Date | null;
  read_at: Date | null;
  /** 040: '' for in-app and e-mail rows; 'device:<id>@<attempt>' for a push row (part of the once-key). */
  delivery_key: Generated<string>;
  /** 040: the phone a push row went to (null once the phone is removed; device_name keeps its name). */
  push_device_id: number | null;
  device_name: string | null;
  /** 040: on an e-mail row sent instead of a push, why. */
  fallback: 'push_not_configured' | 'no_device' | 'push_failed' | null;
}

export interface Database {
  notifications: NotificationsTable;
}

/** 025: platform help articles (global, super admins manage them) and "Contact support" questions. */
export interface HelpArticlesTable {
  id: Generated<number>;
  title: string;
  url_regex: string;
  link_suffix: string | null;
  body: string;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface HelpContactsTable {
  id: Generated<number>;
  user_id: number;
  question: string;
  page: string | null;
  session: Json<Record<string, unknown>>;
  delivered_to: string;
  created_at: DefaultTimestamp;
}

export interface Database {
  help_articles: HelpArticlesTable;
  help_contacts: HelpContactsTable;
}

/** 026: face-to-face training (bookings/): sessions, their days, delegates, orders, settings, calendar feeds. */
export interface TrainingProviderSettingsTable {
  entity_id: number;
  delegate_auto_accept_period: Generated<number>;
  delegate_removal_cutoff_hours: Generated<number>;
  practical_min_delegates: Generated<number>;
  practical_max_delegates: Generated<number>;
  theory_min_delegates: Generated<number>;
  theory_max_delegates: Generated<number>;
  waitlist_claim_hours: Generated<number>;
  waitlist_cutoff_hours: Generated<number>;
  minimum_decision_hours: Generated<number>;
  under_minimum_action: Generated<'cancel' | 'confirm'>;
  updated_at: DefaultTimestamp;
}

export interface DelegateSettingsTable {
  entity_id: number;
  require_approval: Generated<boolean>;
  allow_self_cancel: Generated<boolean>;
  send_calendar_invites: Generated<boolean>;
  notify_managers: Generated<boolean>;
  updated_at: DefaultTimestamp;
}

export interface CancellationReasonsTable {
  id: Generated<number>;
  name: string;
  position: Generated<number>;
}

export interface TrainingSessionsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  content_id: number;
  course_id: number;
  trainer_id: number | null;
  venue: string | null;
  room: string | null;
  virtual: Generated<boolean>;
  virtual_url: string | null;
  area: string | null;
  aim: string | null;
  content_covered: string | null;
  learning_outcomes: string | null;
  available_to: Generated<'internal' | 'external' | 'all'>;
  min_delegates: Generated<number>;
  max_delegates: number;
  grading_method: Generated<'attendance' | 'pass_fail' | 'score'>;
  pass_mark: number | null;
  status: Generated<'scheduled' | 'confirmed' | 'completed' | 'incomplete' | 'cancelled'>;
  cancellation_reason_id: number | null;
  cancellation_notes: string | null;
  cancelled_at: Date | null;
  decided_at: Date | null;
  places_taken: Generated<number>;
  check_in_code: string;
  sequence: Generated<number>;
  starts_at: Date;
  ends_at: Date;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface TrainingSessionDatesTable {
  id: Generated<number>;
  session_id: number;
  position: number;
  /** 'YYYY-MM-DD' */
  date: string;
  /** 'HH:MM:SS' (local, Europe/London) */
  start_time: string;
  end_time: string;
  starts_at: Date;
  ends_at: Date;
}

export interface TrainingOrdersTable {
  id: Generated<number>;
  uuid: Generated<string>;
  session_id: number;
  entity_id: number;
  places: number;
  named: Generated<number>;
  status: Generated<'placed' | 'cancelled'>;
  notes: string | null;
  ordered_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface SessionDelegatesTable {
  id: Generated<number>;
  session_id: number;
  user_id: number;
  entity_id: number;
  order_id: number | null;
  context: Generated<'download' | 'online'>;
  status: 'requested' | 'pending' | 'accepted' | 'waitlisted' | 'offered' | 'declined' | 'deleted';
  waitlisted_at: Date | null;
  offer_expires_at: Date | null;
  attendance: 'attended' | 'partial' | 'no_show' | null;
  passed: boolean | null;
  score: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  notes: string | null;
  checked_in_at: Date | null;
  marked_by: number | null;
  marked_at: Date | null;
  result_id: number | null;
  invite_sequence: Generated<number>;
  booked_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CalendarFeedsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: DefaultTimestamp;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface Database {
  training_provider_settings: TrainingProviderSettingsTable;
  delegate_settings: DelegateSettingsTable;
  cancellation_reasons: CancellationReasonsTable;
  training_sessions: TrainingSessionsTable;
  training_session_dates: TrainingSessionDatesTable;
  training_orders: TrainingOrdersTable;
  session_delegates: SessionDelegatesTable;
  calendar_feeds: CalendarFeedsTable;
}

export interface InviteDay {
  position: number;
  starts_at: string;
  ends_at: string;
}

/** 029: the last calendar invite e-mailed to each delegate (bookings/effects.ts). */
export interface BookingInvitesTable {
  delegate_id: number;
  method: 'REQUEST' | 'CANCEL';
  sequence: number;
  /** The days the invite described: [{position, starts_at, ends_at}] (ISO instants). */
  dates: ColumnType<InviteDay[], string | undefined, string>;
  sent_at: DefaultTimestamp;
}

export interface Database {
  booking_invites: BookingInvitesTable;
}

// --- 030: the Care Certificate (care-certificate/, contracts care-certificate.ts) ---

export interface CareCertificateVersionsTable {
  id: Generated<number>;
  code: string;
  title: string;
  /** 'YYYY-MM-DD' */
  effective_from: string | null;
  is_default: Generated<boolean>;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CareCertificateStandardsTable {
  id: Generated<number>;
  version_id: number;
  number: number;
  title: string;
}

export interface CareCertificateOutcomesTable {
  id: Generated<number>;
  standard_id: number;
  code: string;
  title: string | null;
  position: Generated<number>;
}

export interface CareCertificateCriteriaTable {
  id: Generated<number>;
  standard_id: number;
  outcome_id: number;
  code: string;
  text: string;
  requires_observation: Generated<boolean>;
  position: Generated<number>;
}

export interface CourseCareCertificateCriteriaTable {
  course_id: number;
  criterion_id: number;
}

export interface CareCertificateSettingsTable {
  entity_id: number;
  expected_weeks: Generated<number>;
  default_version_id: number | null;
  updated_at: DefaultTimestamp;
}

export interface CareCertificatesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  version_id: number;
  historical: Generated<boolean>;
  status: Generated<'in_progress' | 'complete'>;
  /** 'YYYY-MM-DD' */
  started_on: string;
  expected_by: string | null;
  completed_on: string | null;
  provider: string | null;
  assessor_name: string | null;
  notes: string | null;
  assigned_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CareCertificateStandardStatesTable {
  certificate_id: number;
  standard_id: number;
  state: Generated<'open' | 'awaiting_approval' | 'approved'>;
  submitted_at: Date | null;
  submitted_by: number | null;
  decided_at: Date | null;
  decided_by: number | null;
  rejection_reasons: string | null;
}

export interface CareCertificateDecisionsTable {
  id: Generated<number>;
  certificate_id: number;
  standard_id: number;
  action: 'submitted' | 'approved' | 'rejected';
  reasons: string | null;
  actor_id: number | null;
  created_at: DefaultTimestamp;
}

export interface CareCertificateEvidenceTable {
  id: Generated<number>;
  uuid: Generated<string>;
  certificate_id: number;
  kind: 'file' | 'result';
  file_id: number | null;
  result_id: number | null;
  description: string | null;
  added_by: number | null;
  created_at: DefaultTimestamp;
}

export interface CareCertificateEvidenceCriteriaTable {
  evidence_id: number;
  criterion_id: number;
}

export interface CareCertificateObservationsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  certificate_id: number;
  assessor_id: number | null;
  assessor_name: string;
  observed_at: Date;
  place: string;
  shift: 'early' | 'late' | 'day' | 'long_day' | 'night' | 'other';
  observed: string;
  outcome: 'competent' | 'not_yet_competent';
  approved_at: Date | null;
  approved_by: number | null;
  supersedes_id: number | null;
  correction_reason: string | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface CareCertificateObservationCriteriaTable {
  observation_id: number;
  criterion_id: number;
}

export interface Database {
  care_certificate_versions: CareCertificateVersionsTable;
  care_certificate_standards: CareCertificateStandardsTable;
  care_certificate_outcomes: CareCertificateOutcomesTable;
  care_certificate_criteria: CareCertificateCriteriaTable;
  course_care_certificate_criteria: CourseCareCertificateCriteriaTable;
  care_certificate_settings: CareCertificateSettingsTable;
  care_certificates: CareCertificatesTable;
  care_certificate_standard_states: CareCertificateStandardStatesTable;
  care_certificate_decisions: CareCertificateDecisionsTable;
  care_certificate_evidence: CareCertificateEvidenceTable;
  care_certificate_evidence_criteria: CareCertificateEvidenceCriteriaTable;
  care_certificate_observations: CareCertificateObservationsTable;
  care_certificate_observation_criteria: CareCertificateObservationCriteriaTable;
}

// --- Pathways, documents and libraries, content designer (migration 031, issue 17).

export interface LibrariesTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  name: string;
  description: string | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

/** The optional short question answered before acknowledging (`correct` indexes `options`). */
export interface DocumentCheckQuestion {
  question: string;
  options: string[];
  correct: number;
}

export interface DocumentsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  library_id: number;
  entity_id: number;
  course_id: number;
  title: string;
  description: string | null;
  current_version_id: number | null;
  check_question: Json<DocumentCheckQuestion | null>;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

export interface DocumentVersionsTable {
  id: Generated<number>;
  document_id: number;
  number: number;
  file_id: number;
  change_note: string | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export interface DocumentViewsTable {
  version_id: number;
  user_id: number;
  first_opened_at: DefaultTimestamp;
}

export interface DocumentAcknowledgementsTable {
  id: Generated<number>;
  document_id: number;
  version_id: number;
  user_id: number;
  typed_name: string;
  acknowledged_at: DefaultTimestamp;
  result_id: number | null;
}

export interface PathwaysTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  course_id: number;
  title: string;
  description: string | null;
  sequential: Generated<boolean>;
  requires_final_sign_off: Generated<boolean>;
  current_version_id: number | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

/** One editor's choice for one changed step when a pathway with allocations gets a new version. */
export interface PathwayVersionChange {
  step_key: string;
  change: 'added' | 'changed' | 'removed';
  choice: 'keep_credit' | 'redo' | 'stay';
}

export interface PathwayVersionsTable {
  id: Generated<number>;
  pathway_id: number;
  number: number;
  change_note: string | null;
  changes: Json<PathwayVersionChange[]>;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export type PathwayStepType = 'course' | 'document' | 'sign_off';
export type PathwayDueFrom = 'allocation' | 'start_date';

export interface PathwayStepsTable {
  id: Generated<number>;
  version_id: number;
  key: Generated<string>;
  position: number;
  type: PathwayStepType;
  course_id: number | null;
  document_id: number | null;
  title: string | null;
  description: string | null;
  due_days: number | null;
  due_from: Generated<PathwayDueFrom>;
}

export interface PathwayRoleAllocationsTable {
  id: Generated<number>;
  pathway_id: number;
  entity_id: number;
  role_id: number;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export type PathwayAllocationStatus = 'in_progress' | 'awaiting_sign_off' | 'completed' | 'withdrawn';

export interface PathwayAllocationsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  pathway_id: number;
  version_id: number;
  user_id: number;
  role_allocation_id: number | null;
  status: Generated<PathwayAllocationStatus>;
  /** Step key -> ISO time from which evidence counts for that step (a "redo" moves it on). */
  step_credit: Json<Record<string, string>>;
  allocated_by: number | null;
  allocated_at: DefaultTimestamp;
  completed_at: Date | null;
  signed_off_by: number | null;
  signed_off_at: Date | null;
  sign_off_note: string | null;
  result_id: number | null;
  updated_at: DefaultTimestamp;
}

export interface PathwaySignOffsTable {
  id: Generated<number>;
  allocation_id: number;
  step_key: string;
  signed_by: number | null;
  /** A calendar date (yyyy-mm-dd). */
  signed_on: ColumnType<string, string, string>;
  note: string;
  created_at: DefaultTimestamp;
}

export interface DesignsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  title: string;
  /** contracts designer.ts DesignPage[]. */
  pages: Json<unknown[]>;
  revision: Generated<number>;
  content_id: number | null;
  published_revision: number | null;
  published_at: Date | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  deleted_at: Date | null;
}

export interface Database {
  libraries: LibrariesTable;
  documents: DocumentsTable;
  document_versions: DocumentVersionsTable;
  document_views: DocumentViewsTable;
  document_acknowledgements: DocumentAcknowledgementsTable;
  pathways: PathwaysTable;
  pathway_versions: PathwayVersionsTable;
  pathway_steps: PathwayStepsTable;
  pathway_role_allocations: PathwayRoleAllocationsTable;
  pathway_allocations: PathwayAllocationsTable;
  pathway_sign_offs: PathwaySignOffsTable;
  designs: DesignsTable;
}

// --- Integrations (issue 18; migration 033): tasks in progress.

export type TaskStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** contracts tasks.ts TaskResult: a file to download (stored through the storage interface) and/or a summary. */
export interface TaskResultJson {
  file?: { key: string; filename: string; contentType: string; size?: number };
  summary?: string;
  /** The capability's own link for the outcome (e.g. an import's log page), relative to the app. */
  link?: string;
}

export interface TasksTable {
  id: Generated<number>;
  uuid: Generated<string>;
  user_id: number;
  entity_id: number | null;
  /** 'import' | 'export' | 'emailed_report' | 'bulk_attempts' | 'bulk_events' | ... (contracts tasks.ts TaskKind). */
  kind: string;
  title: string;
  status: Generated<TaskStatus>;
  progress_done: Generated<number>;
  progress_total: number | null;
  result: Json<TaskResultJson | null>;
  error: string | null;
  job_id: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
  finished_at: Date | null;
}

export interface Database {
  tasks: TasksTable;
}

// --- The importer (migration 035, issue 18).

export interface UsersTable {
  /** The organisation's own id for the person: unique within a level A organisation and its homes. */
  employee_number: ColumnType<string | null, string | null | undefined, string | null>;
  /** Kept by a trigger: the level A organisation employee_number is unique in. */
  employee_org_id: ColumnType<number | null, never, never>;
}

export type ImportKind = 'users' | 'training';
export type ImportStatus = 'planning' | 'planned' | 'applying' | 'applied' | 'failed' | 'undoing' | 'undone';

export interface ImportsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  created_by: number | null;
  kind: ImportKind;
  file_name: string;
  /** The file's header cells in order (jsonb objects do not keep key order). */
  headers: ColumnType<string[], string | undefined, string>;
  storage_key: string | null;
  status: Generated<ImportStatus>;
  failure: string | null;
  total_rows: Generated<number>;
  create_count: Generated<number>;
  update_count: Generated<number>;
  unchanged_count: Generated<number>;
  error_count: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  kept_count: Generated<number>;
  task_id: number | null;
  plan_ms: number | null;
  apply_ms: number | null;
  applied_by: number | null;
  undone_by: number | null;
  created_at: DefaultTimestamp;
  planned_at: Date | null;
  applied_at: Date | null;
  undone_at: Date | null;
  updated_at: DefaultTimestamp;
}

export interface ImportRowsTable {
  import_id: number;
  row_number: number;
  action: 'create' | 'update' | 'unchanged';
  target_id: number | null;
  data: Json<Record<string, unknown>>;
  changes: Json<Record<string, { from: unknown; to: unknown }> | null>;
  before: Json<Record<string, unknown> | null>;
  applied: Generated<boolean>;
}

export interface ImportErrorsTable {
  id: Generated<number>;
  import_id: number;
  row_number: number;
  column_name: string;
  message: string;
  row_values: Json<Record<string, string>>;
  resolved_at: Date | null;
  resolved_by: number | null;
  resolution_note: string | null;
}

export interface Database {
  imports: ImportsTable;
  import_rows: ImportRowsTable;
  import_errors: ImportErrorsTable;
}

// --- Webhooks (issue 18; migration 034).

export interface WebhookEndpointsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  url: string;
  description: string | null;
  /** contracts webhooks.ts WebhookEventType values. */
  event_types: Json<string[]>;
  enabled: Generated<boolean>;
  /**
   * Before migration 047: whsec_ + base64 key (Standard Webhooks) in clear. Now null: sealed at start into
   * secret_sealed (webhooks/secrets.ts); a value here is one an older process wrote during an upgrade.
   */
  secret: string | null;
  previous_secret: string | null;
  /** Issue 29 §14: the signing secret sealed under SECRETS_KEY (security/sealing.ts), bound to the row's uuid. */
  secret_sealed: string | null;
  /** The secret before the last rotation, sealed; it signs too until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface WebhookEventsTable {
  /** msg_...: the webhook-id header of every attempt. */
  id: string;
  entity_id: number;
  type: string;
  payload: Json<Record<string, unknown>>;
  created_at: DefaultTimestamp;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  last_response_code: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: Date;
  response_code: number | null;
  duration_ms: number;
  response_body: string | null;
  error: string | null;
  succeeded: boolean;
}

export interface Database {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

// --- Sign-up links (issue 18; migration 036).

export interface SignupLinksTable {
  id: Generated<number>;
  uuid: Generated<string>;
  entity_id: number;
  role_id: number;
  type_id: number | null;
  start_date: string;
  care_certificate_version_id: number | null;
  care_certificate_when: 'signup' | 'approval' | null;
  token_hash: string;
  expires_at: Date;
  max_uses: number | null;
  uses: Generated<number>;
  revoked_at: Date | null;
  created_by: number | null;
  created_at: DefaultTimestamp;
}

export interface SignupLinkSignupsTable {
  id: Generated<number>;
  uuid: Generated<string>;
  link_id: number;
  user_id: number | null;
  name: string;
  email: string;
  status: Generated<'pending' | 'approved' | 'rejected'>;
  account: 'removed' | 'deactivated' | null;
  decided_by: number | null;
  decided_at: Date | null;
  created_at: DefaultTimestamp;
}

/** 043: a sign-up through a link waiting for its address to be confirmed (issue 29 §5). */
export interface PendingSignupsTable {
  id: Generated<number>;
  token_hash: string;
  link_id: number;
  name: string;
  email: string;
  password_hash: string;
  created_at: DefaultTimestamp;
  expires_at: Timestamp;
}

export interface Database {
  signup_links: SignupLinksTable;
  signup_link_signups: SignupLinkSignupsTable;
  pending_signups: PendingSignupsTable;
}

/** 040: a phone of the mobile shell registered for push notifications (push/). */
export interface PushDevicesTable {
  id: Generated<number>;
  user_id: number;
  token: string;
  platform: 'android' | 'ios';
  device_name: string;
  access_token_id: number | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface Database {
  push_devices: PushDevicesTable;
}

/** 051: the audit trail (audit/): append-only, refused UPDATE and DELETE by a trigger. */
export interface AuditEntriesTable {
  id: Generated<number>;
  occurred_at: DefaultTimestamp;
  actor_user_id: number | null;
  actor_name: string | null;
  acting_as_entity_id: number | null;
  acting_as_name: string | null;
  ip: string | null;
  action: 'created' | 'updated' | 'deleted' | 'approved';
  subject_kind: string;
  subject_id: number | null;
  subject_entity_id: number | null;
  subject_user_id: number | null;
  subject_label: Generated<string>;
  before: Json<Record<string, unknown> | null>;
  after: Json<Record<string, unknown> | null>;
  /** 062: how the change came about when not by hand (contracts AuditVia); null for a change made through a form. */
  via: Json<Record<string, unknown> | null>;
}

export interface Database {
  audit_entries: AuditEntriesTable;
}

// --- Data protection (migration 052, issue 35 §4).

export interface UsersTable {
  /** 052: the day the person left the organisation (erasure needs it). */
  left_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** 052: when the personal details were erased (pseudonymised); the training record stays for the retention period. */
  erased_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface EntitiesTable {
  /** 052: years a leaver's training record is kept after leaving (default 6). */
  retention_years: Generated<number>;
}

// --- The ASC-WDS training export (migration 056, issue 37 §1).

export interface AscWdsSettingsTable {
  entity_id: number;
  local_establishment_id: string | null;
  updated_at: DefaultTimestamp;
}

export interface AscWdsCourseCategoriesTable {
  organisation_id: number;
  course_id: number;
  category: number;
  updated_at: DefaultTimestamp;
}

export interface AscWdsExportsTable {
  id: Generated<number>;
  entity_id: number;
  created_by: number | null;
  since: 'last' | 'all';
  row_count: number;
  created_at: DefaultTimestamp;
}

export interface Database {
  asc_wds_settings: AscWdsSettingsTable;
  asc_wds_course_categories: AscWdsCourseCategoriesTable;
  asc_wds_exports: AscWdsExportsTable;
}

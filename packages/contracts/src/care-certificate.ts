import { z } from 'zod';
import { EntityRef, PersonRef } from './bookings';
import { PageQuery, queryBool, updateSchemaOf } from './common';
import { CARE_CERTIFICATE_FILTERS } from './presets';

/**
 * The Care Certificate (issue 16; spec 1 §2, §3; spec 2 §2, §3, §6). The name users see is the white-label label
 * `certificateGroupMenuName` (default 'Care Certificate'): server messages therefore say "certificate", never the
 * product name.
 *
 * Model:
 * - **Versions** of the standards (2015: 15 standards; 2025: 16) are data: version → standards → outcomes →
 *   assessment criteria, seeded from server/src/care-certificate/standards/*.json and editable by super admins.
 * - A **care certificate** is one user's certificate of one version (`historical` when completed elsewhere).
 * - **Evidence** of a criterion is any of: a passed, approved result of a course mapped to the criterion (automatic,
 *   from course_care_certificate_criteria); an evidence item linked to it (an uploaded file, or a result linked by
 *   hand); an observation linked to it with outcome `competent` that has not been superseded. A criterion with
 *   `requires_observation` (the "Demonstrate ..." criteria, which Skills for Care asks to be observed at work) is
 *   evidenced by such an observation only.
 * - A **standard** is `outstanding` (no criterion evidenced), `working_towards` (some), `awaiting_approval`
 *   (selected for approval), or `approved`. It can be selected for approval or approved only when it has at least
 *   one criterion and every criterion is evidenced. Rejecting returns it to working towards, with the reasons kept.
 * - When every standard is approved the certificate is `complete` (completed_on = that day) and its PDF (88) can be
 *   downloaded.
 * - **Observations** are append-only once approved: an approved observation is never updated or deleted; a
 *   correction is a new observation with `supersedes_id` and a `correction_reason`, and the old one stops counting.
 *   Approving a standard approves the observations linked to its criteria.
 *
 * Who may do what (a super admin passes every check; "in scope" = the user's primary organisation is in the actor's
 * entity scope, entities/scope.ts; anything out of scope is the same 404 as a missing id):
 * - everyone: their own certificates (`/care-certificates/mine`, view, upload evidence, select a standard for
 *   approval, download their own complete certificate's PDF).
 * - `assign` (86): assign to users in scope, withdraw an assignment that has no evidence yet, view certificates
 *   in scope, upload and remove evidence, select standards for approval, the settings (expected weeks).
 * - `observe` (89): record and update (until approved) observations of users in scope; view their certificates.
 * - `deleteObservation` (90): delete an observation not yet approved.
 * - `approve` (93): approve or reject standards, approve observations; view certificates in scope.
 * - `download` (88): the PDF of a complete certificate of a user in scope.
 * - `report` (87): /reports/care-certificate.
 * - `historical` (92): record, list and edit historical certificates of users in scope.
 * - super admin: edit versions, standards, outcomes and criteria.
 * - content creator (63) with the course in scope (or a super admin): map a course to criteria.
 */
export const CareCertificatePerm = {
  assign: 86,
  report: 87,
  download: 88,
  observe: 89,
  deleteObservation: 90,
  historical: 92,
  approve: 93,
} as const;
/** Any of these lets a user see the certificates of people in scope. */
export const CARE_CERTIFICATE_VIEW_PERMS = [86, 88, 89, 90, 92, 93] as const;

export const CERTIFICATE_STATUSES = ['in_progress', 'complete'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** The workflow state stored per standard. */
export const STANDARD_STATES = ['open', 'awaiting_approval', 'approved'] as const;
export type StandardState = (typeof STANDARD_STATES)[number];

/** What a standard shows (state plus evidence): spec 1 §3's certificates filter flags map onto these. */
export const STANDARD_STATUSES = ['outstanding', 'working_towards', 'awaiting_approval', 'approved'] as const;
export type StandardStatus = (typeof STANDARD_STATUSES)[number];

/** The national workforce data set's (ASC-WDS) Care Certificate values. */
export const NMDS_STATUSES = ['completed', 'in_progress', 'not_started'] as const;
export type NmdsStatus = (typeof NMDS_STATUSES)[number];
export const NMDS_LABELS: Record<NmdsStatus, string> = {
  completed: 'Completed',
  in_progress: 'In progress or partially completed',
  not_started: 'Not started',
};

export const OBSERVATION_OUTCOMES = ['competent', 'not_yet_competent'] as const;
export type ObservationOutcome = (typeof OBSERVATION_OUTCOMES)[number];
export const OBSERVATION_SHIFTS = ['early', 'late', 'day', 'long_day', 'night', 'other'] as const;
export type ObservationShift = (typeof OBSERVATION_SHIFTS)[number];

/** Approval history: every selection, approval, rejection and reopening of a standard. */
export const DECISION_ACTIONS = ['submitted', 'approved', 'rejected'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

export const EVIDENCE_KINDS = ['file', 'result'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** Expected completion of a certificate after its start, unless an organisation sets its own (1–104 weeks). */
export const CARE_CERTIFICATE_DEFAULT_WEEKS = 12;

export const CareCertificateMessages = {
  assigned: 'Certificate assigned.',
  withdrawn: 'Certificate withdrawn.',
  evidenceAdded: 'Evidence added.',
  evidenceRemoved: 'Evidence removed.',
  observationSaved: 'Observation saved.',
  observationDeleted: 'Observation deleted.',
  observationApproved: 'Observation approved.',
  standardSubmitted: 'Standard selected for approval.',
  standardApproved: 'Standard approved.',
  standardRejected: 'Standard returned with reasons.',
  historicalSaved: 'Historical certificate saved.',
  settingsUpdated: 'Settings updated.',
  standardsUpdated: 'Standards updated.',
  courseCriteriaSaved: 'Criteria saved.',
  criteriaPreviewed: 'Nothing is changed yet: check the changes, then apply them.',
  criteriaImported: 'Criteria imported.',
  criteriaFileRequired: 'Choose a CSV or Excel (.xlsx) file.',
  criteriaFileTooBig: 'The file is too big: split it into files under 2 MB.',
  // Refusals (409 for a state that forbids it, 422 with field errors for bad input).
  alreadyAssigned: 'This person already has this version of the certificate.',
  hasEvidence: 'This certificate has evidence: it cannot be withdrawn.',
  criteriaMissingEvidence: 'Every criterion of this standard needs evidence first.',
  noCriteria: 'This standard has no assessment criteria yet: a super admin can add them.',
  standardApprovedAlready: 'This standard is already approved.',
  notAwaitingApproval: 'This standard is not awaiting approval.',
  observationLocked: 'This observation is approved and cannot be changed: record a correction instead.',
  observationSuperseded: 'This observation has already been corrected.',
  evidenceLocked: 'This evidence supports an approved standard and cannot be removed.',
  notComplete: 'The certificate can be downloaded when every standard is approved.',
  historicalOnly: 'This is not a historical certificate.',
  criterionInUse: 'This criterion has evidence: it cannot be deleted.',
  versionInUse: 'This version has certificates: it cannot be deleted.',
  criteriaOtherVersion: 'Choose criteria of this certificate’s version.',
} as const;

const text = (max: number) => z.string().trim().max(max);
const isoDate = z.string({ error: 'Enter a date.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date.');
const ids = z.array(z.number().int().positive()).max(500);
export const UuidParams = z.object({ uuid: z.uuid() });
export const UuidIdParams = z.object({ uuid: z.uuid(), id: z.coerce.number().int().positive() });

// --- Standards (versioned data) --------------------------------------------------------------------------------

export const CriterionView = z.object({
  id: z.number(),
  code: z.string(),
  text: z.string(),
  requires_observation: z.boolean(),
  position: z.number(),
});
export type CriterionView = z.infer<typeof CriterionView>;
export const OutcomeView = z.object({
  id: z.number(),
  code: z.string(),
  title: z.string().nullable(),
  position: z.number(),
  criteria: z.array(CriterionView),
});
export type OutcomeView = z.infer<typeof OutcomeView>;
export const StandardView = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  outcomes: z.array(OutcomeView),
});
export type StandardView = z.infer<typeof StandardView>;
/** GET /care-certificate-versions (any signed-in user): versions with counts, newest first. */
export const VersionSummary = z.object({
  id: z.number(),
  code: z.string(),
  title: z.string(),
  effective_from: z.string().nullable(),
  is_default: z.boolean(),
  standards_count: z.number(),
  criteria_count: z.number(),
  certificates_count: z.number(),
});
export type VersionSummary = z.infer<typeof VersionSummary>;
/** GET /care-certificate-versions/{id}: the whole tree, in number / code order. */
export const VersionView = VersionSummary.extend({ standards: z.array(StandardView) });
export type VersionView = z.infer<typeof VersionView>;

/** POST /care-certificate-versions (super admin): a new version, optionally a copy of another's tree. */
export const VersionBody = z.object({
  code: text(20).min(1, 'Enter a code.'),
  title: text(200).min(1, 'Enter a title.'),
  effective_from: isoDate.nullable().default(null),
  is_default: z.boolean().default(false),
  copy_from_id: z.number().int().positive().nullable().default(null),
});
export type VersionBody = z.infer<typeof VersionBody>;
export const VersionUpdate = updateSchemaOf(VersionBody.omit({ copy_from_id: true }));
export type VersionUpdate = z.infer<typeof VersionUpdate>;

/** POST /care-certificate-versions/{id}/standards, PATCH /care-certificate-standards/{id} (super admin). */
export const StandardBody = z.object({
  number: z.number({ error: 'Enter a number.' }).int().min(1).max(99),
  title: text(300).min(1, 'Enter a title.'),
});
export const StandardUpdate = updateSchemaOf(StandardBody);
/** POST /care-certificate-standards/{id}/outcomes, PATCH /care-certificate-outcomes/{id} (super admin). */
export const OutcomeBody = z.object({
  code: text(20).min(1, 'Enter a code.'),
  title: text(500).nullable().default(null),
  position: z.number().int().min(0).max(999).optional(),
});
export const OutcomeUpdate = updateSchemaOf(OutcomeBody);
/** POST /care-certificate-outcomes/{id}/criteria, PATCH /care-certificate-criteria/{id} (super admin). */
export const CriterionBody = z.object({
  code: text(20).min(1, 'Enter a code.'),
  text: text(2000).min(1, 'Enter the criterion.'),
  requires_observation: z.boolean().default(false),
  position: z.number().int().min(0).max(999).optional(),
});
export const CriterionUpdate = updateSchemaOf(CriterionBody);
// DELETE /care-certificate-standards/{id}, /care-certificate-outcomes/{id}, /care-certificate-criteria/{id}:
// 409 criterionInUse when any certificate has evidence or an observation on a criterion below.

/** GET / PUT /courses/{id}/care-certificate-criteria: the criteria a course's passed results evidence. */
export const CourseCriteriaBody = z.object({ criterion_ids: ids });
export type CourseCriteriaBody = z.infer<typeof CourseCriteriaBody>;
export const CourseCriteriaView = z.object({
  course_id: z.number(),
  criteria: z.array(
    z.object({
      id: z.number(),
      code: z.string(),
      text: z.string(),
      version_code: z.string(),
      standard_number: z.number(),
    }),
  ),
});
export type CourseCriteriaView = z.infer<typeof CourseCriteriaView>;

// --- Importing criteria (issue 32 §2) ----------------------------------------------------------------------

/** What a criterion is evidenced by: knowledge (e-learning, a file, a result) or observed (an assessor's observation). */
export const CRITERION_KINDS = ['knowledge', 'observed'] as const;
export type CriterionKind = (typeof CRITERION_KINDS)[number];
/** The columns of a criteria import (CSV or .xlsx, first sheet; headers on row 1; `version` is optional). */
export const CRITERIA_IMPORT_COLUMNS = ['code', 'outcome', 'wording', 'kind', 'version'] as const;
export const CRITERIA_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const CRITERIA_IMPORT_MAX_ROWS = 2000;

/** Where a version's official text is published, and for a standard the document that holds its criteria. */
export const StandardsSource = z.object({ label: z.string(), url: z.string() });
export type StandardsSource = z.infer<typeof StandardsSource>;
/** One standard of a version: how many criteria it holds and which are known to be missing. */
export const StandardGaps = z.object({
  number: z.number(),
  title: z.string(),
  criteria_count: z.number(),
  /** Letters missing before the last held one, per outcome (1.1d held without 1.1c: 1.1c), and whole outcomes. */
  missing: z.array(z.string()),
  sources: z.array(StandardsSource),
});
export type StandardGaps = z.infer<typeof StandardGaps>;
/**
 * GET /care-certificate-versions/{id}/gaps (any signed-in user): per standard, what is still missing and where the
 * official text is published. `complete`: every standard has criteria (a certificate on it can be finished).
 */
export const VersionGaps = z.object({
  version_id: z.number(),
  code: z.string(),
  title: z.string(),
  complete: z.boolean(),
  standards_without_criteria: z.array(z.number()),
  standards: z.array(StandardGaps),
  sources: z.array(StandardsSource),
});
export type VersionGaps = z.infer<typeof VersionGaps>;
export const CRITERIA_IMPORT_CHANGES = ['added', 'changed', 'unchanged'] as const;
export type CriteriaImportChange = (typeof CRITERIA_IMPORT_CHANGES)[number];
export const CriteriaImportRow = z.object({
  /** The row's line in the spreadsheet (the header is row 1). */
  row: z.number(),
  code: z.string(),
  outcome: z.string(),
  wording: z.string(),
  kind: z.enum(CRITERION_KINDS),
  change: z.enum(CRITERIA_IMPORT_CHANGES),
  /** What the data holds now, for a changed row. */
  before: z.object({ wording: z.string(), kind: z.enum(CRITERION_KINDS) }).nullable(),
});
export type CriteriaImportRow = z.infer<typeof CriteriaImportRow>;
/**
 * POST /care-certificate-versions/{id}/criteria-import/preview and …/criteria-import (super admin; multipart, the
 * file part `file`): the preview changes nothing; the import applies the same rows in one transaction. Either
 * refuses the whole file with 422 and row-level errors keyed `rows.{row}.{column}` (a code whose standard the
 * version does not have, a row of another version, a code outside its outcome, a duplicate, a bad kind).
 * Criteria absent from the file are kept (an import adds and changes, never deletes).
 */
export const CriteriaImportResult = z.object({
  version_id: z.number(),
  version_code: z.string(),
  applied: z.boolean(),
  added: z.number(),
  changed: z.number(),
  unchanged: z.number(),
  outcomes_added: z.array(z.string()),
  rows: z.array(CriteriaImportRow),
  gaps: VersionGaps,
});
export type CriteriaImportResult = z.infer<typeof CriteriaImportResult>;

// --- Settings ----------------------------------------------------------------------------------------------

/**
 * GET / PATCH /care-certificate-settings?actingAs (86): per organisation, inherited from the nearest ancestor that
 * saved its own, else the defaults (like delegate settings). `default_version_id` null = the version marked default.
 */
export const CareCertificateSettingsBody = z.object({
  expected_weeks: z.number({ error: 'Enter a number of weeks.' }).int().min(1).max(104).default(12),
  default_version_id: z.number().int().positive().nullable().default(null),
});
export const CareCertificateSettingsUpdate = updateSchemaOf(CareCertificateSettingsBody);
export type CareCertificateSettingsUpdate = z.infer<typeof CareCertificateSettingsUpdate>;
export const CareCertificateSettingsView = z.object({
  entity_id: z.number(),
  expected_weeks: z.number(),
  default_version_id: z.number().nullable(),
  /** The organisation the values come from (itself once saved, else an ancestor), null = the defaults. */
  inherited_from: z.object({ id: z.number(), name: z.string() }).nullable(),
});
export type CareCertificateSettingsView = z.infer<typeof CareCertificateSettingsView>;

// --- Certificates ------------------------------------------------------------------------------------------

/** POST /care-certificates (86). started_on defaults to today (Europe/London); expected_by = start + weeks. */
export const AssignBody = z.object({
  user_id: z.number({ error: 'Choose a person.' }).int().positive(),
  version_id: z.number({ error: 'Choose a version.' }).int().positive(),
  started_on: isoDate.optional(),
});
export type AssignBody = z.infer<typeof AssignBody>;

/** GET /care-certificates (any view permission): certificates of people in scope. */
export const CareCertificatesQuery = PageQuery.extend({
  user_id: z.coerce.number().int().positive().optional(),
  version_id: z.coerce.number().int().positive().optional(),
  status: z.enum(CERTIFICATE_STATUSES).optional(),
  historical: queryBool.optional(),
  /** Only those with a standard awaiting approval. */
  awaiting_approval: queryBool.optional(),
  overdue: queryBool.optional(),
});
export type CareCertificatesQuery = z.infer<typeof CareCertificatesQuery>;

/** A person with their primary organisation. */
export const CertificatePerson = PersonRef.extend({ entity: EntityRef });
export type CertificatePerson = z.infer<typeof CertificatePerson>;
export const CertificateSummary = z.object({
  uuid: z.string(),
  user: CertificatePerson,
  version: z.object({ id: z.number(), code: z.string(), title: z.string() }),
  status: z.enum(CERTIFICATE_STATUSES),
  historical: z.boolean(),
  started_on: z.string(),
  expected_by: z.string().nullable(),
  completed_on: z.string().nullable(),
  overdue: z.boolean(),
  nmds: z.enum(NMDS_STATUSES),
  standards_total: z.number(),
  standards_approved: z.number(),
  standards_awaiting_approval: z.number(),
  criteria_total: z.number(),
  criteria_evidenced: z.number(),
  assigned_by: z.string().nullable(),
  created_at: z.string(),
});
export type CertificateSummary = z.infer<typeof CertificateSummary>;

export const ResultEvidence = z.object({
  result_id: z.number(),
  course_title: z.string(),
  completed_at: z.string(),
  /** true: found through the course's criteria mapping; false: linked by hand (evidence_id set). */
  automatic: z.boolean(),
  evidence_id: z.number().nullable(),
});
export const FileEvidence = z.object({
  id: z.number(),
  description: z.string().nullable(),
  original_name: z.string(),
  mime_type: z.string(),
  added_by: z.string().nullable(),
  created_at: z.string(),
  /** GET /care-certificates/{uuid}/evidence/{id}/file (an attachment). */
  download_url: z.string(),
});
export type FileEvidence = z.infer<typeof FileEvidence>;

export const ObservationView = z.object({
  id: z.number(),
  uuid: z.string(),
  assessor: z.object({ id: z.number().nullable(), name: z.string() }),
  observed_at: z.string(),
  place: z.string(),
  shift: z.enum(OBSERVATION_SHIFTS),
  observed: z.string(),
  outcome: z.enum(OBSERVATION_OUTCOMES),
  criterion_ids: z.array(z.number()),
  approved_at: z.string().nullable(),
  approved_by: z.string().nullable(),
  supersedes_id: z.number().nullable(),
  correction_reason: z.string().nullable(),
  /** The id of the observation that corrected this one (it no longer counts). */
  superseded_by_id: z.number().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
});
export type ObservationView = z.infer<typeof ObservationView>;

export const CriterionProgress = CriterionView.extend({
  evidenced: z.boolean(),
  results: z.array(ResultEvidence),
  file_ids: z.array(z.number()),
  observation_ids: z.array(z.number()),
});
export type CriterionProgress = z.infer<typeof CriterionProgress>;
export const StandardProgress = z.object({
  id: z.number(),
  number: z.number(),
  title: z.string(),
  state: z.enum(STANDARD_STATES),
  status: z.enum(STANDARD_STATUSES),
  criteria_total: z.number(),
  criteria_evidenced: z.number(),
  /** True when it can be selected for approval or approved (≥ 1 criterion, all evidenced, not approved). */
  ready: z.boolean(),
  submitted_at: z.string().nullable(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  /** The reasons of the last rejection while the standard is not approved. */
  rejection_reasons: z.string().nullable(),
  outcomes: z.array(OutcomeView.omit({ criteria: true }).extend({ criteria: z.array(CriterionProgress) })),
});
export type StandardProgress = z.infer<typeof StandardProgress>;
export const DecisionView = z.object({
  id: z.number(),
  standard_id: z.number(),
  standard_number: z.number(),
  action: z.enum(DECISION_ACTIONS),
  reasons: z.string().nullable(),
  by: z.string().nullable(),
  created_at: z.string(),
});
export type DecisionView = z.infer<typeof DecisionView>;

/** GET /care-certificates/{uuid} (owner or view permission, in scope). */
export const CertificateView = CertificateSummary.extend({
  provider: z.string().nullable(),
  assessor_name: z.string().nullable(),
  notes: z.string().nullable(),
  standards: z.array(StandardProgress),
  files: z.array(FileEvidence),
  observations: z.array(ObservationView),
  decisions: z.array(DecisionView),
  /** What the caller may do here (the pages show only these actions; the server checks again). */
  can: z.object({
    upload: z.boolean(),
    observe: z.boolean(),
    delete_observation: z.boolean(),
    submit: z.boolean(),
    approve: z.boolean(),
    download: z.boolean(),
    withdraw: z.boolean(),
    edit_historical: z.boolean(),
  }),
});
export type CertificateView = z.infer<typeof CertificateView>;

/**
 * POST /care-certificates/{uuid}/evidence: multipart (fields `description`, `criterion_ids` as a JSON array or
 * repeated fields, file `file`: PDF, PNG or JPEG, EVIDENCE_MAX_BYTES) for a file; or JSON EvidenceResultBody to
 * link a result of the certificate's user by hand. DELETE /care-certificates/{uuid}/evidence/{id} while no standard
 * it supports is approved (409 evidenceLocked).
 */
export const EvidenceFileFields = z.object({
  description: text(1000).nullable().default(null),
  criterion_ids: ids.min(1, 'Choose at least one criterion.'),
});
export const EvidenceResultBody = z.object({
  result_id: z.number({ error: 'Choose a training record.' }).int().positive(),
  criterion_ids: ids.min(1, 'Choose at least one criterion.'),
  description: text(1000).nullable().default(null),
});
export type EvidenceResultBody = z.infer<typeof EvidenceResultBody>;

/**
 * POST /care-certificates/{uuid}/observations (89); PATCH /care-certificates/{uuid}/observations/{id} (89, only
 * while not approved: 409 observationLocked); DELETE (90, same rule). A correction of an approved observation is a
 * POST with `supersedes_id` and `correction_reason` (both or neither). `assessor_id` defaults to the caller;
 * `assessor_name` names an assessor who is not a user.
 */
export const ObservationBody = z.object({
  assessor_id: z.number().int().positive().nullable().optional(),
  assessor_name: text(200).nullable().optional(),
  observed_at: z.iso.datetime({ offset: true, error: 'Enter the date and time.' }),
  place: text(200).min(1, 'Enter where it was observed.'),
  shift: z.enum(OBSERVATION_SHIFTS, { error: 'Choose a shift.' }),
  observed: text(5000).min(1, 'Describe what was observed.'),
  outcome: z.enum(OBSERVATION_OUTCOMES, { error: 'Choose an outcome.' }),
  criterion_ids: ids.min(1, 'Choose at least one criterion.'),
  supersedes_id: z.number().int().positive().nullable().default(null),
  correction_reason: text(2000).nullable().default(null),
});
export type ObservationBody = z.infer<typeof ObservationBody>;
export const ObservationUpdate = updateSchemaOf(
  ObservationBody.omit({ supersedes_id: true, correction_reason: true }),
);
export type ObservationUpdate = z.infer<typeof ObservationUpdate>;

/**
 * POST /care-certificates/{uuid}/standards/{id}/submit (owner, 86, 89): select for approval (422 on `standard`
 * when not ready). …/approve (93): from open or awaiting_approval, when ready. …/reject (93) with reasons: from
 * awaiting_approval back to open.
 */
export const RejectBody = z.object({ reasons: text(2000).min(1, 'Give the reasons.') });
export type RejectBody = z.infer<typeof RejectBody>;

// --- Historical certificates (92) ----------------------------------------------------------------------------

/**
 * GET/POST /historical-care-certificates, GET/PATCH /historical-care-certificates/{uuid}: a certificate completed
 * elsewhere (complete, every standard approved as of completed_on). Evidence files through
 * POST /care-certificates/{uuid}/evidence with every criterion (criterion_ids may be empty there for historical).
 */
export const HistoricalBody = z.object({
  user_id: z.number({ error: 'Choose a person.' }).int().positive(),
  version_id: z.number({ error: 'Choose a version.' }).int().positive(),
  completed_on: isoDate,
  started_on: isoDate.nullable().default(null),
  provider: text(200).min(1, 'Enter where it was completed.'),
  assessor_name: text(200).nullable().default(null),
  notes: text(5000).nullable().default(null),
});
export type HistoricalBody = z.infer<typeof HistoricalBody>;
export const HistoricalUpdate = updateSchemaOf(HistoricalBody.omit({ user_id: true }));
export type HistoricalUpdate = z.infer<typeof HistoricalUpdate>;
export const HistoricalQuery = PageQuery.extend({ user_id: z.coerce.number().int().positive().optional() });

// --- Report (87) ---------------------------------------------------------------------------------------------

/**
 * GET /reports/care-certificate (87): one row per person in scope with a certificate (and, with
 * people=all, people without one, nmds not_started). spec 1 §3 certificates filter: `certificates` (version ids;
 * empty = all) and the four include flags (all true by default) keep a person when any of their standards has an
 * included status; `care_certificate_filter` (preset field): in_progress, complete or either.
 * `view=standard` returns per-standard counts instead. GET /reports/care-certificate/export/{xlsx|pdf} (like the
 * compliance export) with the same query streams every matching row. `entities` covers their descendants unless
 * deep=false; `preset_id` (the caller's own preset) adds its entities (when none are sent), users, roles and
 * care_certificate_filter (when the query's is 'either').
 */
export const CareCertificateReportQuery = PageQuery.extend({
  entities: z
    .union([z.array(z.coerce.number().int().positive()), z.coerce.number().int().positive()])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  certificates: z
    .union([z.array(z.coerce.number().int().positive()), z.coerce.number().int().positive()])
    .transform((v) => (Array.isArray(v) ? v : [v]))
    .optional(),
  includeApproved: queryBool.default(true),
  includeAwaitingApproval: queryBool.default(true),
  includeOutstanding: queryBool.default(true),
  includeWorkingTowards: queryBool.default(true),
  care_certificate_filter: z.enum(CARE_CERTIFICATE_FILTERS).default('either'),
  people: z.enum(['with_certificate', 'all']).default('with_certificate'),
  overdue_only: queryBool.optional(),
  view: z.enum(['person', 'standard']).default('person'),
  preset_id: z.coerce.number().int().positive().optional(),
});
export type CareCertificateReportQuery = z.infer<typeof CareCertificateReportQuery>;
export const CareCertificateReportRow = z.object({
  user: CertificatePerson,
  role: z.string().nullable(),
  start_date: z.string().nullable(),
  certificate: CertificateSummary.omit({ user: true }).nullable(),
  nmds: z.enum(NMDS_STATUSES),
  /** Standard number → status, for the certificate's version. */
  standards: z.record(z.string(), z.enum(STANDARD_STATUSES)),
});
export type CareCertificateReportRow = z.infer<typeof CareCertificateReportRow>;
export const CareCertificateStandardRow = z.object({
  version_code: z.string(),
  number: z.number(),
  title: z.string(),
  outstanding: z.number(),
  working_towards: z.number(),
  awaiting_approval: z.number(),
  approved: z.number(),
});
export type CareCertificateStandardRow = z.infer<typeof CareCertificateStandardRow>;

// --- Dashboards ----------------------------------------------------------------------------------------------

/** GET /dashboard/care-certificate (signed-in user): their current certificate and the next criteria to evidence. */
export const LearnerCareCertificateWidget = z.object({
  certificate: CertificateSummary.nullable(),
  next: z.array(
    z.object({ standard_number: z.number(), standard_title: z.string(), code: z.string(), text: z.string() }),
  ),
});
export type LearnerCareCertificateWidget = z.infer<typeof LearnerCareCertificateWidget>;
/** GET /dashboard/care-certificate/team (any view permission): people in scope by stage. */
export const ManagerCareCertificateWidget = z.object({
  working_towards: z.number(),
  awaiting_approval: z.number(),
  overdue: z.number(),
  complete: z.number(),
  /** Up to 10 each, most urgent first (oldest expected_by / longest waiting). */
  overdue_people: z.array(CertificateSummary),
  awaiting_people: z.array(CertificateSummary),
});
export type ManagerCareCertificateWidget = z.infer<typeof ManagerCareCertificateWidget>;

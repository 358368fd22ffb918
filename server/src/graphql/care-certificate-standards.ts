import {
  CareCertificateSettingsUpdate,
  type CareCertificateSettingsView,
  ContentIdParams,
  CourseCriteriaBody,
  type CourseCriteriaView,
  CRITERIA_IMPORT_MAX_BYTES,
  type CriteriaImportResult,
  type CriteriaImportRow,
  CriterionBody,
  CriterionUpdate,
  type CriterionView,
  OutcomeBody,
  OutcomeUpdate,
  type OutcomeView,
  StandardBody,
  type StandardGaps,
  type StandardsSource,
  StandardUpdate,
  type StandardView,
  VersionBody,
  type VersionGaps,
  type VersionSummary,
  VersionUpdate,
} from '@cc/contracts';
import { importCriteria, previewCriteriaImport, versionGaps } from '../care-certificate/criteria-import';
import { getSettings, updateSettings } from '../care-certificate/settings';
import {
  addCriterion,
  addOutcome,
  addStandard,
  createVersion,
  deleteCriterion,
  deleteOutcome,
  deleteStandard,
  deleteVersion,
  getCourseCriteria,
  getVersion,
  listVersions,
  setCourseCriteria,
  updateCriterion,
  updateOutcome,
  updateStandard,
  updateVersion,
} from '../care-certificate/standards-service';
import { actorOf } from '../http/context';
import { builder, type UploadedBlob } from './builder';
import { defined, parseInput } from './input';

/**
 * The Care Certificate's standards over GraphQL (issue 16): versions and their tree (super admins edit), courses'
 * criteria, and the settings. Every resolver calls the REST route's service (care-certificate/standards-service.ts,
 * settings.ts), so the answers and rules are the same.
 */

const idOf = (id: string | number) => parseInput(ContentIdParams, { id }).id;

export const CareCertificateCriterionObject = builder
  .objectRef<CriterionView>('CareCertificateCriterion')
  .implement({
    description: 'An assessment criterion of a standard.',
    fields: (t) => ({
      id: t.exposeID('id'),
      code: t.exposeString('code'),
      text: t.exposeString('text'),
      requires_observation: t.exposeBoolean('requires_observation', {
        description: 'Evidenced only by a competent observation at work.',
      }),
      position: t.exposeInt('position'),
    }),
  });

const OutcomeObject = builder.objectRef<OutcomeView>('CareCertificateOutcome').implement({
  description: 'A learning outcome of a standard, with its criteria.',
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code'),
    title: t.exposeString('title', { nullable: true }),
    position: t.exposeInt('position'),
    criteria: t.field({ type: [CareCertificateCriterionObject], resolve: (o) => o.criteria }),
  }),
});

const StandardObject = builder.objectRef<StandardView>('CareCertificateStandard').implement({
  description: 'A standard of a version, with its outcomes.',
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    title: t.exposeString('title'),
    outcomes: t.field({ type: [OutcomeObject], resolve: (s) => s.outcomes }),
  }),
});

type VersionShape = VersionSummary & { standards?: StandardView[] };
const VersionObject = builder.objectRef<VersionShape>('CareCertificateVersion').implement({
  description: 'A version of the standards (2015, 2025, …).',
  fields: (t) => ({
    id: t.exposeID('id'),
    code: t.exposeString('code'),
    title: t.exposeString('title'),
    effective_from: t.exposeString('effective_from', { nullable: true }),
    is_default: t.exposeBoolean('is_default'),
    standards_count: t.exposeInt('standards_count'),
    criteria_count: t.exposeInt('criteria_count'),
    certificates_count: t.exposeInt('certificates_count'),
    standards: t.field({
      type: [StandardObject],
      resolve: async (v, _a, ctx) => v.standards ?? (await getVersion(ctx, v.id)).standards,
    }),
  }),
});

const CourseCriterionObject = builder
  .objectRef<CourseCriteriaView['criteria'][number]>('CourseCareCertificateCriterion')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      code: t.exposeString('code'),
      text: t.exposeString('text'),
      version_code: t.exposeString('version_code'),
      standard_number: t.exposeInt('standard_number'),
    }),
  });
const CourseCriteriaObject = builder
  .objectRef<CourseCriteriaView>('CourseCareCertificateCriteria')
  .implement({
    description: "The criteria a course's passed results evidence.",
    fields: (t) => ({
      course_id: t.exposeID('course_id'),
      criteria: t.field({ type: [CourseCriterionObject], resolve: (c) => c.criteria }),
    }),
  });

const NamedObject = builder
  .objectRef<{ id: number; name: string }>('CareCertificateSettingsSource')
  .implement({
    fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
  });
const SettingsObject = builder.objectRef<CareCertificateSettingsView>('CareCertificateSettings').implement({
  description: "An organisation's certificate settings (inherited from above until it saves its own).",
  fields: (t) => ({
    entity_id: t.exposeID('entity_id'),
    expected_weeks: t.exposeInt('expected_weeks'),
    default_version_id: t.exposeInt('default_version_id', { nullable: true }),
    inherited_from: t.field({ type: NamedObject, nullable: true, resolve: (s) => s.inherited_from }),
  }),
});

builder.queryField('careCertificateVersions', (t) =>
  t.field({
    type: [VersionObject],
    description: 'GET /api/care-certificate-versions (any signed-in user).',
    resolve: (_r, _a, ctx) => listVersions(ctx),
  }),
);
builder.queryField('careCertificateVersion', (t) =>
  t.field({
    type: VersionObject,
    description: 'GET /api/care-certificate-versions/{id}: the whole tree.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return getVersion(ctx, idOf(id));
    },
  }),
);
builder.queryField('courseCareCertificateCriteria', (t) =>
  t.field({
    type: CourseCriteriaObject,
    description: 'GET /api/courses/{id}/care-certificate-criteria.',
    args: { course_id: t.arg.id({ required: true }) },
    resolve: (_r, { course_id }, ctx) => {
      actorOf(ctx);
      return getCourseCriteria(ctx, idOf(course_id));
    },
  }),
);
builder.queryField('careCertificateSettings', (t) =>
  t.field({
    type: SettingsObject,
    description: 'GET /api/care-certificate-settings (86; the acting-as organisation).',
    resolve: (_r, _a, ctx) => getSettings(ctx),
  }),
);

const VersionInput = builder.inputType('CareCertificateVersionInput', {
  description: 'On an update only the fields sent change (copy_from_id is read on create only).',
  fields: (t) => ({
    code: t.string(),
    title: t.string(),
    effective_from: t.string(),
    is_default: t.boolean(),
    copy_from_id: t.int(),
  }),
});
const StandardInput = builder.inputType('CareCertificateStandardInput', {
  description: 'On an update only the fields sent change.',
  fields: (t) => ({ number: t.int(), title: t.string() }),
});
const OutcomeInput = builder.inputType('CareCertificateOutcomeInput', {
  description: 'On an update only the fields sent change.',
  fields: (t) => ({ code: t.string(), title: t.string(), position: t.int() }),
});
const CriterionInput = builder.inputType('CareCertificateCriterionInput', {
  description: 'On an update only the fields sent change.',
  fields: (t) => ({
    code: t.string(),
    text: t.string(),
    requires_observation: t.boolean(),
    position: t.int(),
  }),
});
const SettingsInput = builder.inputType('CareCertificateSettingsInput', {
  description: 'Only the fields sent change.',
  fields: (t) => ({ expected_weeks: t.int(), default_version_id: t.int() }),
});

builder.mutationField('createCareCertificateVersion', (t) =>
  t.field({
    type: VersionObject,
    description: 'POST /api/care-certificate-versions (super admin).',
    args: { input: t.arg({ type: VersionInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      actorOf(ctx);
      return createVersion(ctx, parseInput(VersionBody, defined({ ...input })));
    },
  }),
);
builder.mutationField('updateCareCertificateVersion', (t) =>
  t.field({
    type: VersionObject,
    description: 'PATCH /api/care-certificate-versions/{id} (super admin): only the fields sent change.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: VersionInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      const { copy_from_id: _c, ...rest } = input;
      return updateVersion(ctx, idOf(id), parseInput(VersionUpdate, defined({ ...rest })));
    },
  }),
);
builder.mutationField('deleteCareCertificateVersion', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/care-certificate-versions/{id} (super admin; 409 while it has certificates).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, { id }, ctx) => {
      actorOf(ctx);
      await deleteVersion(ctx, idOf(id));
      return true;
    },
  }),
);
builder.mutationField('addCareCertificateStandard', (t) =>
  t.field({
    type: VersionObject,
    description: 'POST /api/care-certificate-versions/{id}/standards (super admin).',
    args: { version_id: t.arg.id({ required: true }), input: t.arg({ type: StandardInput, required: true }) },
    resolve: (_r, { version_id, input }, ctx) => {
      actorOf(ctx);
      return addStandard(ctx, idOf(version_id), parseInput(StandardBody, defined({ ...input })));
    },
  }),
);
builder.mutationField('updateCareCertificateStandard', (t) =>
  t.field({
    type: VersionObject,
    description: 'PATCH /api/care-certificate-standards/{id} (super admin): only the fields sent change.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: StandardInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      return updateStandard(ctx, idOf(id), parseInput(StandardUpdate, defined({ ...input })));
    },
  }),
);
builder.mutationField('deleteCareCertificateStandard', (t) =>
  t.field({
    type: VersionObject,
    description: 'DELETE /api/care-certificate-standards/{id} (super admin; 409 while evidence uses it).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return deleteStandard(ctx, idOf(id));
    },
  }),
);
builder.mutationField('addCareCertificateOutcome', (t) =>
  t.field({
    type: VersionObject,
    description: 'POST /api/care-certificate-standards/{id}/outcomes (super admin).',
    args: { standard_id: t.arg.id({ required: true }), input: t.arg({ type: OutcomeInput, required: true }) },
    resolve: (_r, { standard_id, input }, ctx) => {
      actorOf(ctx);
      return addOutcome(ctx, idOf(standard_id), parseInput(OutcomeBody, defined({ ...input })));
    },
  }),
);
builder.mutationField('updateCareCertificateOutcome', (t) =>
  t.field({
    type: VersionObject,
    description: 'PATCH /api/care-certificate-outcomes/{id} (super admin): only the fields sent change.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: OutcomeInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      return updateOutcome(ctx, idOf(id), parseInput(OutcomeUpdate, defined({ ...input })));
    },
  }),
);
builder.mutationField('deleteCareCertificateOutcome', (t) =>
  t.field({
    type: VersionObject,
    description: 'DELETE /api/care-certificate-outcomes/{id} (super admin; 409 while evidence uses it).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return deleteOutcome(ctx, idOf(id));
    },
  }),
);
builder.mutationField('addCareCertificateCriterion', (t) =>
  t.field({
    type: VersionObject,
    description: 'POST /api/care-certificate-outcomes/{id}/criteria (super admin).',
    args: {
      outcome_id: t.arg.id({ required: true }),
      input: t.arg({ type: CriterionInput, required: true }),
    },
    resolve: (_r, { outcome_id, input }, ctx) => {
      actorOf(ctx);
      return addCriterion(ctx, idOf(outcome_id), parseInput(CriterionBody, defined({ ...input })));
    },
  }),
);
builder.mutationField('updateCareCertificateCriterion', (t) =>
  t.field({
    type: VersionObject,
    description: 'PATCH /api/care-certificate-criteria/{id} (super admin): only the fields sent change.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CriterionInput, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      actorOf(ctx);
      return updateCriterion(ctx, idOf(id), parseInput(CriterionUpdate, defined({ ...input })));
    },
  }),
);
builder.mutationField('deleteCareCertificateCriterion', (t) =>
  t.field({
    type: VersionObject,
    description: 'DELETE /api/care-certificate-criteria/{id} (super admin; 409 while evidence uses it).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return deleteCriterion(ctx, idOf(id));
    },
  }),
);
builder.mutationField('setCourseCareCertificateCriteria', (t) =>
  t.field({
    type: CourseCriteriaObject,
    description: 'PUT /api/courses/{id}/care-certificate-criteria: replaces the set.',
    args: {
      course_id: t.arg.id({ required: true }),
      criterion_ids: t.arg.intList({ required: true }),
    },
    resolve: (_r, { course_id, criterion_ids }, ctx) => {
      actorOf(ctx);
      return setCourseCriteria(ctx, idOf(course_id), parseInput(CourseCriteriaBody, { criterion_ids }));
    },
  }),
);
builder.mutationField('updateCareCertificateSettings', (t) =>
  t.field({
    type: SettingsObject,
    description: 'PATCH /api/care-certificate-settings (86): only the fields sent change.',
    args: { input: t.arg({ type: SettingsInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      actorOf(ctx);
      return updateSettings(ctx, parseInput(CareCertificateSettingsUpdate, defined({ ...input })));
    },
  }),
);

// --- Issue 32 §2: gaps and the criteria import ------------------------------------------------------------------

const SourceObject = builder.objectRef<StandardsSource>('CareCertificateStandardsSource').implement({
  description: 'Where the official text is published.',
  fields: (t) => ({ label: t.exposeString('label'), url: t.exposeString('url') }),
});
const StandardGapsObject = builder.objectRef<StandardGaps>('CareCertificateStandardGaps').implement({
  fields: (t) => ({
    number: t.exposeInt('number'),
    title: t.exposeString('title'),
    criteria_count: t.exposeInt('criteria_count'),
    missing: t.exposeStringList('missing'),
    sources: t.field({ type: [SourceObject], resolve: (s) => s.sources }),
  }),
});
const VersionGapsObject = builder.objectRef<VersionGaps>('CareCertificateVersionGaps').implement({
  description: 'Per standard, what a version still lacks and where the official text is published.',
  fields: (t) => ({
    version_id: t.exposeID('version_id'),
    code: t.exposeString('code'),
    title: t.exposeString('title'),
    complete: t.exposeBoolean('complete', { description: 'Every standard has criteria.' }),
    standards_without_criteria: t.exposeIntList('standards_without_criteria'),
    standards: t.field({ type: [StandardGapsObject], resolve: (g) => g.standards }),
    sources: t.field({ type: [SourceObject], resolve: (g) => g.sources }),
  }),
});
const ImportBeforeObject = builder
  .objectRef<NonNullable<CriteriaImportRow['before']>>('CareCertificateCriteriaImportBefore')
  .implement({ fields: (t) => ({ wording: t.exposeString('wording'), kind: t.exposeString('kind') }) });
const ImportRowObject = builder.objectRef<CriteriaImportRow>('CareCertificateCriteriaImportRow').implement({
  fields: (t) => ({
    row: t.exposeInt('row'),
    code: t.exposeString('code'),
    outcome: t.exposeString('outcome'),
    wording: t.exposeString('wording'),
    kind: t.exposeString('kind'),
    change: t.exposeString('change', { description: 'added, changed or unchanged.' }),
    before: t.field({ type: ImportBeforeObject, nullable: true, resolve: (r) => r.before }),
  }),
});
const ImportResultObject = builder
  .objectRef<CriteriaImportResult>('CareCertificateCriteriaImport')
  .implement({
    fields: (t) => ({
      version_id: t.exposeID('version_id'),
      version_code: t.exposeString('version_code'),
      applied: t.exposeBoolean('applied'),
      added: t.exposeInt('added'),
      changed: t.exposeInt('changed'),
      unchanged: t.exposeInt('unchanged'),
      outcomes_added: t.exposeStringList('outcomes_added'),
      rows: t.field({ type: [ImportRowObject], resolve: (r) => r.rows }),
      gaps: t.field({ type: VersionGapsObject, resolve: (r) => r.gaps }),
    }),
  });

builder.queryField('careCertificateVersionGaps', (t) =>
  t.field({
    type: VersionGapsObject,
    description: 'GET /api/care-certificate-versions/{id}/gaps (any signed-in user).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => {
      actorOf(ctx);
      return versionGaps(ctx, idOf(id));
    },
  }),
);

/** A GraphQL upload as the REST form's file; one over the limit is not read. */
const criteriaFile = (file: UploadedBlob) => async () =>
  file.size > CRITERIA_IMPORT_MAX_BYTES
    ? { filename: file.name, bytes: Buffer.alloc(0), truncated: true }
    : { filename: file.name, bytes: Buffer.from(await file.arrayBuffer()), truncated: false };

builder.mutationField('previewCareCertificateCriteriaImport', (t) =>
  t.field({
    type: ImportResultObject,
    description:
      'POST /api/care-certificate-versions/{id}/criteria-import/preview (super admin; multipart): changes nothing.',
    args: { version_id: t.arg.id({ required: true }), file: t.arg({ type: 'Upload', required: true }) },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      return previewCriteriaImport(ctx, idOf(args.version_id), criteriaFile(args.file));
    },
  }),
);
builder.mutationField('importCareCertificateCriteria', (t) =>
  t.field({
    type: ImportResultObject,
    description:
      'POST /api/care-certificate-versions/{id}/criteria-import (super admin; multipart): in one transaction.',
    args: { version_id: t.arg.id({ required: true }), file: t.arg({ type: 'Upload', required: true }) },
    resolve: (_r, args, ctx) => {
      actorOf(ctx);
      return importCriteria(ctx, idOf(args.version_id), criteriaFile(args.file));
    },
  }),
);

import {
  AssignBody,
  CareCertificatesQuery,
  type CertificateSummary,
  type CertificateView,
  type CriterionProgress,
  type DecisionView,
  type FileEvidence,
  type ObservationView,
  type StandardProgress,
  UuidParams,
} from '@cc/contracts';
import {
  assignCertificate,
  getCertificate,
  listCertificates,
  myCertificates,
  withdrawCertificate,
} from '../care-certificate/certificate-service';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Care certificates over GraphQL (issue 16): `careCertificates` (the filters of GET /api/care-certificates),
 * `careCertificate(uuid)`, `myCareCertificates`; mutations `assignCareCertificate` and `withdrawCareCertificate`.
 * Every resolver calls the REST route's service (care-certificate/certificate-service.ts). The object types are
 * exported for the workflow part's mutations, which answer with the same view.
 */

const uuidOf = (uuid: string) => parseInput(UuidParams, { uuid }).uuid;

const PersonObject = builder.objectRef<CertificateSummary['user']>('CareCertificatePerson').implement({
  description: 'A person with their primary organisation.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    entity: t.field({ type: EntityRefRef, resolve: (p) => p.entity }),
  }),
});

const VersionRefObject = builder
  .objectRef<CertificateSummary['version']>('CareCertificateVersionRef')
  .implement({
    fields: (t) => ({ id: t.exposeID('id'), code: t.exposeString('code'), title: t.exposeString('title') }),
  });

type SummaryFields = CertificateSummary;
const summaryFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, SummaryFields>,
) => ({
  uuid: t.exposeString('uuid'),
  user: t.field({ type: PersonObject, resolve: (c: SummaryFields) => c.user }),
  version: t.field({ type: VersionRefObject, resolve: (c: SummaryFields) => c.version }),
  status: t.exposeString('status', { description: 'in_progress or complete.' }),
  historical: t.exposeBoolean('historical'),
  started_on: t.exposeString('started_on'),
  expected_by: t.exposeString('expected_by', { nullable: true }),
  completed_on: t.exposeString('completed_on', { nullable: true }),
  overdue: t.exposeBoolean('overdue'),
  nmds: t.exposeString('nmds', { description: 'completed, in_progress or not_started (ASC-WDS).' }),
  standards_total: t.exposeInt('standards_total'),
  standards_approved: t.exposeInt('standards_approved'),
  standards_awaiting_approval: t.exposeInt('standards_awaiting_approval'),
  criteria_total: t.exposeInt('criteria_total'),
  criteria_evidenced: t.exposeInt('criteria_evidenced'),
  assigned_by: t.exposeString('assigned_by', { nullable: true }),
  created_at: t.exposeString('created_at'),
});

export const CareCertificateSummaryObject = builder
  .objectRef<CertificateSummary>('CareCertificateSummary')
  .implement({
    description: "One person's certificate of one version, with its progress.",
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
    fields: (t) => summaryFields(t as any),
  });

const ResultEvidenceObject = builder
  .objectRef<CriterionProgress['results'][number]>('CareCertificateResultEvidence')
  .implement({
    fields: (t) => ({
      result_id: t.exposeID('result_id'),
      course_title: t.exposeString('course_title'),
      completed_at: t.exposeString('completed_at'),
      automatic: t.exposeBoolean('automatic'),
      evidence_id: t.exposeInt('evidence_id', { nullable: true }),
    }),
  });

const CriterionProgressObject = builder
  .objectRef<CriterionProgress>('CareCertificateCriterionProgress')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      code: t.exposeString('code'),
      text: t.exposeString('text'),
      requires_observation: t.exposeBoolean('requires_observation'),
      position: t.exposeInt('position'),
      evidenced: t.exposeBoolean('evidenced'),
      results: t.field({ type: [ResultEvidenceObject], resolve: (k) => k.results }),
      file_ids: t.exposeIntList('file_ids'),
      observation_ids: t.exposeIntList('observation_ids'),
    }),
  });

const OutcomeProgressObject = builder
  .objectRef<StandardProgress['outcomes'][number]>('CareCertificateOutcomeProgress')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      code: t.exposeString('code'),
      title: t.exposeString('title', { nullable: true }),
      position: t.exposeInt('position'),
      criteria: t.field({ type: [CriterionProgressObject], resolve: (o) => o.criteria }),
    }),
  });

const StandardProgressObject = builder
  .objectRef<StandardProgress>('CareCertificateStandardProgress')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      number: t.exposeInt('number'),
      title: t.exposeString('title'),
      state: t.exposeString('state', { description: 'open, awaiting_approval or approved.' }),
      status: t.exposeString('status', {
        description: 'outstanding, working_towards, awaiting_approval or approved.',
      }),
      criteria_total: t.exposeInt('criteria_total'),
      criteria_evidenced: t.exposeInt('criteria_evidenced'),
      ready: t.exposeBoolean('ready'),
      submitted_at: t.exposeString('submitted_at', { nullable: true }),
      decided_at: t.exposeString('decided_at', { nullable: true }),
      decided_by: t.exposeString('decided_by', { nullable: true }),
      rejection_reasons: t.exposeString('rejection_reasons', { nullable: true }),
      outcomes: t.field({ type: [OutcomeProgressObject], resolve: (s) => s.outcomes }),
    }),
  });

const FileEvidenceObject = builder.objectRef<FileEvidence>('CareCertificateFile').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    description: t.exposeString('description', { nullable: true }),
    original_name: t.exposeString('original_name'),
    mime_type: t.exposeString('mime_type'),
    added_by: t.exposeString('added_by', { nullable: true }),
    created_at: t.exposeString('created_at'),
    download_url: t.exposeString('download_url'),
  }),
});

const AssessorObject = builder.objectRef<ObservationView['assessor']>('CareCertificateAssessor').implement({
  fields: (t) => ({ id: t.exposeInt('id', { nullable: true }), name: t.exposeString('name') }),
});

export const CareCertificateObservationObject = builder
  .objectRef<ObservationView>('CareCertificateObservation')
  .implement({
    description: 'An observation at work; append-only once approved (a correction supersedes it).',
    fields: (t) => ({
      id: t.exposeID('id'),
      uuid: t.exposeString('uuid'),
      assessor: t.field({ type: AssessorObject, resolve: (o) => o.assessor }),
      observed_at: t.exposeString('observed_at'),
      place: t.exposeString('place'),
      shift: t.exposeString('shift'),
      observed: t.exposeString('observed'),
      outcome: t.exposeString('outcome'),
      criterion_ids: t.exposeIntList('criterion_ids'),
      approved_at: t.exposeString('approved_at', { nullable: true }),
      approved_by: t.exposeString('approved_by', { nullable: true }),
      supersedes_id: t.exposeInt('supersedes_id', { nullable: true }),
      correction_reason: t.exposeString('correction_reason', { nullable: true }),
      superseded_by_id: t.exposeInt('superseded_by_id', { nullable: true }),
      created_by: t.exposeString('created_by', { nullable: true }),
      created_at: t.exposeString('created_at'),
    }),
  });

const DecisionObject = builder.objectRef<DecisionView>('CareCertificateDecision').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    standard_id: t.exposeInt('standard_id'),
    standard_number: t.exposeInt('standard_number'),
    action: t.exposeString('action', { description: 'submitted, approved or rejected.' }),
    reasons: t.exposeString('reasons', { nullable: true }),
    by: t.exposeString('by', { nullable: true }),
    created_at: t.exposeString('created_at'),
  }),
});

const CanObject = builder.objectRef<CertificateView['can']>('CareCertificateCan').implement({
  description: 'What the caller may do here (the server checks again).',
  fields: (t) => ({
    upload: t.exposeBoolean('upload'),
    observe: t.exposeBoolean('observe'),
    delete_observation: t.exposeBoolean('delete_observation'),
    submit: t.exposeBoolean('submit'),
    approve: t.exposeBoolean('approve'),
    download: t.exposeBoolean('download'),
    withdraw: t.exposeBoolean('withdraw'),
    edit_historical: t.exposeBoolean('edit_historical'),
  }),
});

export const CareCertificateObject = builder.objectRef<CertificateView>('CareCertificate').implement({
  description: 'A certificate with its standards, evidence, observations and approval history.',
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
    ...summaryFields(t as any),
    provider: t.exposeString('provider', { nullable: true }),
    assessor_name: t.exposeString('assessor_name', { nullable: true }),
    notes: t.exposeString('notes', { nullable: true }),
    standards: t.field({ type: [StandardProgressObject], resolve: (c) => c.standards }),
    files: t.field({ type: [FileEvidenceObject], resolve: (c) => c.files }),
    observations: t.field({ type: [CareCertificateObservationObject], resolve: (c) => c.observations }),
    decisions: t.field({ type: [DecisionObject], resolve: (c) => c.decisions }),
    can: t.field({ type: CanObject, resolve: (c) => c.can }),
  }),
});

const CareCertificatePaginator = paginatorOf(CareCertificateSummaryObject, 'CareCertificateSummary');

builder.queryField('careCertificates', (t) =>
  t.field({
    type: CareCertificatePaginator,
    description: 'GET /api/care-certificates: certificates of people in scope, with the same filters.',
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      user_id: t.arg.int(),
      version_id: t.arg.int(),
      status: t.arg.string({ description: 'in_progress or complete.' }),
      historical: t.arg.boolean(),
      awaiting_approval: t.arg.boolean(),
      overdue: t.arg.boolean(),
    },
    resolve: async (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(CareCertificatesQuery, args, (q) => listCertificates(ctx, q));
    },
  }),
);

builder.queryField('careCertificate', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'GET /api/care-certificates/{uuid}.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, ctx) => {
      actorOf(ctx);
      return getCertificate(ctx, uuidOf(uuid));
    },
  }),
);

builder.queryField('myCareCertificates', (t) =>
  t.field({
    type: [CareCertificateSummaryObject],
    description: "GET /api/care-certificates/mine: the caller's own certificates.",
    resolve: (_root, _args, ctx) => myCertificates(ctx),
  }),
);

const AssignInput = builder.inputType('AssignCareCertificateInput', {
  fields: (t) => ({
    user_id: t.int({ required: true }),
    version_id: t.int({ required: true }),
    started_on: t.string({ description: 'YYYY-MM-DD; today (Europe/London) when left out.' }),
  }),
});

builder.mutationField('assignCareCertificate', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'POST /api/care-certificates (86): assign a version to a person in scope.',
    args: { input: t.arg({ type: AssignInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      actorOf(ctx);
      return assignCertificate(
        ctx,
        parseInput(AssignBody, defined({ ...input, started_on: input.started_on ?? undefined })),
      );
    },
  }),
);

builder.mutationField('withdrawCareCertificate', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/care-certificates/{uuid} (86): only while nothing is recorded on it.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: async (_root, { uuid }, ctx) => {
      actorOf(ctx);
      await withdrawCertificate(ctx, uuidOf(uuid));
      return true;
    },
  }),
);

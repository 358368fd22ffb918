import {
  HistoricalBody,
  HistoricalQuery,
  HistoricalUpdate,
  OBSERVATION_OUTCOMES,
  OBSERVATION_SHIFTS,
  ObservationBody,
  ObservationUpdate,
  RejectBody,
  UuidIdParams,
  UuidParams,
} from '@cc/contracts';
import { approveStandard, rejectStandard, submitStandard } from '../care-certificate/approval-service';
import {
  createHistorical,
  getHistorical,
  listHistorical,
  patchHistorical,
} from '../care-certificate/historical-service';
import {
  approveObservation,
  createObservation,
  deleteObservation,
  patchObservation,
} from '../care-certificate/observation-service';
import { actorOf } from '../http/context';
import { builder } from './builder';
import {
  CareCertificateObject,
  CareCertificateObservationObject,
  CareCertificateSummaryObject,
} from './care-certificate-certificates';
import { defined, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * The Care Certificate's workflow over GraphQL (issue 16): mutations `upsertObservation` (create, correct, or
 * update only the fields sent), `deleteObservation`, `approveObservation`, `submitCareCertificateStandard`,
 * `approveCareCertificateStandard`, `rejectCareCertificateStandard`, `createHistoricalCareCertificate`,
 * `updateHistoricalCareCertificate`; queries `historicalCareCertificates` and `historicalCareCertificate`. Every
 * resolver calls the REST route's service, so the rules and answers are the same.
 */

const uuidOf = (uuid: string) => parseInput(UuidParams, { uuid }).uuid;
const uuidIdOf = (uuid: string, id: string | number) => parseInput(UuidIdParams, { uuid, id });

const ObservationInput = builder.inputType('CareCertificateObservationInput', {
  description:
    'Without id: a new observation (POST …/observations; with supersedes_id and correction_reason, a correction). With id: only the fields sent change (PATCH), while it is not approved.',
  fields: (t) => ({
    id: t.id(),
    assessor_id: t.int({ description: 'A user in scope; the caller when left out.' }),
    assessor_name: t.string({ description: 'An assessor who is not a user.' }),
    observed_at: t.string({ description: 'ISO date and time with its offset.' }),
    place: t.string(),
    shift: t.string({ description: OBSERVATION_SHIFTS.join(', ') }),
    observed: t.string(),
    outcome: t.string({ description: OBSERVATION_OUTCOMES.join(', ') }),
    criterion_ids: t.intList(),
    supersedes_id: t.int({ description: 'Create only: the observation this corrects.' }),
    correction_reason: t.string({ description: 'Create only: why the correction.' }),
  }),
});

builder.mutationField('upsertObservation', (t) =>
  t.field({
    type: CareCertificateObservationObject,
    description: 'POST or PATCH /api/care-certificates/{uuid}/observations over GraphQL (89).',
    args: {
      uuid: t.arg.string({ required: true }),
      input: t.arg({ type: ObservationInput, required: true }),
    },
    resolve: (_root, { uuid, input }, ctx) => {
      actorOf(ctx);
      const { id, supersedes_id, correction_reason, ...fields } = input;
      const sent = defined(fields);
      if (id === null || id === undefined)
        return createObservation(
          ctx,
          uuidOf(uuid),
          parseInput(ObservationBody, { ...sent, ...defined({ supersedes_id, correction_reason }) }),
        );
      const params = uuidIdOf(uuid, id);
      return patchObservation(ctx, params.uuid, params.id, parseInput(ObservationUpdate, sent));
    },
  }),
);

builder.mutationField('deleteObservation', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/care-certificates/{uuid}/observations/{id} (90): only while not approved.',
    args: { uuid: t.arg.string({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_root, { uuid, id }, ctx) => {
      actorOf(ctx);
      const params = uuidIdOf(uuid, id);
      await deleteObservation(ctx, params.uuid, params.id);
      return true;
    },
  }),
);

builder.mutationField('approveObservation', (t) =>
  t.field({
    type: CareCertificateObservationObject,
    description: 'POST /api/care-certificates/{uuid}/observations/{id}/approve (93).',
    args: { uuid: t.arg.string({ required: true }), id: t.arg.id({ required: true }) },
    resolve: (_root, { uuid, id }, ctx) => {
      actorOf(ctx);
      const params = uuidIdOf(uuid, id);
      return approveObservation(ctx, params.uuid, params.id);
    },
  }),
);

const standardArgs = (t: Parameters<Parameters<typeof builder.mutationField>[1]>[0]) => ({
  uuid: t.arg.string({ required: true }),
  standard_id: t.arg.id({ required: true }),
});

builder.mutationField('submitCareCertificateStandard', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'POST /api/care-certificates/{uuid}/standards/{id}/submit (the owner, 86, 89).',
    args: standardArgs(t),
    resolve: (_root, { uuid, standard_id }, ctx) => {
      actorOf(ctx);
      const params = uuidIdOf(uuid, standard_id);
      return submitStandard(ctx, params.uuid, params.id);
    },
  }),
);

builder.mutationField('approveCareCertificateStandard', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'POST /api/care-certificates/{uuid}/standards/{id}/approve (93).',
    args: standardArgs(t),
    resolve: (_root, { uuid, standard_id }, ctx) => {
      actorOf(ctx);
      const params = uuidIdOf(uuid, standard_id);
      return approveStandard(ctx, params.uuid, params.id);
    },
  }),
);

builder.mutationField('rejectCareCertificateStandard', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'POST /api/care-certificates/{uuid}/standards/{id}/reject (93), with the reasons.',
    args: { ...standardArgs(t), reasons: t.arg.string({ required: true }) },
    resolve: (_root, { uuid, standard_id, reasons }, ctx) => {
      actorOf(ctx);
      const params = uuidIdOf(uuid, standard_id);
      return rejectStandard(ctx, params.uuid, params.id, parseInput(RejectBody, { reasons }));
    },
  }),
);

const HistoricalInput = builder.inputType('HistoricalCareCertificateInput', {
  description: 'POST /api/historical-care-certificates; on an update, user_id is not read.',
  fields: (t) => ({
    user_id: t.int(),
    version_id: t.int(),
    completed_on: t.string({ description: 'YYYY-MM-DD' }),
    started_on: t.string({ description: 'YYYY-MM-DD; the completion day when left out.' }),
    provider: t.string(),
    assessor_name: t.string(),
    notes: t.string(),
  }),
});

builder.mutationField('createHistoricalCareCertificate', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'POST /api/historical-care-certificates (92).',
    args: { input: t.arg({ type: HistoricalInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      actorOf(ctx);
      return createHistorical(ctx, parseInput(HistoricalBody, defined(input)));
    },
  }),
);

builder.mutationField('updateHistoricalCareCertificate', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'PATCH /api/historical-care-certificates/{uuid} (92): only the fields sent change.',
    args: {
      uuid: t.arg.string({ required: true }),
      input: t.arg({ type: HistoricalInput, required: true }),
    },
    resolve: (_root, { uuid, input }, ctx) => {
      actorOf(ctx);
      const { user_id: _ignored, ...fields } = input;
      return patchHistorical(ctx, uuidOf(uuid), parseInput(HistoricalUpdate, defined(fields)));
    },
  }),
);

const HistoricalPaginator = paginatorOf(CareCertificateSummaryObject, 'HistoricalCareCertificate');

builder.queryField('historicalCareCertificates', (t) =>
  t.field({
    type: HistoricalPaginator,
    description: 'GET /api/historical-care-certificates (92): those of people in scope.',
    args: { ...pageArgs(t.arg), search: t.arg.string(), user_id: t.arg.int() },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(HistoricalQuery, args, (q) => listHistorical(ctx, q));
    },
  }),
);

builder.queryField('historicalCareCertificate', (t) =>
  t.field({
    type: CareCertificateObject,
    description: 'GET /api/historical-care-certificates/{uuid} (92).',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, ctx) => {
      actorOf(ctx);
      return getHistorical(ctx, uuidOf(uuid));
    },
  }),
);

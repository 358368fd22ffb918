import {
  AllocatePathwayBody,
  AllocationListQuery,
  AllocationParams,
  AllocationStepParams,
  type AllocationStepView,
  type AllocationSummary,
  type AllocationView,
  CreatePathwayBody,
  IdParams,
  PATHWAY_ALLOCATION_STATUSES,
  PATHWAY_STEP_TYPES,
  PATHWAY_VERSION_CHOICES,
  PathwayListQuery,
  type PathwayRoleAllocationView,
  type PathwayStepView,
  type PathwaySummary,
  type PathwayVersionView,
  type PathwayView,
  RolePathwayParams,
  RolePathwaysBody,
  type RolePathwayView,
  SignOffAllocationBody,
  SignOffStepBody,
  UpdatePathwayBody,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import {
  allocatePeople,
  getAllocation,
  listAllocations,
  myAllocations,
  signOffAllocation,
  signOffStep,
  withdrawAllocation,
} from '../pathways/allocation-service';
import { createPathway, getPathway, listPathways, updatePathway } from '../pathways/pathway-service';
import { allocateToRole } from '../pathways/role-service';
import { EntityRefRef, NamedRef } from './auth';
import { PersonObject } from './bookings-sessions';
import { builder } from './builder';
import { defined, nullless, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * Pathways (issue 17; contracts pathways.ts; spec 2 §7 "upserting ... pathways") over GraphQL: queries `pathways`,
 * `pathway`, `myPathways`, `pathwayAllocations`, `pathwayAllocation`; mutations `upsertPathway` (create without
 * id, PATCH semantics with one), `allocatePathway`, `withdrawPathwayAllocation`, `signOffPathwayStep`,
 * `signOffPathwayAllocation`, `allocatePathwayToRole`. Every resolver parses its input with the REST route's schema
 * and calls the same service (pathways/*-service.ts): no rule lives here.
 */

const TitledRef = builder.objectRef<{ id: number; title: string }>('PathwayTitledRef').implement({
  description: 'A course, document or pathway by id and title.',
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }),
});

const stepFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, PathwayStepView>,
) => ({
  key: t.exposeString('key'),
  position: t.exposeInt('position'),
  type: t.exposeString('type', { description: PATHWAY_STEP_TYPES.join(', ') }),
  course: t.field({ type: TitledRef, nullable: true, resolve: (s: PathwayStepView) => s.course }),
  document: t.field({ type: TitledRef, nullable: true, resolve: (s: PathwayStepView) => s.document }),
  title: t.exposeString('title'),
  description: t.exposeString('description', { nullable: true }),
  due_days: t.exposeInt('due_days', { nullable: true }),
  due_from: t.exposeString('due_from', { description: 'allocation or start_date.' }),
});

const PathwayStepObject = builder.objectRef<PathwayStepView>('PathwayStep').implement({
  description: 'A step of a pathway version: a course, a document to read, or a sign-off.',
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the step's shape.
  fields: (t) => stepFields(t as any),
});

const VersionChangeObject = builder
  .objectRef<PathwayVersionView['changes'][number]>('PathwayVersionChange')
  .implement({
    fields: (t) => ({
      step_key: t.exposeString('step_key'),
      change: t.exposeString('change', { description: 'added, changed or removed.' }),
      choice: t.exposeString('choice', { description: PATHWAY_VERSION_CHOICES.join(', ') }),
    }),
  });

const PathwayVersionObject = builder.objectRef<PathwayVersionView>('PathwayVersion').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    change_note: t.exposeString('change_note', { nullable: true }),
    changes: t.field({ type: [VersionChangeObject], resolve: (v) => v.changes }),
    created_by: t.field({ type: PersonObject, nullable: true, resolve: (v) => v.created_by }),
    created_at: t.exposeString('created_at'),
    in_progress: t.exposeInt('in_progress'),
  }),
});

const CountsObject = builder.objectRef<PathwaySummary['counts']>('PathwayCounts').implement({
  fields: (t) => ({
    in_progress: t.exposeInt('in_progress'),
    awaiting_sign_off: t.exposeInt('awaiting_sign_off'),
    completed: t.exposeInt('completed'),
  }),
});

const RoleAllocationObject = builder.objectRef<PathwayRoleAllocationView>('PathwayRoleAllocation').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    entity: t.field({ type: EntityRefRef, resolve: (r) => r.entity }),
    role: t.field({ type: NamedRef, resolve: (r) => r.role }),
    created_at: t.exposeString('created_at'),
  }),
});

const RolePathwayObject = builder.objectRef<RolePathwayView>('RolePathway').implement({
  description: 'A pathway allocated to a job role of an organisation (present and future members).',
  fields: (t) => ({
    id: t.exposeID('id'),
    entity: t.field({ type: EntityRefRef, resolve: (r) => r.entity }),
    role: t.field({ type: NamedRef, resolve: (r) => r.role }),
    pathway: t.field({ type: TitledRef, resolve: (r) => r.pathway }),
    allocations: t.exposeInt('allocations'),
    created_at: t.exposeString('created_at'),
  }),
});

const PathwayCanObject = builder.objectRef<PathwayView['can']>('PathwayCan').implement({
  description: 'What the caller may do here (the server checks again).',
  fields: (t) => ({
    edit: t.exposeBoolean('edit'),
    allocate: t.exposeBoolean('allocate'),
    sign_off: t.exposeBoolean('sign_off'),
  }),
});

const summaryFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, PathwaySummary>,
) => ({
  id: t.exposeID('id'),
  uuid: t.exposeString('uuid'),
  title: t.exposeString('title'),
  description: t.exposeString('description', { nullable: true }),
  entity: t.field({ type: EntityRefRef, resolve: (p: PathwaySummary) => p.entity }),
  course_id: t.exposeInt('course_id', { description: 'The backing course (matrix column, pathway result).' }),
  sequential: t.exposeBoolean('sequential'),
  requires_final_sign_off: t.exposeBoolean('requires_final_sign_off'),
  version: t.exposeInt('version'),
  step_count: t.exposeInt('step_count'),
  counts: t.field({ type: CountsObject, resolve: (p: PathwaySummary) => p.counts }),
  updated_at: t.exposeString('updated_at'),
});

const PathwaySummaryObject = builder.objectRef<PathwaySummary>('PathwaySummary').implement({
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
  fields: (t) => summaryFields(t as any),
});

const PathwayObject = builder.objectRef<PathwayView>('Pathway').implement({
  description: 'A pathway with its current steps, version history and role allocations.',
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
    ...summaryFields(t as any),
    steps: t.field({ type: [PathwayStepObject], resolve: (p) => p.steps }),
    versions: t.field({ type: [PathwayVersionObject], resolve: (p) => p.versions }),
    role_allocations: t.field({ type: [RoleAllocationObject], resolve: (p) => p.role_allocations }),
    can: t.field({ type: PathwayCanObject, resolve: (p) => p.can }),
  }),
});

const StepSignOffObject = builder
  .objectRef<NonNullable<AllocationStepView['sign_off']>>('PathwayStepSignOff')
  .implement({
    fields: (t) => ({
      signed_by: t.field({ type: PersonObject, nullable: true, resolve: (s) => s.signed_by }),
      signed_on: t.exposeString('signed_on'),
      note: t.exposeString('note'),
    }),
  });

const AllocationStepObject = builder.objectRef<AllocationStepView>('PathwayAllocationStep').implement({
  description: "A step with the person's status: locked, to_do, overdue or done.",
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the step's shape.
    ...stepFields(t as any),
    status: t.exposeString('status'),
    due_on: t.exposeString('due_on', { nullable: true }),
    done_at: t.exposeString('done_at', { nullable: true }),
    sign_off: t.field({ type: StepSignOffObject, nullable: true, resolve: (s) => s.sign_off }),
    href: t.exposeString('href', { nullable: true }),
  }),
});

const ViaRoleObject = builder
  .objectRef<NonNullable<AllocationSummary['via_role']>>('PathwayAllocationViaRole')
  .implement({
    fields: (t) => ({
      entity: t.field({ type: EntityRefRef, resolve: (v) => v.entity }),
      role: t.field({ type: NamedRef, resolve: (v) => v.role }),
    }),
  });

const allocationFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, AllocationSummary>,
) => ({
  uuid: t.exposeString('uuid'),
  pathway: t.field({ type: TitledRef, resolve: (a: AllocationSummary) => a.pathway }),
  user: t.field({ type: PersonObject, resolve: (a: AllocationSummary) => a.user }),
  version: t.exposeInt('version'),
  current_version: t.exposeInt('current_version'),
  status: t.exposeString('status', { description: PATHWAY_ALLOCATION_STATUSES.join(', ') }),
  via_role: t.field({ type: ViaRoleObject, nullable: true, resolve: (a: AllocationSummary) => a.via_role }),
  steps_done: t.exposeInt('steps_done'),
  steps_total: t.exposeInt('steps_total'),
  allocated_at: t.exposeString('allocated_at'),
  completed_at: t.exposeString('completed_at', { nullable: true }),
  next_due_on: t.exposeString('next_due_on', { nullable: true }),
});

const AllocationSummaryObject = builder.objectRef<AllocationSummary>('PathwayAllocationSummary').implement({
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
  fields: (t) => allocationFields(t as any),
});

const SignedOffObject = builder
  .objectRef<NonNullable<AllocationView['signed_off']>>('PathwayAllocationSignedOff')
  .implement({
    fields: (t) => ({
      by: t.field({ type: PersonObject, nullable: true, resolve: (s) => s.by }),
      at: t.exposeString('at'),
      note: t.exposeString('note', { nullable: true }),
    }),
  });

const AllocationCanObject = builder.objectRef<AllocationView['can']>('PathwayAllocationCan').implement({
  fields: (t) => ({ sign_off: t.exposeBoolean('sign_off'), withdraw: t.exposeBoolean('withdraw') }),
});

const AllocationObject = builder.objectRef<AllocationView>('PathwayAllocation').implement({
  description: "One person's allocation of a pathway, with each step's status.",
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the summary's shape.
    ...allocationFields(t as any),
    sequential: t.exposeBoolean('sequential'),
    requires_final_sign_off: t.exposeBoolean('requires_final_sign_off'),
    steps: t.field({ type: [AllocationStepObject], resolve: (a) => a.steps }),
    signed_off: t.field({ type: SignedOffObject, nullable: true, resolve: (a) => a.signed_off }),
    result_id: t.exposeInt('result_id', { nullable: true }),
    can: t.field({ type: AllocationCanObject, resolve: (a) => a.can }),
  }),
});

const PathwayPaginator = paginatorOf(PathwaySummaryObject, 'Pathway');
const AllocationPaginator = paginatorOf(AllocationSummaryObject, 'PathwayAllocation');

const idOf = (id: string | number) => parseInput(IdParams, { id }).id;
const uuidOf = (uuid: string) => parseInput(AllocationParams, { uuid }).uuid;

builder.queryField('pathways', (t) =>
  t.field({
    type: PathwayPaginator,
    description: 'GET /api/pathways: pathways of organisations in scope, by title.',
    args: { ...pageArgs(t.arg), search: t.arg.string(), entity: t.arg.string() },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return pageOf(PathwayListQuery, args, (q) => listPathways(ctx, q));
    },
  }),
);

builder.queryField('pathway', (t) =>
  t.field({
    type: PathwayObject,
    description: 'GET /api/pathways/{id}.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => {
      actorOf(ctx);
      return getPathway(ctx, idOf(id));
    },
  }),
);

builder.queryField('myPathways', (t) =>
  t.field({
    type: [AllocationObject],
    description: "GET /api/pathways/mine: the caller's live allocations (and completed ones when asked).",
    args: { include_completed: t.arg.boolean() },
    resolve: (_root, args, ctx) => myAllocations(ctx, args.include_completed ?? false),
  }),
);

builder.queryField('pathwayAllocations', (t) =>
  t.field({
    type: AllocationPaginator,
    description: "GET /api/pathways/{id}/allocations: a pathway's allocations of people in scope.",
    args: {
      ...pageArgs(t.arg),
      pathwayId: t.arg.id({ required: true }),
      status: t.arg.string({ description: PATHWAY_ALLOCATION_STATUSES.join(', ') }),
      search: t.arg.string(),
    },
    resolve: (_root, { pathwayId, ...args }, ctx) => {
      actorOf(ctx);
      const id = idOf(pathwayId);
      return pageOf(AllocationListQuery, args, (q) => listAllocations(ctx, id, q));
    },
  }),
);

builder.queryField('pathwayAllocation', (t) =>
  t.field({
    type: AllocationObject,
    description: 'GET /api/pathway-allocations/{uuid}.',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, ctx) => {
      actorOf(ctx);
      return getAllocation(ctx, uuidOf(uuid));
    },
  }),
);

const StepInput = builder.inputType('PathwayStepInput', {
  fields: (t) => ({
    key: t.string({ description: 'The step this edits (absent or new: a new step).' }),
    type: t.string({ required: true, description: PATHWAY_STEP_TYPES.join(', ') }),
    course_id: t.int(),
    document_id: t.int(),
    title: t.string(),
    description: t.string(),
    due_days: t.int(),
    due_from: t.string({ description: 'allocation (default) or start_date.' }),
  }),
});

const ChoiceInput = builder.inputType('PathwayChangeChoiceInput', {
  fields: (t) => ({
    step_key: t.string({ required: true }),
    choice: t.string({ required: true, description: PATHWAY_VERSION_CHOICES.join(', ') }),
  }),
});

const PathwayInput = builder.inputType('PathwayInput', {
  description:
    'Without id: POST /api/pathways. With id: PATCH /api/pathways/{id} (only the fields sent change).',
  fields: (t) => ({
    id: t.id(),
    entity: t.string({ description: "Create only: the owning organisation's slug." }),
    title: t.string(),
    description: t.string(),
    sequential: t.boolean(),
    requires_final_sign_off: t.boolean(),
    steps: t.field({ type: [StepInput] }),
    change_note: t.string(),
    choices: t.field({ type: [ChoiceInput] }),
  }),
});

/** A step as GraphQL sends it, nulls of absent optional fields dropped (zod reads "absent", as REST does). */
const stepsOf = (steps: readonly Record<string, unknown>[] | null | undefined) =>
  steps ? steps.map((s) => nullless(s)) : steps;

builder.mutationField('upsertPathway', (t) =>
  t.field({
    type: PathwayObject,
    description:
      'spec 2 §7 "upserting ... pathways": POST /api/pathways (27 or 28) or PATCH /api/pathways/{id}.',
    args: { input: t.arg({ type: PathwayInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx);
      const { id, entity, steps, ...fields } = input;
      const sent = defined({ ...fields, steps: stepsOf(steps) });
      if (id === null || id === undefined)
        return createPathway(ctx, parseInput(CreatePathwayBody, { ...sent, entity: entity ?? undefined }));
      return updatePathway(ctx, idOf(id), parseInput(UpdatePathwayBody, sent));
    },
  }),
);

builder.mutationField('allocatePathway', (t) =>
  t.field({
    type: [AllocationObject],
    description: 'POST /api/pathways/{id}/allocations (43): allocate to people in scope.',
    args: { pathwayId: t.arg.id({ required: true }), user_ids: t.arg.intList({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const id = idOf(args.pathwayId);
      return allocatePeople(ctx, id, parseInput(AllocatePathwayBody, { user_ids: args.user_ids }).user_ids);
    },
  }),
);

builder.mutationField('withdrawPathwayAllocation', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/pathway-allocations/{uuid} (43).',
    args: { uuid: t.arg.string({ required: true }) },
    resolve: async (_root, { uuid }, ctx) => {
      actorOf(ctx);
      await withdrawAllocation(ctx, uuidOf(uuid));
      return true;
    },
  }),
);

builder.mutationField('signOffPathwayStep', (t) =>
  t.field({
    type: AllocationObject,
    description: 'POST /api/pathway-allocations/{uuid}/steps/{key}/sign-off (26).',
    args: {
      uuid: t.arg.string({ required: true }),
      key: t.arg.string({ required: true }),
      note: t.arg.string({ required: true }),
      signed_on: t.arg.string({ required: true, description: 'YYYY-MM-DD.' }),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const params = parseInput(AllocationStepParams, { uuid: args.uuid, key: args.key });
      const body = parseInput(SignOffStepBody, { note: args.note, signed_on: args.signed_on });
      return signOffStep(ctx, params.uuid, params.key, body);
    },
  }),
);

builder.mutationField('signOffPathwayAllocation', (t) =>
  t.field({
    type: AllocationObject,
    description: 'POST /api/pathway-allocations/{uuid}/sign-off (26): the final sign-off.',
    args: { uuid: t.arg.string({ required: true }), note: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return signOffAllocation(
        ctx,
        uuidOf(args.uuid),
        parseInput(SignOffAllocationBody, { note: args.note }),
      );
    },
  }),
);

builder.mutationField('allocatePathwayToRole', (t) =>
  t.field({
    type: [RolePathwayObject],
    description: 'POST /api/entities/{slug}/roles/{role}/pathways (43): its members now and in future.',
    args: {
      slug: t.arg.string({ required: true }),
      roleId: t.arg.id({ required: true }),
      pathwayId: t.arg.id({ required: true }),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const params = parseInput(RolePathwayParams, { slug: args.slug, role: args.roleId });
      const body = parseInput(RolePathwaysBody, { pathway_id: Number(args.pathwayId) });
      return allocateToRole(ctx, params.slug, params.role, body.pathway_id);
    },
  }),
);

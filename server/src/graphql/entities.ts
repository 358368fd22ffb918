import {
  CreateEntityBody,
  type EntityCourseSummary,
  type EntityDto,
  EntityListQuery,
  EntityRefParams,
  type EntitySummary,
  type TrainingCompanyRequest,
  TrainingCompanyRequestsQuery,
  UpdateEntityBody,
} from '@cc/contracts';
import { createEntity, getEntity, listEntities, updateEntity } from '../entities/service';
import {
  decideTrainingCompanyListing,
  requestTrainingCompanyListing,
  trainingCompanyRequests,
} from '../entities/training-company';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { defined, parseInput } from './input';
import { pageArgs, paginatorOf, restPage, toPaginator } from './paging';

const EntitySummaryRef = builder.objectRef<EntitySummary>('EntitySummary').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    level: t.exposeString('level'),
    parent_id: t.exposeInt('parent_id', { nullable: true }),
    is_training_company: t.exposeBoolean('is_training_company'),
  }),
});

const EntityCourseRef = builder.objectRef<EntityCourseSummary>('EntityCourse').implement({
  description: 'A course available at an entity (GET /api/entity-courses).',
  fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }),
});

export const EntityRef = builder.objectRef<EntityDto>('Entity').implement({
  description: 'An organisation (level A) or site (level B): the same shape as GET /api/entities/{id}.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    slug: t.exposeString('slug'),
    name: t.exposeString('name'),
    level: t.exposeString('level'),
    parent_id: t.exposeInt('parent_id', { nullable: true }),
    parent: t.field({ type: EntityRefRef, nullable: true, resolve: (e) => e.parent }),
    is_training_company: t.exposeBoolean('is_training_company'),
    subdomain: t.exposeString('subdomain', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    code: t.exposeString('code', { nullable: true }),
    telephone: t.exposeString('telephone', { nullable: true }),
    website: t.exposeString('website', { nullable: true }),
    notes: t.string({
      nullable: true,
      description: 'Only for holders of permission 120 (entity notes view).',
      resolve: (e) => e.notes ?? null,
    }),
    address: t.exposeString('address', { nullable: true }),
    events_reminder: t.exposeBoolean('events_reminder'),
    allow_ms_sign_in: t.exposeBoolean('allow_ms_sign_in'),
    allow_google_sign_in: t.exposeBoolean('allow_google_sign_in'),
    notify_all_standards_selected: t.exposeBoolean('notify_all_standards_selected'),
    require_training_record_evidence: t.exposeBoolean('require_training_record_evidence'),
    expiry_warning: t.exposeInt('expiry_warning'),
    starter_period: t.exposeInt('starter_period'),
    new_requirement_days: t.exposeInt('new_requirement_days', {
      description:
        'Days to complete new requirements (issue 33 §4): the default grace period of a course or document newly required of a job role; 0: due at once.',
    }),
    has_restricted_access_password: t.exposeBoolean('has_restricted_access_password'),
    restricted_access_at: t.exposeString('restricted_access_at', { nullable: true }),
    restricted_access_message: t.exposeString('restricted_access_message', { nullable: true }),
    password_expire_period_in_months: t.exposeInt('password_expire_period_in_months', { nullable: true }),
    password_requirements: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.password_requirements }),
    compromised_passwords: t.exposeString('compromised_passwords'),
    always_show_popup_on_login: t.exposeBoolean('always_show_popup_on_login'),
    popup_link: t.exposeString('popup_link', { nullable: true }),
    login_popup_alt_name: t.exposeString('login_popup_alt_name', { nullable: true }),
    quiet_hours_start: t.exposeString('quiet_hours_start', { nullable: true }),
    quiet_hours_end: t.exposeString('quiet_hours_end', { nullable: true }),
    focused_courses: t.exposeIntList('focused_courses'),
    can_view_internal_bookings: t.exposeBoolean('can_view_internal_bookings'),
    can_view_external_bookings: t.exposeBoolean('can_view_external_bookings'),
    can_manage_bookings: t.exposeBoolean('can_manage_bookings'),
    can_see_new_dashboards: t.exposeBoolean('can_see_new_dashboards'),
    training_company_status: t.exposeString('training_company_status', {
      nullable: true,
      description:
        'pending, approved or refused (issue 29 §7): only an approved training company lists its sessions to others; null when not a training company.',
    }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
    courses: t.field({
      type: [EntityCourseRef],
      description: 'The courses available at the entity (spec 1 §3).',
      resolve: (e) => e.courses,
    }),
    score: t.int({
      nullable: true,
      description:
        'Mandatory compliance score of the entity and its descendants, 0-100 (spec 1 §3); null without permission 12, 13 or 40.',
      resolve: (e) => e.score ?? null,
    }),
    children: t.field({
      type: [EntitySummaryRef],
      nullable: true,
      description: 'Direct children (on the list and the single entity, spec 1 §3).',
      resolve: (e) => e.children ?? null,
    }),
    whitelabel: t.field({
      type: 'JSON',
      nullable: true,
      description: 'Effective white-label settings: on the single-entity query only.',
      resolve: (e) => e.whitelabel ?? null,
    }),
  }),
});

const EntityPaginator = paginatorOf(EntityRef, 'Entity');

builder.queryFields((t) => ({
  entities: t.field({
    type: EntityPaginator,
    description:
      'GET /api/entities: the entities the caller may see (permission 22); deep for the whole subtree.',
    args: {
      ...pageArgs(t.arg),
      search: t.arg.string(),
      deep: t.arg.boolean(),
      level: t.arg.string(),
      is_training_company: t.arg.boolean(),
      parent_id: t.arg.int(),
    },
    resolve: async (_root, { first, page, ...filters }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const query = parseInput(EntityListQuery, defined({ ...restPage({ first, page }), ...filters }));
      const result = await listEntities(ctx, query);
      return toPaginator(result.data, result.meta.total, query.page, query.per_page);
    },
  }),
  entity: t.field({
    type: EntityRef,
    description: 'One entity by id or slug (NOT_FOUND outside the caller’s organisation).',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      return getEntity(ctx, parseInput(EntityRefParams, { id: String(args.id) }).id);
    },
  }),
}));

const EntityInput = builder.inputType('EntityInput', {
  description: 'Without id: create (POST /api/entities). With id (or slug): update the given fields.',
  fields: (t) => ({
    id: t.id(),
    name: t.string(),
    slug: t.string(),
    level: t.string({ description: 'A or B; on create only.' }),
    parent_id: t.int(),
    email: t.string(),
    code: t.string(),
    telephone: t.string(),
    website: t.string(),
    notes: t.string(),
    address: t.string(),
    subdomain: t.string(),
    events_reminder: t.boolean(),
    allow_ms_sign_in: t.boolean(),
    allow_google_sign_in: t.boolean(),
    notify_all_standards_selected: t.boolean(),
    require_training_record_evidence: t.boolean(),
    is_training_company: t.boolean(),
    expiry_warning: t.int(),
    starter_period: t.int(),
    new_requirement_days: t.int({ description: 'Days to complete new requirements, 0 to 365.' }),
    restricted_access_password: t.string(),
    restricted_access_at: t.string(),
    restricted_access_message: t.string(),
    password_expire_period_in_months: t.int(),
    password_requirements: t.field({ type: 'JSON' }),
    compromised_passwords: t.string(),
    always_show_popup_on_login: t.boolean(),
    popup_link: t.string(),
    login_popup_alt_name: t.string(),
    quiet_hours_start: t.string({
      description: 'HH:MM, UK time; e-mail notifications wait until quiet hours end.',
    }),
    quiet_hours_end: t.string(),
    focused_courses: t.intList(),
    can_view_internal_bookings: t.boolean(),
    can_view_external_bookings: t.boolean(),
    can_manage_bookings: t.boolean(),
    can_see_new_dashboards: t.boolean(),
  }),
});

builder.mutationField('upsertEntity', (t) =>
  t.field({
    type: EntityRef,
    description: 'Creates an entity (no id) or updates one: the same rules as POST and PATCH /api/entities.',
    args: { input: t.arg({ type: EntityInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const { id, ...fields } = defined(input as Record<string, unknown>);
      if (id === undefined || id === null) return createEntity(ctx, parseInput(CreateEntityBody, fields));
      const ref = parseInput(EntityRefParams, { id: String(id) }).id;
      return updateEntity(ctx, ref, parseInput(UpdateEntityBody, fields));
    },
  }),
);

// --- Training company approval (issue 29 §7): the REST services of entities/training-company.ts -------------------

const TrainingCompanyDeciderRef = builder
  .objectRef<{ id: number; name: string }>('TrainingCompanyDecider')
  .implement({ fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }) });

const TrainingCompanyRequestRef = builder
  .objectRef<TrainingCompanyRequest>('TrainingCompanyRequest')
  .implement({
    description:
      'An organisation that asked to be listed as a training company (GET /api/training-company-requests).',
    fields: (t) => ({
      id: t.exposeID('id'),
      slug: t.exposeString('slug'),
      name: t.exposeString('name'),
      level: t.exposeString('level'),
      parent: t.field({ type: EntityRefRef, nullable: true, resolve: (r) => r.parent }),
      website: t.exposeString('website', { nullable: true }),
      status: t.exposeString('status'),
      requested_at: t.exposeString('requested_at', { nullable: true }),
      decided_at: t.exposeString('decided_at', { nullable: true }),
      decided_by: t.field({ type: TrainingCompanyDeciderRef, nullable: true, resolve: (r) => r.decided_by }),
    }),
  });

const TrainingCompanyRequestPaginator = paginatorOf(TrainingCompanyRequestRef, 'TrainingCompanyRequest');

builder.queryField('trainingCompanyRequests', (t) =>
  t.field({
    type: TrainingCompanyRequestPaginator,
    description: 'GET /api/training-company-requests: super admins only (FORBIDDEN otherwise).',
    args: { ...pageArgs(t.arg), search: t.arg.string(), status: t.arg.string() },
    resolve: async (_root, { first, page, ...filters }, ctx) => {
      actorOf(ctx); // as the REST route: 401 before 422
      const query = parseInput(
        TrainingCompanyRequestsQuery,
        defined({ ...restPage({ first, page }), ...filters }),
      );
      const result = await trainingCompanyRequests(ctx, query);
      return toPaginator(result.data, result.total, query.page, query.per_page);
    },
  }),
);

builder.mutationFields((t) => ({
  requestTrainingCompany: t.field({
    type: EntityRef,
    description: 'POST /api/entities/{id}/training-company/request: the organisation asks to be listed.',
    args: { entity: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return requestTrainingCompanyListing(ctx, parseInput(EntityRefParams, { id: String(args.entity) }).id);
    },
  }),
  approveTrainingCompany: t.field({
    type: TrainingCompanyRequestRef,
    description: 'POST /api/entities/{id}/training-company/approve: super admins only.',
    args: { entity: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const ref = parseInput(EntityRefParams, { id: String(args.entity) }).id;
      return decideTrainingCompanyListing(ctx, ref, 'approved');
    },
  }),
  refuseTrainingCompany: t.field({
    type: TrainingCompanyRequestRef,
    description: 'POST /api/entities/{id}/training-company/refuse: super admins only.',
    args: { entity: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      const ref = parseInput(EntityRefParams, { id: String(args.entity) }).id;
      return decideTrainingCompanyListing(ctx, ref, 'refused');
    },
  }),
}));

import {
  SlugParams,
  STARTER_ACTIONS,
  type StarterCourse,
  type StarterMatrixApplied,
  type StarterMatrixPreview,
  type StarterRole,
  type StarterRule,
} from '@cc/contracts';
import { actorOf } from '../http/context';
import { applyStarterMatrix, previewStarterMatrix } from '../starter-matrix/service';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { parseInput } from './input';

/**
 * The starter training matrix (issue 37 §2; contracts starter-matrix.ts): query `starterMatrix` (the preview) and
 * mutation `applyStarterMatrix`. Both call the REST routes' service with the same checks: no rule lives here.
 */

const actions = STARTER_ACTIONS.join(' or ');

const ExistingCourseObject = builder
  .objectRef<NonNullable<StarterCourse['existing']>>('StarterMatrixExistingCourse')
  .implement({ fields: (t) => ({ id: t.exposeID('id'), title: t.exposeString('title') }) });
const ExistingRoleObject = builder
  .objectRef<NonNullable<StarterRole['existing']>>('StarterMatrixExistingRole')
  .implement({ fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }) });
const ExistingRuleObject = builder
  .objectRef<NonNullable<StarterRule['existing']>>('StarterMatrixExistingRule')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      type: t.exposeString('type'),
      refresh_months: t.exposeInt('refresh_months', { nullable: true }),
    }),
  });

const CourseObject = builder.objectRef<StarterCourse>('StarterMatrixCourse').implement({
  description:
    'A course of the starter training matrix, and the organisation’s course it keeps when it has one.',
  fields: (t) => ({
    key: t.exposeString('key'),
    title: t.exposeString('title'),
    action: t.exposeString('action', { description: actions }),
    existing: t.field({ type: ExistingCourseObject, nullable: true, resolve: (c) => c.existing }),
    refresh_months: t.exposeInt('refresh_months', {
      nullable: true,
      description: 'Null: the guidance gives no period; the organisation decides.',
    }),
    refresh_basis: t.exposeString('refresh_basis'),
    care_certificate_standard: t.exposeString('care_certificate_standard', { nullable: true }),
  }),
});

const RoleObject = builder.objectRef<StarterRole>('StarterMatrixRole').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    action: t.exposeString('action', { description: actions }),
    existing: t.field({ type: ExistingRoleObject, nullable: true, resolve: (r) => r.existing }),
  }),
});

const RuleObject = builder.objectRef<StarterRule>('StarterMatrixRule').implement({
  fields: (t) => ({
    role_key: t.exposeString('role_key'),
    course_key: t.exposeString('course_key'),
    type: t.exposeString('type', { description: 'primary (Mandatory) or secondary (Required).' }),
    refresh_months: t.exposeInt('refresh_months', { nullable: true }),
    action: t.exposeString('action', { description: actions }),
    existing: t.field({ type: ExistingRuleObject, nullable: true, resolve: (r) => r.existing }),
  }),
});

const CountsObject = builder.objectRef<StarterMatrixPreview['to_create']>('StarterMatrixCounts').implement({
  fields: (t) => ({
    courses: t.exposeInt('courses'),
    roles: t.exposeInt('roles'),
    rules: t.exposeInt('rules'),
  }),
});

const previewFields = (
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<object>, StarterMatrixPreview>,
) => ({
  entity: t.field({ type: EntityRefRef, resolve: (p: StarterMatrixPreview) => p.entity }),
  courses: t.field({ type: [CourseObject], resolve: (p: StarterMatrixPreview) => p.courses }),
  roles: t.field({ type: [RoleObject], resolve: (p: StarterMatrixPreview) => p.roles }),
  rules: t.field({ type: [RuleObject], resolve: (p: StarterMatrixPreview) => p.rules }),
  to_create: t.field({ type: CountsObject, resolve: (p: StarterMatrixPreview) => p.to_create }),
  fresh: t.exposeBoolean('fresh', {
    description: 'The organisation has no course rules on any job role yet.',
  }),
});

const PreviewObject = builder.objectRef<StarterMatrixPreview>('StarterMatrixPreview').implement({
  description: 'GET /api/entities/{slug}/starter-matrix: what applying the starter training matrix would do.',
  // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the preview's shape.
  fields: (t) => previewFields(t as any),
});

const AppliedObject = builder.objectRef<StarterMatrixApplied>('StarterMatrixApplied').implement({
  description: 'The starter training matrix after applying it, with what was added.',
  fields: (t) => ({
    // biome-ignore lint/suspicious/noExplicitAny: the shared field list is typed by the preview's shape.
    ...previewFields(t as any),
    created: t.field({ type: CountsObject, resolve: (a) => a.created }),
  }),
});

const slugOf = (entity: string) => parseInput(SlugParams, { slug: entity }).slug;

builder.queryField('starterMatrix', (t) =>
  t.field({
    type: PreviewObject,
    description:
      'GET /api/entities/{slug}/starter-matrix (63, 27, 33, 68): the preview for a level A organisation.',
    args: { entity: t.arg.string({ required: true, description: 'The organisation’s slug.' }) },
    resolve: (_root, { entity }, ctx) => {
      actorOf(ctx);
      return previewStarterMatrix(ctx, slugOf(entity));
    },
  }),
);

builder.mutationField('applyStarterMatrix', (t) =>
  t.field({
    type: AppliedObject,
    description:
      'POST /api/entities/{slug}/starter-matrix: adds the missing courses, job roles and course rules; keeps the rest.',
    args: { entity: t.arg.string({ required: true, description: 'The organisation’s slug.' }) },
    resolve: (_root, { entity }, ctx) => {
      actorOf(ctx);
      return applyStarterMatrix(ctx, slugOf(entity));
    },
  }),
);

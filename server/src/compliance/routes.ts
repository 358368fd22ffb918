import {
  ComplianceBody,
  ComplianceIdParams,
  ComplianceMessages,
  EntityRoleParams,
  EntityRoleQuery,
  RoleCourseParams,
  RoleCourseQuery,
  ScoreParams,
  ScoreQuery,
  UpdateComplianceBody,
  UserComplianceBody,
  UserComplianceQuery,
  UserCourseParams,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { entityScore } from './scores';
import {
  complianceCourseOptions,
  complianceForRoleCourse,
  complianceOfRole,
  createCompliance,
  deleteCompliance,
  getCompliance,
  updateCompliance,
} from './service';
import { listUserComplianceCourses, setUserCourseExemption } from './user-courses';

const UserRefParams = z.object({ id: z.string().min(1).max(64) });

/**
 * spec 2 §7 "Compliance", spec 1 §7 score, and the user compliance courses (43). HTTP only: rules, permissions and
 * scope live in service.ts, scores.ts and user-courses.ts.
 */
export async function complianceRoutes(app: App) {
  const tags = ['compliance'];
  app.post('/compliance', { schema: { tags, body: ComplianceBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createCompliance(r.ctx, r.body), ComplianceMessages.created)),
  );
  // Static segments first: Fastify prefers /compliance/role/... over /compliance/:entity/role/....
  app.get(
    '/compliance/role/:roleId/course/:courseId',
    { schema: { tags, params: RoleCourseParams, querystring: RoleCourseQuery } },
    async (r) => ok(await complianceForRoleCourse(r.ctx, r.params.roleId, r.params.courseId, r.query.entity)),
  );
  app.get(
    '/compliance/:entity/role/:roleId',
    { schema: { tags, params: EntityRoleParams, querystring: EntityRoleQuery } },
    async (r) => {
      const { data, total } = await complianceOfRole(r.ctx, r.params.entity, r.params.roleId, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/compliance/:entity/courses',
    { schema: { tags, params: EntityRoleParams.pick({ entity: true }), querystring: EntityRoleQuery } },
    async (r) => {
      const { data, total } = await complianceCourseOptions(r.ctx, r.params.entity, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get('/compliance/:id', { schema: { tags, params: ComplianceIdParams } }, async (r) =>
    ok(await getCompliance(r.ctx, r.params.id)),
  );
  app.patch(
    '/compliance/:id',
    { schema: { tags, params: ComplianceIdParams, body: UpdateComplianceBody } },
    async (r, reply) => {
      const { row, created } = await updateCompliance(r.ctx, r.params.id, r.body);
      return reply.status(created ? 201 : 200).send(ok(row, ComplianceMessages.updated));
    },
  );
  app.delete('/compliance/:id', { schema: { tags, params: ComplianceIdParams } }, async (r) => {
    await deleteCompliance(r.ctx, r.params.id);
    return done(ComplianceMessages.deleted);
  });

  app.get(
    '/users/:id/compliance-courses',
    { schema: { tags, params: UserRefParams, querystring: UserComplianceQuery } },
    async (r) => {
      const { data, total } = await listUserComplianceCourses(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.patch(
    '/users/:id/compliance-courses/:courseId',
    { schema: { tags, params: UserCourseParams, body: UserComplianceBody } },
    async (r) => {
      const row = await setUserCourseExemption(r.ctx, r.params.id, r.params.courseId, r.body);
      const message =
        r.body.exempt === undefined
          ? ComplianceMessages.exemptionUpdated
          : row.exempt
            ? ComplianceMessages.exemptionAdded
            : ComplianceMessages.exemptionRemoved;
      return ok(row, message);
    },
  );

  // spec 1 §4: 202 means poll again (every 5 s), 200 carries the score.
  app.get(
    '/entities/:id/score/:x',
    { schema: { tags, params: ScoreParams, querystring: ScoreQuery } },
    async (r, reply) => {
      const result = await entityScore(r.ctx, r.params.id, r.params.x, r.query);
      if (result.status === 'computing')
        return reply.status(202).send(done(ComplianceMessages.scoreComputing));
      return ok(result.value);
    },
  );
}

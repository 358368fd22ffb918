import {
  AllocatePathwayBody,
  AllocationListQuery,
  AllocationParams,
  AllocationStepParams,
  CreatePathwayBody,
  IdParams,
  PathwayMessages as M,
  MyPathwaysQuery,
  PathwayChangesBody,
  PathwayListQuery,
  PathwayVersionParams,
  RolePathwayIdParams,
  RolePathwayParams,
  RolePathwaysBody,
  SignOffAllocationBody,
  SignOffStepBody,
  UpdatePathwayBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  allocatePeople,
  getAllocation,
  listAllocations,
  myAllocations,
  signOffAllocation,
  signOffStep,
  withdrawAllocation,
} from './allocation-service';
import {
  createPathway,
  deletePathway,
  getPathway,
  getPathwayVersion,
  listPathways,
  previewChanges,
  updatePathway,
  versionNumber,
} from './pathway-service';
import { allocateToRole, removeFromRole, rolePathways } from './role-service';

/** Pathways (issue 17; contracts pathways.ts): HTTP only, the rules live in the services. */
export async function pathwayRoutes(app: App) {
  const tags = ['pathways'];
  app.get('/pathways', { schema: { tags, querystring: PathwayListQuery } }, async (r) => {
    const { data, total } = await listPathways(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/pathways', { schema: { tags, body: CreatePathwayBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createPathway(r.ctx, r.body), M.created)),
  );
  app.get('/pathways/mine', { schema: { tags, querystring: MyPathwaysQuery } }, async (r) =>
    ok(await myAllocations(r.ctx, r.query.include_completed ?? false)),
  );
  app.get('/pathways/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getPathway(r.ctx, r.params.id)),
  );
  app.patch('/pathways/:id', { schema: { tags, params: IdParams, body: UpdatePathwayBody } }, async (r) => {
    const before = r.body.steps ? await versionNumber(r.ctx, r.params.id) : null;
    const view = await updatePathway(r.ctx, r.params.id, r.body);
    return ok(view, before !== null && view.version > before ? M.newVersion : M.updated);
  });
  app.delete('/pathways/:id', { schema: { tags, params: IdParams } }, async (r) => {
    await deletePathway(r.ctx, r.params.id);
    return done(M.deleted);
  });
  app.post(
    '/pathways/:id/changes',
    { schema: { tags, params: IdParams, body: PathwayChangesBody } },
    async (r) => ok(await previewChanges(r.ctx, r.params.id, r.body)),
  );
  app.get('/pathways/:id/versions/:number', { schema: { tags, params: PathwayVersionParams } }, async (r) =>
    ok(await getPathwayVersion(r.ctx, r.params.id, r.params.number)),
  );
  app.get(
    '/pathways/:id/allocations',
    { schema: { tags, params: IdParams, querystring: AllocationListQuery } },
    async (r) => {
      const { data, total } = await listAllocations(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/pathways/:id/allocations',
    { schema: { tags, params: IdParams, body: AllocatePathwayBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await allocatePeople(r.ctx, r.params.id, r.body.user_ids), M.allocated)),
  );
  app.get('/pathway-allocations/:uuid', { schema: { tags, params: AllocationParams } }, async (r) =>
    ok(await getAllocation(r.ctx, r.params.uuid)),
  );
  app.delete('/pathway-allocations/:uuid', { schema: { tags, params: AllocationParams } }, async (r) => {
    await withdrawAllocation(r.ctx, r.params.uuid);
    return done(M.withdrawn);
  });
  app.post(
    '/pathway-allocations/:uuid/steps/:key/sign-off',
    { schema: { tags, params: AllocationStepParams, body: SignOffStepBody } },
    async (r) => ok(await signOffStep(r.ctx, r.params.uuid, r.params.key, r.body), M.stepSignedOff),
  );
  app.post(
    '/pathway-allocations/:uuid/sign-off',
    { schema: { tags, params: AllocationParams, body: SignOffAllocationBody } },
    async (r) => ok(await signOffAllocation(r.ctx, r.params.uuid, r.body), M.signedOff),
  );
  app.get(
    '/entities/:slug/roles/:role/pathways',
    { schema: { tags, params: RolePathwayParams } },
    async (r) => ok(await rolePathways(r.ctx, r.params.slug, r.params.role)),
  );
  app.post(
    '/entities/:slug/roles/:role/pathways',
    { schema: { tags, params: RolePathwayParams, body: RolePathwaysBody } },
    async (r, reply) =>
      reply
        .status(201)
        .send(
          ok(await allocateToRole(r.ctx, r.params.slug, r.params.role, r.body.pathway_id), M.roleAllocated),
        ),
  );
  app.delete(
    '/entities/:slug/roles/:role/pathways/:pathwayId',
    { schema: { tags, params: RolePathwayIdParams } },
    async (r) => {
      await removeFromRole(r.ctx, r.params.slug, r.params.role, r.params.pathwayId);
      return done(M.roleUnallocated);
    },
  );
}

import {
  CourseCriteriaBody,
  CriterionBody,
  CriterionUpdate,
  ContentIdParams as IdParams,
  CareCertificateMessages as M,
  OutcomeBody,
  OutcomeUpdate,
  StandardBody,
  StandardUpdate,
  VersionBody,
  VersionUpdate,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import { importCriteria, previewCriteriaImport, readCriteriaUpload, versionGaps } from './criteria-import';
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
} from './standards-service';

/** Versions, standards, outcomes, criteria (super admin edits) and courses' criteria (H1). Issue 16; contracts care-certificate.ts. */
export async function standardsRoutes(app: App) {
  const tags = ['care-certificate'];
  app.get('/care-certificate-versions', { schema: { tags } }, async (r) => ok(await listVersions(r.ctx)));
  app.get('/care-certificate-versions/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getVersion(r.ctx, r.params.id)),
  );
  app.get('/care-certificate-versions/:id/gaps', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await versionGaps(r.ctx, r.params.id)),
  );
  // Issue 32 §2: a super admin's import of a version's criteria (multipart, the file part `file`).
  app.post(
    '/care-certificate-versions/:id/criteria-import/preview',
    { schema: { tags, params: IdParams } },
    async (r) =>
      ok(await previewCriteriaImport(r.ctx, r.params.id, () => readCriteriaUpload(r)), M.criteriaPreviewed),
  );
  app.post(
    '/care-certificate-versions/:id/criteria-import',
    { schema: { tags, params: IdParams } },
    async (r) =>
      ok(await importCriteria(r.ctx, r.params.id, () => readCriteriaUpload(r)), M.criteriaImported),
  );
  app.post('/care-certificate-versions', { schema: { tags, body: VersionBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createVersion(r.ctx, r.body), M.standardsUpdated)),
  );
  app.patch(
    '/care-certificate-versions/:id',
    { schema: { tags, params: IdParams, body: VersionUpdate } },
    async (r) => ok(await updateVersion(r.ctx, r.params.id, r.body), M.standardsUpdated),
  );
  app.delete('/care-certificate-versions/:id', { schema: { tags, params: IdParams } }, async (r) => {
    await deleteVersion(r.ctx, r.params.id);
    return done(M.standardsUpdated);
  });
  app.post(
    '/care-certificate-versions/:id/standards',
    { schema: { tags, params: IdParams, body: StandardBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await addStandard(r.ctx, r.params.id, r.body), M.standardsUpdated)),
  );
  app.patch(
    '/care-certificate-standards/:id',
    { schema: { tags, params: IdParams, body: StandardUpdate } },
    async (r) => ok(await updateStandard(r.ctx, r.params.id, r.body), M.standardsUpdated),
  );
  app.delete('/care-certificate-standards/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await deleteStandard(r.ctx, r.params.id), M.standardsUpdated),
  );
  app.post(
    '/care-certificate-standards/:id/outcomes',
    { schema: { tags, params: IdParams, body: OutcomeBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await addOutcome(r.ctx, r.params.id, r.body), M.standardsUpdated)),
  );
  app.patch(
    '/care-certificate-outcomes/:id',
    { schema: { tags, params: IdParams, body: OutcomeUpdate } },
    async (r) => ok(await updateOutcome(r.ctx, r.params.id, r.body), M.standardsUpdated),
  );
  app.delete('/care-certificate-outcomes/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await deleteOutcome(r.ctx, r.params.id), M.standardsUpdated),
  );
  app.post(
    '/care-certificate-outcomes/:id/criteria',
    { schema: { tags, params: IdParams, body: CriterionBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await addCriterion(r.ctx, r.params.id, r.body), M.standardsUpdated)),
  );
  app.patch(
    '/care-certificate-criteria/:id',
    { schema: { tags, params: IdParams, body: CriterionUpdate } },
    async (r) => ok(await updateCriterion(r.ctx, r.params.id, r.body), M.standardsUpdated),
  );
  app.delete('/care-certificate-criteria/:id', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await deleteCriterion(r.ctx, r.params.id), M.standardsUpdated),
  );
  app.get('/courses/:id/care-certificate-criteria', { schema: { tags, params: IdParams } }, async (r) =>
    ok(await getCourseCriteria(r.ctx, r.params.id)),
  );
  app.put(
    '/courses/:id/care-certificate-criteria',
    { schema: { tags, params: IdParams, body: CourseCriteriaBody } },
    async (r) => ok(await setCourseCriteria(r.ctx, r.params.id, r.body), M.courseCriteriaSaved),
  );
}

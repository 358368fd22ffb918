import {
  CareCertificateMessages as M,
  ObservationBody,
  ObservationUpdate,
  UuidIdParams,
  UuidParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import {
  approveObservation,
  createObservation,
  deleteObservation,
  patchObservation,
} from './observation-service';

/** Observations (89/90), append-only once approved (H2). Issue 16; contracts care-certificate.ts. */
export async function observationRoutes(app: App) {
  const tags = ['care-certificate'];
  app.post(
    '/care-certificates/:uuid/observations',
    { schema: { tags, params: UuidParams, body: ObservationBody } },
    async (r, reply) =>
      reply.status(201).send(ok(await createObservation(r.ctx, r.params.uuid, r.body), M.observationSaved)),
  );
  app.patch(
    '/care-certificates/:uuid/observations/:id',
    { schema: { tags, params: UuidIdParams, body: ObservationUpdate } },
    async (r) => ok(await patchObservation(r.ctx, r.params.uuid, r.params.id, r.body), M.observationSaved),
  );
  app.delete(
    '/care-certificates/:uuid/observations/:id',
    { schema: { tags, params: UuidIdParams } },
    async (r) => {
      await deleteObservation(r.ctx, r.params.uuid, r.params.id);
      return done(M.observationDeleted);
    },
  );
  app.post(
    '/care-certificates/:uuid/observations/:id/approve',
    { schema: { tags, params: UuidIdParams } },
    async (r) => ok(await approveObservation(r.ctx, r.params.uuid, r.params.id), M.observationApproved),
  );
}

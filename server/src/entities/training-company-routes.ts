import { EntityRefParams, TrainingCompanyMessages, TrainingCompanyRequestsQuery } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import {
  decideTrainingCompanyListing,
  requestTrainingCompanyListing,
  trainingCompanyRequests,
} from './training-company';

/** Training company approval (issue 29 §7, ours). HTTP only: the rules live in training-company.ts. */
export async function trainingCompanyRoutes(app: App) {
  app.get(
    '/training-company-requests',
    { schema: { tags: ['entities'], querystring: TrainingCompanyRequestsQuery } },
    async (r) => {
      const { data, total } = await trainingCompanyRequests(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );

  app.post(
    '/entities/:id/training-company/request',
    { schema: { tags: ['entities'], params: EntityRefParams } },
    async (r) =>
      ok(await requestTrainingCompanyListing(r.ctx, r.params.id), TrainingCompanyMessages.requested),
  );

  app.post(
    '/entities/:id/training-company/approve',
    { schema: { tags: ['entities'], params: EntityRefParams } },
    async (r) =>
      ok(
        await decideTrainingCompanyListing(r.ctx, r.params.id, 'approved'),
        TrainingCompanyMessages.approved,
      ),
  );

  app.post(
    '/entities/:id/training-company/refuse',
    { schema: { tags: ['entities'], params: EntityRefParams } },
    async (r) =>
      ok(await decideTrainingCompanyListing(r.ctx, r.params.id, 'refused'), TrainingCompanyMessages.refused),
  );
}

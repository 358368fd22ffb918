import { CareCertificateMessages as M, RejectBody, UuidIdParams, UuidParams } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { approveStandard, rejectStandard, submitStandard } from './approval-service';
import { certificatePdf } from './pdf-service';

/** Selecting for approval, approving and rejecting standards, the PDF (88) (H2). Issue 16; contracts care-certificate.ts. */
export async function approvalRoutes(app: App) {
  const tags = ['care-certificate'];
  const byStandard = { schema: { tags, params: UuidIdParams } };
  app.post('/care-certificates/:uuid/standards/:id/submit', byStandard, async (r) =>
    ok(await submitStandard(r.ctx, r.params.uuid, r.params.id), M.standardSubmitted),
  );
  app.post('/care-certificates/:uuid/standards/:id/approve', byStandard, async (r) =>
    ok(await approveStandard(r.ctx, r.params.uuid, r.params.id), M.standardApproved),
  );
  app.post(
    '/care-certificates/:uuid/standards/:id/reject',
    { schema: { tags, params: UuidIdParams, body: RejectBody } },
    async (r) => ok(await rejectStandard(r.ctx, r.params.uuid, r.params.id, r.body), M.standardRejected),
  );
  app.get('/care-certificates/:uuid/pdf', { schema: { tags, params: UuidParams } }, async (r, reply) => {
    const { filename, stream } = await certificatePdf(r.ctx, r.params.uuid);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(stream);
  });
}

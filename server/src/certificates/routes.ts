import {
  CertificateBrandingBody,
  CertificateQuery,
  LearningMessages,
  SlugParams,
  UserRefParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { getCertificateBranding, trainingCertificate, updateCertificateBranding } from './service';

/** spec 1 §7 GET /users/{id}/training-certificate (PDF), and the settings behind /entities/{slug}/certificate-branding. */
export async function certificateRoutes(app: App) {
  const tags = ['certificates'];
  app.get(
    '/users/:id/training-certificate',
    { schema: { tags, params: UserRefParams, querystring: CertificateQuery } },
    async (r, reply) => {
      const { filename, stream } = await trainingCertificate(r.ctx, r.params.id, r.query);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );
  app.get('/entities/:slug/certificate-branding', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await getCertificateBranding(r.ctx, r.params.slug)),
  );
  app.patch(
    '/entities/:slug/certificate-branding',
    { schema: { tags, params: SlugParams, body: CertificateBrandingBody } },
    async (r) =>
      ok(
        await updateCertificateBranding(r.ctx, r.params.slug, r.body),
        LearningMessages.certificateBrandingUpdated,
      ),
  );
}

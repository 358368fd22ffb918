import { SlugParams, StarterMatrixMessages } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { applyStarterMatrix, previewStarterMatrix } from './service';

/**
 * The starter training matrix (issue 37 §2; ours: the spec names no call for it): GET previews, POST applies (201
 * when it added anything, 200 when there was nothing to add). HTTP only: the rules live in service.ts.
 */
export async function starterMatrixRoutes(app: App) {
  const tags = ['compliance'];
  app.get('/entities/:slug/starter-matrix', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await previewStarterMatrix(r.ctx, r.params.slug)),
  );
  app.post('/entities/:slug/starter-matrix', { schema: { tags, params: SlugParams } }, async (r, reply) => {
    const applied = await applyStarterMatrix(r.ctx, r.params.slug);
    const added = applied.created.courses + applied.created.roles + applied.created.rules;
    return reply
      .status(added > 0 ? 201 : 200)
      .send(ok(applied, StarterMatrixMessages.applied(applied.created)));
  });
}

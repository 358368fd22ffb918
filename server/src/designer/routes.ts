import {
  ContentIdParams,
  CreateDesignBody,
  DesignListQuery,
  DesignerMessages as M,
  PreviewDesignBody,
  PublishDesignBody,
  UpdateDesignBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { publishDesign } from './publish';
import { createDesign, deleteDesign, getDesign, listDesigns, previewDesign, updateDesign } from './service';

/** The content designer (issue 17; contracts designer.ts). HTTP only: rules live in service.ts and publish.ts. */
export async function designerRoutes(app: App) {
  const tags = ['designer'];
  app.get('/designs', { schema: { tags, querystring: DesignListQuery } }, async (r) => {
    const { data, total } = await listDesigns(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/designs', { schema: { tags, body: CreateDesignBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createDesign(r.ctx, r.body), M.created)),
  );
  app.post('/designs/preview', { schema: { tags, body: PreviewDesignBody } }, async (r) =>
    ok(await previewDesign(r.ctx, r.body.pages)),
  );
  app.get('/designs/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getDesign(r.ctx, r.params.id)),
  );
  app.patch(
    '/designs/:id',
    { schema: { tags, params: ContentIdParams, body: UpdateDesignBody } },
    async (r) => ok(await updateDesign(r.ctx, r.params.id, r.body), M.saved),
  );
  app.delete('/designs/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteDesign(r.ctx, r.params.id);
    return done(M.deleted);
  });
  app.post(
    '/designs/:id/publish',
    { schema: { tags, params: ContentIdParams, body: PublishDesignBody } },
    async (r) => ok(await publishDesign(r.ctx, r.params.id, r.body), M.published),
  );
}

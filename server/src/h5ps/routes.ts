import { ContentIdParams, H5pBody, Messages, OwnedListQuery, UpdateH5pBody } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { createH5p, deleteH5p, getH5p, listH5ps, updateH5p } from './service';

/** spec 2 §7 "H5P, lessons, quizzes, topics": H5P items (metadata). HTTP only. */
export async function h5pRoutes(app: App) {
  const tags = ['h5p'];
  app.get('/h5ps', { schema: { tags, querystring: OwnedListQuery } }, async (r) => {
    const { data, total } = await listH5ps(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/h5ps', { schema: { tags, body: H5pBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createH5p(r.ctx, r.body), Messages.h5pCreated)),
  );
  app.get('/h5ps/:id', { schema: { tags, params: ContentIdParams } }, async (r) =>
    ok(await getH5p(r.ctx, r.params.id)),
  );
  app.patch('/h5ps/:id', { schema: { tags, params: ContentIdParams, body: UpdateH5pBody } }, async (r) =>
    ok(await updateH5p(r.ctx, r.params.id, r.body), Messages.h5pUpdated),
  );
  app.delete('/h5ps/:id', { schema: { tags, params: ContentIdParams } }, async (r) => {
    await deleteH5p(r.ctx, r.params.id);
    return done(Messages.h5pDeleted);
  });
}

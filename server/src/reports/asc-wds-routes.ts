import {
  AscWdsCategoryBody,
  AscWdsCategoryParams,
  AscWdsMessages,
  AscWdsQuery,
  AscWdsSettingsBody,
  SlugParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import {
  ascWdsExport,
  ascWdsPreview,
  ascWdsSettings,
  saveAscWdsCategory,
  saveAscWdsSettings,
} from './asc-wds-export';

const tags = ['reports'];

/**
 * The ASC-WDS training export (issue 37 §1; asc-wds-export.ts): a home's workplace ID, the courses' categories, the
 * preview of the file and the file itself (a POST: it is recorded as the home's latest export).
 */
export async function ascWdsRoutes(app: App) {
  app.get('/entities/:slug/asc-wds', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await ascWdsSettings(r.ctx, r.params.slug)),
  );
  app.put(
    '/entities/:slug/asc-wds',
    { schema: { tags, params: SlugParams, body: AscWdsSettingsBody } },
    async (r) => ok(await saveAscWdsSettings(r.ctx, r.params.slug, r.body), AscWdsMessages.settingsSaved),
  );
  app.put(
    '/entities/:slug/asc-wds/categories/:courseId',
    { schema: { tags, params: AscWdsCategoryParams, body: AscWdsCategoryBody } },
    async (r) =>
      ok(
        await saveAscWdsCategory(r.ctx, r.params.slug, r.params.courseId, r.body),
        AscWdsMessages.categorySaved,
      ),
  );
  app.get(
    '/entities/:slug/asc-wds/training',
    { schema: { tags, params: SlugParams, querystring: AscWdsQuery } },
    async (r) => ok(await ascWdsPreview(r.ctx, r.params.slug, r.query.since)),
  );
  app.post(
    '/entities/:slug/asc-wds/exports',
    { schema: { tags, params: SlugParams, querystring: AscWdsQuery } },
    async (r, reply) => {
      const file = await ascWdsExport(r.ctx, r.params.slug, r.query.since);
      return reply
        .status(201)
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('x-row-count', String(file.rows))
        .send(file.body);
    },
  );
}

import { API_VERSION, ClientConfig, SystemSearchQuery, VersionResponse } from '@cc/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { clientConfigOf } from './error-reporting';
import { systemSearch } from './search';

export async function systemRoutes(app: App) {
  // spec 1 §7: GET /version answers major, minor, patch (the web app compares majors at start-up).
  app.get(
    '/version',
    { config: { auth: false }, schema: { tags: ['system'], response: { 200: VersionResponse } } },
    async () => API_VERSION,
  );

  // Issue 18: the web app's error reporting and analytics settings, read at start (one build serves every deployment).
  app.get(
    '/client-config',
    {
      config: { auth: false },
      schema: { tags: ['system'], response: { 200: z.object({ data: ClientConfig }) } },
    },
    async (request) => ok(clientConfigOf(request.ctx.config)),
  );

  app.get('/time', { config: { auth: false }, schema: { tags: ['system'] } }, async (request) =>
    ok(request.ctx.clock().toISOString()),
  );

  // Health: the database answers. Used by load balancers and by the web app's connection check.
  app.get(
    '/check',
    {
      config: { auth: false },
      schema: {
        tags: ['system'],
        response: { 200: z.object({ data: z.object({ status: z.string(), database: z.string() }) }) },
      },
    },
    async (request) => {
      await sql`SELECT 1`.execute(request.ctx.db);
      return ok({ status: 'ok', database: request.ctx.engine });
    },
  );

  // /system/search (spec 1 §2): people, organisations, courses and training records in the caller's scope.
  app.get('/system/search', { schema: { tags: ['system'], querystring: SystemSearchQuery } }, async (r) =>
    ok(await systemSearch(r.ctx, r.query.q, r.query.limit)),
  );
}

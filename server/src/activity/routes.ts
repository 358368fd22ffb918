import { AccountActivityQuery, ActiveUsersQuery, AuthMetricsBody, UserRefParams } from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { accountActivity, authMetrics, listActiveUsers } from './service';

const EntityParams = z.object({ entity: z.string().min(1).max(120) });

/** spec 1 §7 "Authentication metrics", and a user's account activity (permission 91). HTTP only. */
export async function activityRoutes(app: App) {
  const tags = ['auth-events'];
  app.get('/auth-events/active', { schema: { tags, querystring: ActiveUsersQuery } }, async (r) => {
    const { data, total } = await listActiveUsers(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post(
    '/auth-events/:entity/metrics',
    { schema: { tags, params: EntityParams, body: AuthMetricsBody } },
    async (r) => ok(await authMetrics(r.ctx, r.params.entity, r.body)),
  );
  app.get(
    '/users/:id/auth-events',
    { schema: { tags: ['users'], params: UserRefParams, querystring: AccountActivityQuery } },
    async (r) => {
      const { data, total } = await accountActivity(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
}

import { AuditEntityQuery, AuditPageQuery, IdParams, UserRefParams } from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { paginate } from '../http/envelope';
import { entityHistory, resultHistory, userHistory } from './service';

const EntityRefParams = z.object({ id: z.string().min(1).max(120) });

/**
 * The audit trail (issue 35 §3, docs/audit-trail.md): read-only. There is no route that changes or deletes an entry;
 * entries are written by the services that make the changes, in their transactions (audit/record.ts).
 */
export async function auditRoutes(app: App) {
  const tags = ['audit'];
  app.get(
    '/audit/users/:id',
    { schema: { tags, params: UserRefParams, querystring: AuditPageQuery } },
    async (r) => {
      const { data, total } = await userHistory(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/audit/results/:id',
    { schema: { tags, params: IdParams, querystring: AuditPageQuery } },
    async (r) => {
      const { data, total } = await resultHistory(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/audit/entities/:id',
    { schema: { tags, params: EntityRefParams, querystring: AuditEntityQuery } },
    async (r) => {
      const { data, total } = await entityHistory(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
}

import { PageQuery } from '@cc/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { actorOf, type Ctx } from '../http/context';
import { paginate } from '../http/envelope';
import { forbidden } from '../http/errors';

const OutboxQuery = PageQuery.pick({ page: true, per_page: true }).extend({
  to: z.string().trim().max(255).optional(),
});

/**
 * The outbox (ARCHITECTURE "Data": without SMTP, mail lands in a table admins can read in the app).
 * Mail crosses organisations (it holds sign-in links), so only super admins may read it.
 */
async function listOutbox(ctx: Ctx, query: z.infer<typeof OutboxQuery>) {
  if (!actorOf(ctx).superAdmin) throw forbidden();
  let q = ctx.db.selectFrom('mail_outbox');
  if (query.to) q = q.where(sql`lower(to_address)`, '=', query.to.toLowerCase());
  const [rows, total] = await Promise.all([
    q
      .select([
        'id',
        'to_address',
        'subject',
        'text_body',
        'html_body',
        'template',
        'transport',
        'sent_at',
        'error',
        'created_at',
      ])
      .orderBy('id', 'desc')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

export async function mailRoutes(app: App) {
  app.get('/mail/outbox', { schema: { tags: ['mail'], querystring: OutboxQuery } }, async (request) => {
    const { rows, total } = await listOutbox(request.ctx, request.query);
    return paginate(rows, total, request.query, request.url);
  });
}

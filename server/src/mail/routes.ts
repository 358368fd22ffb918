import { PageQuery } from '@cc/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import { pageWithTotal } from '../db/paged';
import type { App } from '../http/app-types';
import { actorOf, type Ctx } from '../http/context';
import { paginate } from '../http/envelope';
import { forbidden, notFound } from '../http/errors';
import { maskLinks } from './mask-links';

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
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) =>
      filtered
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
        .orderBy('id', 'desc'),
    { page: query.page, perPage: query.per_page },
  );
  // Attached files (scheduled reports): listed by name and size; the bytes come from the download route.
  const attachments = rows.length
    ? await ctx.db
        .selectFrom('mail_attachments')
        .select(['id', 'mail_id', 'filename', 'content_type', 'size_bytes'])
        .where(
          'mail_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('id')
        .execute()
    : [];
  return {
    rows: rows.map((r) => ({
      ...r,
      // The links in a message work for whoever reads them: the view masks their secrets (mask-links.ts), unless a
      // test setup that reads its mail here asked to see them (OUTBOX_SHOW_LINKS).
      ...(ctx.config.outboxShowLinks
        ? {}
        : {
            subject: maskLinks(r.subject),
            text_body: maskLinks(r.text_body),
            html_body: maskLinks(r.html_body),
          }),
      attachments: attachments
        .filter((a) => a.mail_id === r.id)
        .map(({ mail_id: _, ...a }) => ({ ...a, url: `/api/mail/outbox/${r.id}/attachments/${a.id}` })),
    })),
    total,
  };
}

const AttachmentParams = z.object({
  id: z.coerce.number().int().positive().max(2147483647),
  attachmentId: z.coerce.number().int().positive().max(2147483647),
});

export async function mailRoutes(app: App) {
  app.get('/mail/outbox', { schema: { tags: ['mail'], querystring: OutboxQuery } }, async (request) => {
    const { rows, total } = await listOutbox(request.ctx, request.query);
    return paginate(rows, total, request.query, request.url);
  });
  app.get(
    '/mail/outbox/:id/attachments/:attachmentId',
    { schema: { tags: ['mail'], params: AttachmentParams } },
    async (request, reply) => {
      if (!actorOf(request.ctx).superAdmin) throw forbidden();
      const file = await request.ctx.db
        .selectFrom('mail_attachments')
        .select(['filename', 'content_type', 'content'])
        .where('id', '=', request.params.attachmentId)
        .where('mail_id', '=', request.params.id)
        .executeTakeFirst();
      if (!file) throw notFound();
      return reply
        .header('content-type', file.content_type)
        .header('content-disposition', `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '')}"`)
        .send(Buffer.from(file.content));
    },
  );
}

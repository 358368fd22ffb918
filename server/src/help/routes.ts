import {
  HelpArticle,
  HelpArticleBody,
  HelpArticleListQuery,
  HelpArticleParams,
  HelpContactBody,
  HelpContactResult,
  HelpCustomer,
  HelpCustomerQuery,
  HelpMessages,
  UpdateHelpArticleBody,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import { contactSupport } from './contact';
import { findCustomer } from './customers';
import { createHelpArticle, deleteHelpArticle, listHelpArticles, updateHelpArticle } from './service';

const one = <T extends z.ZodTypeAny>(data: T) => z.object({ data, message: z.string().optional() });

/** Help articles, "Contact support" and the help desk's customer view (contracts help.ts). HTTP only. */
export async function helpRoutes(app: App) {
  const tags = ['help'];
  // auth: false: the widget shows articles on the sign-in and error pages too, to a signed-out person (issue 38 §3).
  // Articles are global content written by super admins, nothing of any organisation; the writes stay signed-in.
  app.get(
    '/help-articles',
    {
      config: { auth: false },
      schema: { tags, querystring: HelpArticleListQuery, response: { 200: one(z.array(HelpArticle)) } },
    },
    async (r) => ok(await listHelpArticles(r.ctx, r.query)),
  );
  app.post(
    '/help-articles',
    { schema: { tags, body: HelpArticleBody, response: { 201: one(HelpArticle) } } },
    async (r, reply) =>
      reply.status(201).send(ok(await createHelpArticle(r.ctx, r.body), HelpMessages.created)),
  );
  app.patch(
    '/help-articles/:id',
    {
      schema: {
        tags,
        params: HelpArticleParams,
        body: UpdateHelpArticleBody,
        response: { 200: one(HelpArticle) },
      },
    },
    async (r) => ok(await updateHelpArticle(r.ctx, r.params.id, r.body), HelpMessages.updated),
  );
  app.delete('/help-articles/:id', { schema: { tags, params: HelpArticleParams } }, async (r) => {
    await deleteHelpArticle(r.ctx, r.params.id);
    return done(HelpMessages.deleted);
  });
  app.post(
    '/help/contact',
    { schema: { tags, body: HelpContactBody, response: { 200: one(HelpContactResult) } } },
    async (r) => ok(await contactSupport(r.ctx, r.body), HelpMessages.sent),
  );
  app.get(
    '/help/customers',
    { schema: { tags, querystring: HelpCustomerQuery, response: { 200: one(HelpCustomer) } } },
    async (r) => ok(await findCustomer(r.ctx, r.query.email)),
  );
}

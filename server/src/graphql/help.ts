import {
  type HelpArticle,
  HelpArticleBody,
  HelpArticleListQuery,
  HelpArticleParams,
  UpdateHelpArticleBody,
} from '@cc/contracts';
import { createHelpArticle, deleteHelpArticle, listHelpArticles, updateHelpArticle } from '../help/service';
import { actorOf } from '../http/context';
import { builder } from './builder';
import { defined, parseInput } from './input';

/** Help articles over GraphQL (spec 2 §7 "help articles"): the same services as /api/help-articles. */
export const HelpArticleRef = builder.objectRef<HelpArticle>('HelpArticle').implement({
  description: 'A platform help article, shown by the help widget on the routes its url_regex matches.',
  fields: (t) => ({
    id: t.exposeID('id'),
    title: t.exposeString('title'),
    url_regex: t.exposeString('url_regex'),
    link_suffix: t.exposeString('link_suffix', { nullable: true }),
    body: t.exposeString('body'),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});

builder.queryField('helpArticles', (t) =>
  t.field({
    type: [HelpArticleRef],
    description: 'GET /api/help-articles: every article, or those matching a route pattern such as /users/*.',
    args: { route: t.arg.string({ description: 'A route pattern, params replaced by a star (spec 1 §2).' }) },
    resolve: async (_root, { route }, ctx) => {
      actorOf(ctx);
      return listHelpArticles(ctx, parseInput(HelpArticleListQuery, defined({ route: route ?? undefined })));
    },
  }),
);

const HelpArticleInput = builder.inputType('HelpArticleInput', {
  description:
    'Without id: a new article (title, url_regex and body required). With id: only the fields sent change.',
  fields: (t) => ({
    id: t.id(),
    title: t.string(),
    url_regex: t.string(),
    link_suffix: t.string(),
    body: t.string(),
  }),
});

builder.mutationField('upsertHelpArticle', (t) =>
  t.field({
    type: HelpArticleRef,
    description: 'POST or PATCH /api/help-articles over GraphQL (super admins).',
    args: { input: t.arg({ type: HelpArticleInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      actorOf(ctx);
      const { id, ...fields } = input;
      const sent = defined(fields);
      if (id === null || id === undefined) return createHelpArticle(ctx, parseInput(HelpArticleBody, sent));
      const params = parseInput(HelpArticleParams, { id });
      return updateHelpArticle(ctx, params.id, parseInput(UpdateHelpArticleBody, sent));
    },
  }),
);

builder.mutationField('deleteHelpArticle', (t) =>
  t.field({
    type: 'Boolean',
    description: 'DELETE /api/help-articles/{id} over GraphQL (super admins).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      actorOf(ctx);
      await deleteHelpArticle(ctx, parseInput(HelpArticleParams, { id }).id);
      return true;
    },
  }),
);

import {
  type HelpArticle,
  type HelpArticleBody,
  type HelpArticleListQuery,
  helpArticleMatches,
  type UpdateHelpArticleBody,
} from '@cc/contracts';
import { actorOf, type Ctx } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import {
  deleteArticle as deleteArticleRow,
  findArticle,
  type HelpArticleRow,
  insertArticle,
  listArticles,
  updateArticle as updateArticleRow,
} from './queries';

/**
 * Help articles (contracts help.ts): global platform help. Everyone reads them, signed out too (the widget loads them
 * once at app start, spec 1 §4, and on the sign-in and error pages: issue 38 §3); only super admins create, change and
 * delete them (403 for anyone else signed in, 401 signed out).
 */

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentArticle(row: HelpArticleRow): HelpArticle {
  return {
    id: row.id,
    title: row.title,
    url_regex: row.url_regex,
    link_suffix: row.link_suffix,
    body: row.body,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function superAdminOnly(ctx: Ctx): void {
  if (!actorOf(ctx).superAdmin) throw forbidden();
}

/**
 * GET /help-articles: all of them, or those whose url_regex matches `route` (a route pattern such as /users/*). No
 * caller needed: the REST route answers signed-out people; GraphQL's helpArticles asks for one itself.
 */
export async function listHelpArticles(ctx: Ctx, query: HelpArticleListQuery): Promise<HelpArticle[]> {
  const rows = await listArticles(ctx.db);
  const route = query.route;
  const chosen = route === undefined ? rows : rows.filter((r) => helpArticleMatches(r.url_regex, route));
  return chosen.map(presentArticle);
}

async function articleOrNotFound(ctx: Ctx, id: number) {
  const row = await findArticle(ctx.db, id);
  if (!row) throw notFound();
  return row;
}

/** POST /help-articles (super admins). */
export async function createHelpArticle(ctx: Ctx, body: HelpArticleBody): Promise<HelpArticle> {
  superAdminOnly(ctx);
  const id = await insertArticle(ctx.db, {
    title: body.title,
    url_regex: body.url_regex,
    link_suffix: body.link_suffix ?? null,
    body: body.body,
  });
  return presentArticle(await articleOrNotFound(ctx, id));
}

/** PATCH /help-articles/{id} (super admins): only the fields sent. */
export async function updateHelpArticle(
  ctx: Ctx,
  id: number,
  body: UpdateHelpArticleBody,
): Promise<HelpArticle> {
  superAdminOnly(ctx);
  await articleOrNotFound(ctx, id);
  const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (!(await updateArticleRow(ctx.db, id, values, ctx.clock()))) throw notFound();
  return presentArticle(await articleOrNotFound(ctx, id));
}

/** DELETE /help-articles/{id} (super admins). */
export async function deleteHelpArticle(ctx: Ctx, id: number): Promise<void> {
  superAdminOnly(ctx);
  if (!(await deleteArticleRow(ctx.db, id))) throw notFound();
}

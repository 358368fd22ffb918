import type { DocumentSummary, LibraryView } from '@cc/contracts';
import { type DocumentAdminView, type DocumentView, LibraryPerm as P } from '@cc/contracts';
import type { z } from 'zod';
import { entityScope } from '../entities/scope';
import { actorOf, type Ctx, can } from '../http/context';
import { notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import { documentSummary, libraryView, publicQuestion, versionView } from './presenters';
import {
  documentsQuery,
  librariesQuery,
  libraryColumns,
  myAcknowledgement,
  requirementsOf,
  versionsOf,
} from './queries';
import { managesEntity } from './scope';

/** Loads the views answered by the routes (after scope.ts has decided the caller may see the row). */

export async function presentLibrary(
  ctx: Ctx,
  id: number,
  db: Ctx['db'] | Trx = ctx.db,
): Promise<LibraryView> {
  const row = await libraryColumns(librariesQuery(db, null)).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return libraryView(row, await managesEntity(ctx, row.entity_id));
}

export async function presentSummary(ctx: Ctx, id: number): Promise<DocumentSummary> {
  const actor = actorOf(ctx);
  const row = await documentsQuery(ctx.db, actor.userId).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return documentSummary(row);
}

export type AnyDocumentView = z.infer<typeof DocumentView> | z.infer<typeof DocumentAdminView>;

/**
 * GET /documents/{id}: the summary, the current version, the history, the question without its answer, the caller's
 * acknowledgement and the roles that must read it (those of organisations in the caller's scope). Managers (135 in
 * scope) also get the question with its answer, to edit it.
 */
export async function presentDocument(ctx: Ctx, id: number): Promise<AnyDocumentView> {
  const actor = actorOf(ctx);
  const row = await documentsQuery(ctx.db, actor.userId).where('d.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  const scope = await entityScope(ctx);
  const [versions, mine, required, manage] = await Promise.all([
    versionsOf(ctx.db, id),
    myAcknowledgement(ctx.db, id, actor.userId),
    requirementsOf(ctx.db, row.course_id, scope.accessible === 'all' ? null : [...scope.accessible]),
    managesEntity(ctx, row.entity_id),
  ]);
  const views = versions.map((v) => versionView(id, v));
  const current = views.find((v) => v.number === Number(row.version)) ?? views[0];
  if (!current) throw notFound();
  const question = row.check_question;
  const view = {
    ...documentSummary(row),
    current,
    versions: views,
    check_question: publicQuestion(question),
    my_acknowledgement: mine
      ? {
          version: mine.version,
          typed_name: mine.typed_name,
          acknowledged_at: new Date(mine.acknowledged_at).toISOString(),
        }
      : null,
    required_for: required.map((r) => ({
      entity: { id: r.entity_id, slug: r.slug, name: r.entity_name },
      role: { id: r.role_id, name: r.role_name },
      type: r.type as 'primary' | 'secondary',
    })),
    can: { manage, acknowledgements: can(actor, [P.acknowledgements]) },
  };
  return manage ? { ...view, check_question_full: question ?? null } : view;
}

import { ContentPerm, type PageQuery, type QuizBody, type UpdateQuizBody } from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { visibleBlockOr404 } from '../content/blocks';
import { applyLinkAction, linkedItems } from '../content/links';
import { visibleContent } from '../content/service';
import { escapeLike } from '../courses/queries';
import { assertCanChange, ownerForNew, visibleOwnedClause } from '../courses/visibility';
import { pageWithTotal } from '../db/paged';
import { authorize, type Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import { findQuiz, quizColumns, quizQuestions, reorderQuestions, syncQuestions } from './queries';

/**
 * Quizzes (spec 2 §3, §7): is_randomized, pass mark (0-100, default 80) and questions with answers, written with
 * the quiz in one transaction. Each question needs at least 2 answers and at least one correct (contract, 422 with
 * the path questions.N.answers). 63 opens, 29 adds, 30 edits, deletes, re-orders and attaches to content.
 * Taking a quiz (/quizzes/take) is the learning capability's.
 */
const P = ContentPerm;
const VIEW = [P.contentCreator];

export async function listQuizzes(ctx: Ctx, query: z.infer<typeof PageQuery>) {
  authorize(ctx, VIEW);
  let q = ctx.db.selectFrom('quizzes as q').where(await visibleOwnedClause(ctx, 'q'));
  if (query.search) q = q.where('q.title', 'ilike', `%${escapeLike(query.search)}%`);
  const { rows: data, total } = await pageWithTotal(
    q,
    (filtered) =>
      filtered
        .select(quizColumns)
        .select(
          sql<number>`(SELECT count(*) FROM questions x WHERE x.quiz_id = q.id)::int`.as('questions_count'),
        )
        .orderBy(sql`lower(q.title)`)
        .orderBy('q.id'),
    { page: query.page, perPage: query.per_page },
  );
  return { data, total };
}

export async function getQuiz(ctx: Ctx, id: number) {
  await visibleBlockOr404(ctx, 'quizzes', id);
  authorize(ctx, VIEW);
  const [quiz, questions] = await Promise.all([findQuiz(ctx.db, id), quizQuestions(ctx.db, id)]);
  return { ...quiz, questions };
}

export async function createQuiz(ctx: Ctx, body: z.infer<typeof QuizBody>) {
  authorize(ctx, [...VIEW, P.addContent]);
  const entityId = await ownerForNew(ctx, body.platform);
  if (body.questions.some((q) => q.id !== undefined || q.answers.some((a) => a.id !== undefined)))
    throw invalidField('questions', 'A new quiz cannot refer to existing questions or answers.');
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('quizzes')
      .values({
        entity_id: entityId,
        title: body.title,
        published: body.published,
        is_randomized: body.is_randomized,
        pass_mark: body.pass_mark,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await syncQuestions(trx, row.id, body.questions);
    return row.id;
  });
  return getQuiz(ctx, id);
}

async function changeable(ctx: Ctx, id: number) {
  const quiz = await visibleBlockOr404(ctx, 'quizzes', id);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, quiz.entity_id);
}

/** Fields sent are changed; `questions`, when sent, replaces the whole set (ids sent back are kept). */
export async function updateQuiz(ctx: Ctx, id: number, body: z.infer<typeof UpdateQuizBody>) {
  await changeable(ctx, id);
  const { questions, ...fields } = body;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('quizzes')
      .set({ ...fields, updated_at: ctx.clock() })
      .where('id', '=', id)
      .execute();
    if (questions) await syncQuestions(trx, id, questions);
  });
  return getQuiz(ctx, id);
}

/** Detached from content and its questions removed by the FK cascades, in this one statement. */
export async function deleteQuiz(ctx: Ctx, id: number) {
  await changeable(ctx, id);
  await ctx.db.deleteFrom('quizzes').where('id', '=', id).execute();
}

/** POST /questions/changeOrder {quiz_id, ids}. */
export async function changeQuestionOrder(ctx: Ctx, quizId: number, ids: number[]) {
  await changeable(ctx, quizId);
  const done = await ctx.db.transaction().execute((trx) => reorderQuestions(trx, quizId, ids));
  if (!done) throw invalidField('ids', 'The ids must list every question of the quiz exactly once.');
  return quizQuestions(ctx.db, quizId);
}

/** POST /quizzes/{quizId}/content/{contentId}: the quiz is added at the end of the content's quizzes. */
export async function attachQuizToContent(ctx: Ctx, quizId: number, contentId: number) {
  await visibleBlockOr404(ctx, 'quizzes', quizId);
  const content = await visibleContent(ctx, contentId);
  authorize(ctx, [...VIEW, P.editContent]);
  await assertCanChange(ctx, content.entity_id);
  // Through the serialised link action (content/links.ts): parallel attaches each get their own position.
  await applyLinkAction(ctx.db, 'content_quizzes', contentId, { action: 'add' }, quizId);
  return linkedItems(ctx.db, 'content_quizzes', contentId);
}

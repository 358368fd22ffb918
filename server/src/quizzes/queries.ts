import { sql } from 'kysely';
import type { Trx } from '../courses/queries';
import type { Db } from '../db/connect';
import { type FieldErrors, invalid } from '../http/errors';

/** SQL of quizzes, their questions and answers. Visibility: courses/visibility visibleOwnedClause on alias `q`. */
export const quizColumns = [
  'q.id',
  'q.title',
  'q.published',
  'q.is_randomized',
  'q.pass_mark',
  'q.entity_id',
] as const;

export async function findQuiz(db: Db, id: number) {
  return db.selectFrom('quizzes as q').select(quizColumns).where('q.id', '=', id).executeTakeFirstOrThrow();
}

/** Questions with answers, in order: two queries. */
export async function quizQuestions(db: Db | Trx, quizId: number) {
  const questions = await db
    .selectFrom('questions')
    .select(['id', 'text', 'position'])
    .where('quiz_id', '=', quizId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const answers = questions.length
    ? await db
        .selectFrom('answers')
        .select(['id', 'question_id', 'text', 'is_correct', 'position'])
        .where(
          'question_id',
          'in',
          questions.map((q) => q.id),
        )
        .orderBy('position')
        .orderBy('id')
        .execute()
    : [];
  return questions.map((q) => ({
    ...q,
    answers: answers.filter((a) => a.question_id === q.id).map(({ question_id: _q, ...a }) => a),
  }));
}

export interface QuestionInput {
  id?: number;
  text: string;
  answers: { id?: number; text: string; is_correct: boolean }[];
}

/**
 * Makes the quiz's questions and answers exactly `input`, in that order, keeping the ids sent back (so attempts that
 * refer to them stay valid) and deleting the rest. Ids that are not this quiz's are a 422 before anything is written.
 */
export async function syncQuestions(trx: Trx, quizId: number, input: QuestionInput[]) {
  const existing = await quizQuestions(trx, quizId);
  const byId = new Map(existing.map((q) => [q.id, q]));
  const errors: FieldErrors = {};
  input.forEach((q, i) => {
    if (q.id === undefined) return;
    const current = byId.get(q.id);
    if (!current) {
      errors[`questions.${i}.id`] = ['The selected question id is invalid.'];
      return;
    }
    q.answers.forEach((a, j) => {
      if (a.id !== undefined && !current.answers.some((x) => x.id === a.id))
        errors[`questions.${i}.answers.${j}.id`] = ['The selected answer id is invalid.'];
    });
  });
  if (Object.keys(errors).length) throw invalid(errors);

  const kept = input.flatMap((q) => (q.id === undefined ? [] : [q.id]));
  let del = trx.deleteFrom('questions').where('quiz_id', '=', quizId);
  if (kept.length) del = del.where('id', 'not in', kept);
  await del.execute();

  for (const [i, q] of input.entries()) {
    let questionId = q.id;
    if (questionId === undefined) {
      const row = await trx
        .insertInto('questions')
        .values({ quiz_id: quizId, text: q.text, position: i })
        .returning('id')
        .executeTakeFirstOrThrow();
      questionId = row.id;
    } else {
      await trx
        .updateTable('questions')
        .set({ text: q.text, position: i })
        .where('id', '=', questionId)
        .execute();
    }
    const keptAnswers = q.answers.flatMap((a) => (a.id === undefined ? [] : [a.id]));
    let delA = trx.deleteFrom('answers').where('question_id', '=', questionId);
    if (keptAnswers.length) delA = delA.where('id', 'not in', keptAnswers);
    await delA.execute();
    const fresh = q.answers
      .map((a, j) => ({ ...a, position: j }))
      .filter((a) => a.id === undefined)
      .map((a) => ({
        question_id: questionId,
        text: a.text,
        is_correct: a.is_correct,
        position: a.position,
      }));
    if (fresh.length) await trx.insertInto('answers').values(fresh).execute();
    for (const [j, a] of q.answers.entries()) {
      if (a.id === undefined) continue;
      await trx
        .updateTable('answers')
        .set({ text: a.text, is_correct: a.is_correct, position: j })
        .where('id', '=', a.id)
        .execute();
    }
  }
}

/** POST /questions/changeOrder: `ids` must be every question of the quiz once. Returns false otherwise. */
export async function reorderQuestions(trx: Trx, quizId: number, ids: number[]): Promise<boolean> {
  const current = await trx.selectFrom('questions').select('id').where('quiz_id', '=', quizId).execute();
  const set = new Set(current.map((q) => q.id));
  if (ids.length !== set.size || new Set(ids).size !== ids.length || !ids.every((id) => set.has(id)))
    return false;
  const values = sql.join(ids.map((id, i) => sql`(${id}::int, ${i}::int)`));
  await sql`UPDATE questions AS q SET position = v.pos FROM (VALUES ${values}) AS v(id, pos)
    WHERE q.quiz_id = ${quizId} AND q.id = v.id`.execute(trx);
  return true;
}

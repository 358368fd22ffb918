import { randomInt } from 'node:crypto';
import {
  LearningMessages,
  type QuizOutcome,
  type QuizSheet,
  type StartQuizBody,
  type SubmitQuizBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, type Ctx } from '../http/context';
import { forbidden, HttpError, invalidField, notFound } from '../http/errors';
import { finishAfterQuiz, loadPresentedAttempt } from './attempts-service';
import {
  claimClientWrite,
  findAttempt,
  findClientWrite,
  findContentQuiz,
  findOpenQuizAttempt,
  findQuizAttempt,
  insertQuizAttempt,
  lockAttempt,
  type QuizQuestion,
  quizQuestions,
  submitQuizAttempt,
  submittedQuizAttempt,
} from './queries';
import { judgeOutcome } from './verdict';

/** Fisher-Yates with a CSPRNG, so the order cannot be predicted from earlier sheets. */
function shuffle<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * The owner's own attempt (only the learner takes their quizzes): someone else in scope gets 403, anyone else 404.
 */
async function ownAttempt(ctx: Ctx, attempt: { user_id: number; user_entity_id: number } | undefined) {
  const actor = actorOf(ctx);
  if (!attempt) throw notFound();
  if (attempt.user_id === actor.userId) return;
  if (!inScope(await entityScope(ctx), attempt.user_entity_id)) throw notFound();
  throw forbidden();
}

/** The sheet in the stored order; answers and questions added since the start come last, removed ones drop out. */
function sheet(
  quizAttemptId: number,
  quiz: { id: number; title: string; pass_mark: number; is_randomized: boolean },
  questions: QuizQuestion[],
  questionOrder: number[],
  answerOrder: Record<string, number[]>,
): QuizSheet {
  const rank = (order: number[], id: number) => {
    const i = order.indexOf(id);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const ordered = [...questions].sort((a, b) => rank(questionOrder, a.id) - rank(questionOrder, b.id));
  return {
    quiz_attempt_id: quizAttemptId,
    quiz: { id: quiz.id, title: quiz.title, pass_mark: quiz.pass_mark, is_randomized: quiz.is_randomized },
    // is_correct is deliberately never copied (issue 4: the sheet must not give the answers away).
    questions: ordered.map((q) => {
      const order = answerOrder[String(q.id)] ?? [];
      return {
        id: q.id,
        text: q.text,
        // "Select all that apply" (checkboxes) versus one answer (radio buttons); which ones stays secret.
        multiple: q.answers.filter((a) => a.is_correct).length > 1,
        answers: [...q.answers]
          .sort((a, b) => rank(order, a.id) - rank(order, b.id))
          .map((a) => ({ id: a.id, text: a.text })),
      };
    }),
  };
}

/**
 * POST /quizzes/take, start (spec 2 §7): the quiz of the attempt's content, questions and answers shuffled when the
 * quiz is randomised. The order is stored on the quiz attempt, so asking again before submitting shows the same
 * sheet and scoring never depends on what the client claims it saw.
 */
export async function startQuiz(ctx: Ctx, body: z.infer<typeof StartQuizBody>): Promise<QuizSheet> {
  const attempt = await findAttempt(ctx.db, body.attempt_id);
  await ownAttempt(ctx, attempt);
  if (!attempt) throw notFound();
  if (attempt.status !== 'in_progress') throw new HttpError(422, LearningMessages.attemptFinished);
  const quiz = await findContentQuiz(ctx.db, attempt.content_id, body.quiz_id);
  if (!quiz) throw invalidField('quiz_id', LearningMessages.quizNotInContent);
  const questions = await quizQuestions(ctx.db, quiz.id);

  const open = await findOpenQuizAttempt(ctx.db, attempt.id, quiz.id);
  if (open) return sheet(open.id, quiz, questions, open.question_order, open.answer_order);

  const questionOrder = (quiz.is_randomized ? shuffle(questions) : questions).map((q) => q.id);
  const answerOrder = Object.fromEntries(
    questions.map((q) => [
      String(q.id),
      (quiz.is_randomized ? shuffle(q.answers) : q.answers).map((a) => a.id),
    ]),
  );
  const created = await insertQuizAttempt(ctx.db, {
    attemptId: attempt.id,
    quizId: quiz.id,
    questionOrder,
    answerOrder,
  });
  return sheet(created.id, quiz, questions, questionOrder, answerOrder);
}

/** A question is right when the chosen answers are exactly its correct answers (none missing, none extra). */
export function scoreQuiz(
  questions: readonly QuizQuestion[],
  responses: Record<string, number[]>,
  passMark: number,
) {
  const results = questions.map((q) => {
    const chosen = new Set(responses[String(q.id)] ?? []);
    const correct = new Set(q.answers.filter((a) => a.is_correct).map((a) => a.id));
    const right =
      correct.size > 0 && chosen.size === correct.size && [...correct].every((id) => chosen.has(id));
    return { id: q.id, correct: right };
  });
  const score = questions.length
    ? Math.round((results.filter((r) => r.correct).length / questions.length) * 10000) / 100
    : 100;
  return { score, passed: judgeOutcome({ score }, passMark) === 'passed', questions: results };
}

/**
 * What a quiz attempt's submit recorded, answered again to a resend of the same client id: the stored score and
 * verdict, and each question's verdict from the stored responses.
 */
async function recordedOutcome(
  ctx: Ctx,
  quizAttempt: { id: number; attempt_id: number; quiz_id: number; pass_mark: number },
): Promise<QuizOutcome | null> {
  const stored = await submittedQuizAttempt(ctx.db, quizAttempt.id);
  if (!stored) return null;
  const shown = new Set(stored.question_order);
  const questions = (await quizQuestions(ctx.db, quizAttempt.quiz_id)).filter((q) => shown.has(q.id));
  const again = scoreQuiz(questions, stored.responses ?? {}, quizAttempt.pass_mark);
  return {
    quiz_attempt_id: quizAttempt.id,
    score: Number(stored.score),
    pass_mark: quizAttempt.pass_mark,
    passed: Boolean(stored.passed),
    questions: again.questions,
    attempt: await loadPresentedAttempt(ctx, quizAttempt.attempt_id),
  };
}

/**
 * POST /quizzes/take, submit: scored against the pass mark (percentage of questions fully right), stored once
 * (a second submit is 422), and a pass may finish the attempt, writing the result in the same transaction.
 * With a client id (the outbox's, issue 31 §2) a resend of the submit that was recorded answers with what it
 * recorded instead of 422: the id is claimed in the submit's transaction (061_attempt_client_writes), so two sends
 * of it at once record one submit.
 */
export async function submitQuiz(ctx: Ctx, body: z.infer<typeof SubmitQuizBody>): Promise<QuizOutcome> {
  const quizAttempt = await findQuizAttempt(ctx.db, body.quiz_attempt_id);
  await ownAttempt(ctx, quizAttempt);
  if (!quizAttempt) throw notFound();
  const clientId = body.client_id;
  const replay = async () => {
    if (clientId === undefined) return null;
    const prior = await findClientWrite(ctx.db, quizAttempt.user_id, clientId);
    return prior?.quiz_attempt_id === quizAttempt.id ? recordedOutcome(ctx, quizAttempt) : null;
  };
  if (quizAttempt.submitted_at) {
    const recorded = await replay();
    if (recorded) return recorded;
    throw new HttpError(422, LearningMessages.quizAlreadySubmitted);
  }

  const all = await quizQuestions(ctx.db, quizAttempt.quiz_id);
  // Score the questions the learner was shown (the stored order), as they stand now.
  const shown = new Set(quizAttempt.question_order);
  const questions = all.filter((q) => shown.has(q.id));
  const outcome = scoreQuiz(questions, body.responses, quizAttempt.pass_mark);

  const claimed = await ctx.db.transaction().execute(async (trx) => {
    const attempt = await lockAttempt(trx, quizAttempt.attempt_id);
    if (!attempt) throw notFound();
    if (
      clientId !== undefined &&
      !(await claimClientWrite(trx, {
        userId: quizAttempt.user_id,
        clientId,
        attemptId: attempt.id,
        quizAttemptId: quizAttempt.id,
      }))
    )
      return false;
    if (attempt.status !== 'in_progress') throw new HttpError(422, LearningMessages.attemptFinished);
    const stored = await submitQuizAttempt(trx, quizAttempt.id, {
      responses: body.responses,
      score: outcome.score,
      passed: outcome.passed,
      now: ctx.clock(),
    });
    if (!stored) throw new HttpError(422, LearningMessages.quizAlreadySubmitted);
    if (outcome.passed) await finishAfterQuiz(trx, ctx, attempt);
    return true;
  });
  if (!claimed) {
    const recorded = await replay();
    if (recorded) return recorded;
    throw new HttpError(422, LearningMessages.quizAlreadySubmitted);
  }

  return {
    quiz_attempt_id: quizAttempt.id,
    score: outcome.score,
    pass_mark: quizAttempt.pass_mark,
    passed: outcome.passed,
    questions: outcome.questions,
    attempt: await loadPresentedAttempt(ctx, quizAttempt.attempt_id),
  };
}

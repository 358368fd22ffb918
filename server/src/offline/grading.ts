import {
  type AttemptProgress,
  LearningMessages,
  type OfflineRefusal,
  type SyncOfflineAttemptBody,
} from '@cc/contracts';
import type { z } from 'zod';
import type { Db } from '../db/connect';
import { applyStep, attemptScore, isDone, normaliseProgress, type ProgressStep } from '../learning/progress';
import { contentStructure, quizQuestions } from '../learning/queries';
import { scoreQuiz } from '../learning/quizzes-service';
import {
  requiredItems,
  rollupScos,
  type ScoOutcome,
  type ScoRules,
  scoOutcome,
} from '../learning/scorm-completion';
import type { Trx } from '../results/queries';

export type SyncBody = z.output<typeof SyncOfflineAttemptBody>;

export interface GradedQuiz {
  quizId: number;
  questionIds: number[];
  responses: Record<string, number[]>;
  score: number;
  passed: boolean;
  submittedAt: Date;
}

/** A step of the synced attempt the rules do not allow: not applied, named with its reason for the learner. */
export type Refusal = OfflineRefusal;

export interface Graded {
  status: 'passed' | 'failed' | 'completed' | 'incomplete';
  score: number | null;
  progress: Record<string, unknown>;
  cmi: Record<string, unknown>;
  quizzes: GradedQuiz[];
  refused: Refusal[];
}

/**
 * An e-learning attempt taken offline, judged by the rules the online routes apply, not a copy of them: each step
 * (H5P outcome, topic completed, topic skipped) goes through learning/progress.ts applyStep, quizzes through
 * quizzes-service.ts scoreQuiz against the answers held on the server, completion through isDone and the score
 * through attemptScore. A step the rules refuse (an "I have read" on a topic whose H5P item must be passed, a topic
 * or quiz the content no longer holds) is not applied and is returned with its reason; the rest of the attempt is
 * judged and kept, so one refused step never strands the learner's other work on the device.
 *
 * Steps are applied in the order the online player would send them: the H5P outcomes first (a pass completes its
 * topic), then the topics marked read, then the skipped ones.
 */
export async function gradeElearning(
  db: Db | Trx,
  contentId: number,
  body: SyncBody,
  at: Date,
): Promise<Graded> {
  const structure = await contentStructure(db as Db, contentId);
  let progress: Required<AttemptProgress> = normaliseProgress(undefined);
  const refused: Refusal[] = [];
  const apply = (step: ProgressStep, item: Refusal['item']) => {
    const applied = applyStep(progress, structure.topics, step, at);
    if ('refused' in applied) refused.push({ item, id: step.topicId, message: applied.refused.message });
    else progress = applied.progress;
  };
  for (const h5p of body.h5p) apply({ kind: 'h5p', topicId: h5p.topic_id, outcome: h5p }, 'h5p');
  for (const id of body.completed_topic_ids) apply({ kind: 'complete', topicId: id }, 'completed_topic');
  for (const id of body.skipped_topic_ids) apply({ kind: 'skip', topicId: id }, 'skipped_topic');

  const quizzes: GradedQuiz[] = [];
  for (const key of Object.keys(body.quiz_responses))
    if (!structure.quizzes.some((q) => String(q.id) === key))
      refused.push({ item: 'quiz', id: Number(key), message: LearningMessages.quizNotInContent });
  for (const quiz of structure.quizzes) {
    const responses = body.quiz_responses[String(quiz.id)];
    if (!responses) continue;
    const questions = await quizQuestions(db as Db, quiz.id);
    const outcome = scoreQuiz(questions, responses, quiz.pass_mark);
    quizzes.push({
      quizId: quiz.id,
      questionIds: questions.map((q) => q.id),
      responses,
      score: outcome.score,
      passed: outcome.passed,
      submittedAt: at,
    });
  }
  const passedQuizzes = new Set(quizzes.filter((q) => q.passed).map((q) => q.quizId));
  const done = isDone(
    progress,
    structure.topics,
    structure.quizzes.map((q) => q.id),
    passedQuizzes,
  );
  const score = attemptScore(
    quizzes.map((q) => q.score),
    progress,
    structure.topics,
  );
  const status = done
    ? 'passed'
    : body.completed_at !== null && quizzes.some((q) => !q.passed)
      ? 'failed'
      : 'incomplete';
  return { status, score: done || status === 'failed' ? score : null, progress, cmi: {}, quizzes, refused };
}

/**
 * A SCORM attempt taken offline: the package's own data decides, SCO by SCO, as the online runtime's commits do
 * (learning/scorm-completion.ts scoOutcome and rollupScos).
 */
export async function gradeScorm(db: Db | Trx, contentId: number, body: SyncBody): Promise<Graded> {
  const pkg = await (db as Db)
    .selectFrom('scorm_packages')
    .select(['version', 'items'])
    .where('content_id', '=', contentId)
    .executeTakeFirst();
  const items: Record<string, Record<string, unknown>> = {};
  if (!pkg)
    return {
      status: 'incomplete',
      score: null,
      progress: {},
      cmi: { items: body.cmi },
      quizzes: [],
      refused: [],
    };
  const launchable = pkg.items.filter((i) => i.launch_path !== null);
  for (const [identifier, cmi] of Object.entries(body.cmi)) {
    const item = launchable.find((i) => i.identifier === identifier);
    const rules: ScoRules = item ?? { mastery_score: null, scaled_passing_score: null };
    items[identifier] = { ...cmi, outcome: scoOutcome(pkg.version, cmi, rules) };
  }
  const outcome = rollupScos(
    requiredItems(pkg.items).map((i) => items[i.identifier]?.outcome as ScoOutcome | undefined),
  );
  const cmi = { items };
  if (!outcome) return { status: 'incomplete', score: null, progress: {}, cmi, quizzes: [], refused: [] };
  return { status: outcome.status, score: outcome.score, progress: {}, cmi, quizzes: [], refused: [] };
}

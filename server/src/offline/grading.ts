import type { AttemptProgress, SyncOfflineAttemptBody } from '@cc/contracts';
import type { z } from 'zod';
import type { Db } from '../db/connect';
import {
  completeTopic,
  h5pBlocksManualCompletion,
  h5pScores,
  isDone,
  normaliseProgress,
  recordH5pOutcome,
  skipTopic,
  visibleTopic,
} from '../learning/progress';
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

export interface Graded {
  status: 'passed' | 'failed' | 'completed' | 'incomplete';
  score: number | null;
  progress: Record<string, unknown>;
  cmi: Record<string, unknown>;
  quizzes: GradedQuiz[];
}

const mean = (xs: number[]) =>
  xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : null;

/**
 * An e-learning attempt taken offline, judged by the same rules as online (learning/progress.ts, quizzes-service.ts
 * scoreQuiz against the answers held on the server). What the content no longer holds (a topic or quiz removed
 * since the download) is not judged but stays in the stored payload: a content change must not make a sync fail
 * for ever and strand the learner's data on the device.
 */
export async function gradeElearning(
  db: Db | Trx,
  contentId: number,
  body: SyncBody,
  at: Date,
): Promise<Graded> {
  const structure = await contentStructure(db as Db, contentId);
  let progress: Required<AttemptProgress> = normaliseProgress(undefined);
  const shown = (id: number) => visibleTopic(structure.topics, id);
  for (const h5p of body.h5p) {
    const topic = shown(h5p.topic_id);
    if (topic && topic.h5p_id === h5p.h5p_id)
      progress = recordH5pOutcome(progress, structure.topics, topic.id, h5p, at);
  }
  for (const id of body.completed_topic_ids) {
    const topic = shown(id);
    if (topic && !h5pBlocksManualCompletion(progress, topic))
      progress = completeTopic(progress, structure.topics, id);
  }
  for (const id of body.skipped_topic_ids) {
    const topic = shown(id);
    if (topic?.skippable) progress = skipTopic(progress, structure.topics, id);
  }

  const quizzes: GradedQuiz[] = [];
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
  const score = mean(quizzes.map((q) => q.score).concat(h5pScores(progress, structure.topics)));
  const status = done
    ? 'passed'
    : body.completed_at !== null && quizzes.some((q) => !q.passed)
      ? 'failed'
      : 'incomplete';
  return { status, score: done || status === 'failed' ? score : null, progress, cmi: {}, quizzes };
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
  if (!pkg) return { status: 'incomplete', score: null, progress: {}, cmi: { items: body.cmi }, quizzes: [] };
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
  if (!outcome) return { status: 'incomplete', score: null, progress: {}, cmi, quizzes: [] };
  return { status: outcome.status, score: outcome.score, progress: {}, cmi, quizzes: [] };
}

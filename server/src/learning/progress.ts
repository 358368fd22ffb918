import { LearningMessages } from '@cc/contracts';
import type { AttemptProgress } from '../db/schema';
import type { StructureTopic } from './queries';
import { H5P_PASS_MARK, h5pMustBePassed, judgeOutcome, verdictFlag } from './verdict';

/**
 * The rules of working through an elearning content (issue 4 item 2, spec 2 §3 Topic: hidden, skippable, is_child):
 * - hidden topics are never shown nor required, and cannot be completed;
 * - skippable topics may be skipped (or completed); they are not required;
 * - a child topic (is_child) belongs to the nearest non-child topic before it in the same lesson and is completed (or
 *   skipped) with that parent; a child is never required on its own.
 * Pure functions: the attempt service loads the structure and writes the outcome.
 */

export const TOPIC_NOT_SKIPPABLE = 'This topic cannot be skipped.';

export function normaliseProgress(p: AttemptProgress | null | undefined): Required<AttemptProgress> {
  return {
    visited_topic_ids: [...(p?.visited_topic_ids ?? [])],
    completed_topic_ids: [...(p?.completed_topic_ids ?? [])],
    skipped_topic_ids: [...(p?.skipped_topic_ids ?? [])],
    current: p?.current ?? null,
    h5p_results: { ...(p?.h5p_results ?? {}) },
  };
}

/** Parent topic id -> its child topic ids. */
export function childrenByParent(topics: readonly StructureTopic[]): Map<number, number[]> {
  const children = new Map<number, number[]>();
  let parent: StructureTopic | null = null;
  for (const t of topics) {
    if (!parent || parent.lesson_id !== t.lesson_id) parent = null;
    if (t.is_child) {
      if (parent) children.set(parent.id, [...(children.get(parent.id) ?? []), t.id]);
    } else {
      parent = t;
    }
  }
  return children;
}

export function requiredTopicIds(topics: readonly StructureTopic[]): number[] {
  return topics.filter((t) => !t.hidden && !t.skippable && !t.is_child).map((t) => t.id);
}

const add = (list: number[], ids: number[]) => {
  for (const id of ids) if (!list.includes(id)) list.push(id);
};

/** Finds a topic of the content that the learner may act on; undefined for hidden or foreign topics. */
export function visibleTopic(topics: readonly StructureTopic[], topicId: number) {
  return topics.find((t) => t.id === topicId && !t.hidden);
}

/** Marks a topic (and its children) completed and visited. */
export function completeTopic(
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
  topicId: number,
): Required<AttemptProgress> {
  const children = childrenByParent(topics).get(topicId) ?? [];
  const next = normaliseProgress(progress);
  add(next.completed_topic_ids, [topicId, ...children]);
  add(next.visited_topic_ids, [topicId, ...children]);
  next.skipped_topic_ids = next.skipped_topic_ids.filter((id) => id !== topicId && !children.includes(id));
  return next;
}

/** Marks a skippable topic (and its children) skipped. The caller checks `skippable` first. */
export function skipTopic(
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
  topicId: number,
): Required<AttemptProgress> {
  const children = childrenByParent(topics).get(topicId) ?? [];
  const next = normaliseProgress(progress);
  add(
    next.skipped_topic_ids,
    [topicId, ...children].filter((id) => !next.completed_topic_ids.includes(id)),
  );
  add(next.visited_topic_ids, [topicId]);
  return next;
}

/** Done when every required topic is completed and every quiz of the content has a passed quiz attempt. */
export function isDone(
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
  quizIds: readonly number[],
  passedQuizzes: ReadonlySet<number>,
): boolean {
  const completed = new Set(progress.completed_topic_ids);
  return (
    requiredTopicIds(topics).every((id) => completed.has(id)) && quizIds.every((id) => passedQuizzes.has(id))
  );
}

export type H5pResult = NonNullable<AttemptProgress['h5p_results']>[string];

/** The outcome an H5P player reports (its xAPI statement's result), for a topic holding that H5P item. */
export interface H5pOutcome {
  h5p_id: number;
  score_scaled?: number | null;
  success?: boolean | null;
  completion?: boolean | null;
}

/** A pass beats anything else, then an unjudged outcome, then a fail; between equals the higher score wins (a retry
 * never lowers what was earned). */
function better(next: H5pResult, prev: H5pResult | undefined): boolean {
  if (!prev) return true;
  const rank = (r: H5pResult) => (r.success === true ? 2 : r.success === null ? 1 : 0);
  if (rank(next) !== rank(prev)) return rank(next) > rank(prev);
  return (next.score_scaled ?? -1) >= (prev.score_scaled ?? -1);
}

/** The percentage (0..100, two decimals) of a scaled score, so 0.07 is 7 and not 7.000000000000001. */
export const percentOf = (scaled: number) => Math.round(scaled * 10000) / 100;

/**
 * Records an H5P item's outcome on its topic (issue 4 item 2: H5P results). The verdict is judged here by the one
 * rule (verdict.ts judgeOutcome, against the item's pass mark H5P_PASS_MARK): the stored `success` is that verdict
 * (true passed, false failed, null when the item reported neither a score nor a verdict), next to the score and
 * completion the item reported. The best outcome per topic is kept. Only a pass completes the topic (and its
 * children); a fail is recorded and leaves the topic open so the learner can try the item again, and an unjudged
 * outcome (an item with nothing to score) leaves the topic to the learner's "Mark complete".
 */
export function recordH5pOutcome(
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
  topicId: number,
  outcome: H5pOutcome,
  now: Date,
): Required<AttemptProgress> {
  const scaled = outcome.score_scaled ?? null;
  const verdict = judgeOutcome(
    { success: outcome.success, score: scaled === null ? null : percentOf(scaled) },
    H5P_PASS_MARK,
  );
  const result: H5pResult = {
    h5p_id: outcome.h5p_id,
    score_scaled: scaled,
    success: verdictFlag(verdict),
    completion: outcome.completion ?? false,
    pass_mark: H5P_PASS_MARK,
    recorded_at: now.toISOString(),
  };
  let next = normaliseProgress(progress);
  const key = String(topicId);
  if (better(result, next.h5p_results[key])) next.h5p_results = { ...next.h5p_results, [key]: result };
  add(next.visited_topic_ids, [topicId]);
  if (verdict === 'passed') next = completeTopic(next, topics, topicId);
  return next;
}

/**
 * Why the learner may not mark a topic complete by hand ("Mark complete" online, "I have read" offline), or null
 * when they may. Not a topic whose H5P item must be passed (a graded task, verdict.ts h5pMustBePassed) and was not
 * passed: only the pass completes it. Not a topic whose item has a failed verdict on record (its best outcome is a
 * fail), since that would pass wrong answers. A topic whose item has nothing to judge (a video, an accordion) is
 * completed by hand like a reading topic, and one whose item was passed is already complete.
 */
export function manualCompletionRefusal(
  progress: Required<AttemptProgress>,
  topic: StructureTopic,
): string | null {
  if (topic.h5p_id === null) return null;
  const recorded = progress.h5p_results[String(topic.id)];
  const own = recorded !== undefined && recorded.h5p_id === topic.h5p_id ? recorded : undefined;
  if (own?.success === true) return null;
  if (own?.success === false || h5pMustBePassed(topic.h5p_library)) return LearningMessages.h5pNotPassed;
  return null;
}

/** One thing a learner did in an attempt: marked a topic complete, skipped one, or reported an H5P outcome. */
export type ProgressStep =
  | { kind: 'complete'; topicId: number }
  | { kind: 'skip'; topicId: number }
  | { kind: 'h5p'; topicId: number; outcome: H5pOutcome };

/** Why a step is refused: about its topic, or about the H5P item it names. */
export interface StepRefusal {
  on: 'topic' | 'h5p_id';
  message: string;
}

/**
 * The one place a learner's step is checked and applied, for the online routes (attempts-service.ts updateAttempt,
 * which answers a refusal with 422) and for an attempt synced from a device (offline/grading.ts, which refuses that
 * step alone and applies the rest). The topic must be one of the content's shown topics, only a skippable topic is
 * skipped, an H5P outcome must name its topic's item, and completion by hand follows manualCompletionRefusal.
 */
export function applyStep(
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
  step: ProgressStep,
  now: Date,
): { progress: Required<AttemptProgress> } | { refused: StepRefusal } {
  const topic = visibleTopic(topics, step.topicId);
  if (!topic) return { refused: { on: 'topic', message: LearningMessages.topicNotInContent } };
  if (step.kind === 'complete') {
    const refusal = manualCompletionRefusal(progress, topic);
    if (refusal) return { refused: { on: 'topic', message: refusal } };
    return { progress: completeTopic(progress, topics, topic.id) };
  }
  if (step.kind === 'skip') {
    if (!topic.skippable) return { refused: { on: 'topic', message: TOPIC_NOT_SKIPPABLE } };
    return { progress: skipTopic(progress, topics, topic.id) };
  }
  if (topic.h5p_id !== step.outcome.h5p_id)
    return { refused: { on: 'h5p_id', message: LearningMessages.h5pNotInTopic } };
  return { progress: recordH5pOutcome(progress, topics, topic.id, step.outcome, now) };
}

/**
 * An attempt's score: the mean of each quiz's best score and each H5P item's recorded score (0..100, two decimals),
 * or null when nothing was scored.
 */
export function attemptScore(
  quizScores: readonly number[],
  progress: Required<AttemptProgress>,
  topics: readonly StructureTopic[],
): number | null {
  const scores = [...quizScores, ...h5pScores(progress, topics)];
  return scores.length ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100 : null;
}

/** Scores (0..100) of the H5P outcomes recorded on the content's shown topics, for the attempt's score. */
export function h5pScores(progress: Required<AttemptProgress>, topics: readonly StructureTopic[]): number[] {
  return topics
    .filter((t) => !t.hidden)
    .map((t) => progress.h5p_results[String(t.id)])
    .filter((r): r is H5pResult => r !== undefined && r.score_scaled !== null)
    .map((r) => percentOf(r.score_scaled as number));
}

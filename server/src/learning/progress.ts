import type { AttemptProgress } from '../db/schema';
import type { StructureTopic } from './queries';
import { H5P_PASS_MARK, judgeOutcome, verdictFlag } from './verdict';

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
 * Whether the learner may mark a topic complete by hand: not a topic whose H5P item has a failed verdict on
 * record (its best outcome is a fail), since that would pass wrong answers. A topic whose item reported nothing to
 * judge (a video, an accordion) is completed by hand like a reading topic.
 */
export function h5pBlocksManualCompletion(
  progress: Required<AttemptProgress>,
  topic: StructureTopic,
): boolean {
  if (topic.h5p_id === null) return false;
  const recorded = progress.h5p_results[String(topic.id)];
  return recorded !== undefined && recorded.h5p_id === topic.h5p_id && recorded.success === false;
}

/** Scores (0..100) of the H5P outcomes recorded on the content's shown topics, for the attempt's score. */
export function h5pScores(progress: Required<AttemptProgress>, topics: readonly StructureTopic[]): number[] {
  return topics
    .filter((t) => !t.hidden)
    .map((t) => progress.h5p_results[String(t.id)])
    .filter((r): r is H5pResult => r !== undefined && r.score_scaled !== null)
    .map((r) => percentOf(r.score_scaled as number));
}

import type { AttemptProgress } from '../db/schema';
import type { StructureTopic } from './queries';

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

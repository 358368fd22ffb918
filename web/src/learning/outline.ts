import type { StructureLesson, StructureQuiz, StructureTopic } from './api';

/**
 * The side outline of an elearning attempt (issue 4 item 2, spec 2 §3 Topic), mirroring the server's rules in
 * server/src/learning/progress.ts: hidden topics are never shown; a child topic (is_child) belongs to the nearest
 * non-child topic before it in the same lesson and is nested under it (a child with no visible parent is shown at
 * the lesson's top level); skippable topics are marked.
 */
export interface OutlineTopic {
  topic: StructureTopic;
  lessonId: number;
  children: OutlineTopic[];
}
export interface OutlineLesson {
  id: number;
  title: string;
  topics: OutlineTopic[];
}

export function buildOutline(lessons: readonly StructureLesson[]): OutlineLesson[] {
  return lessons.map((lesson) => {
    const topics: OutlineTopic[] = [];
    let parent: OutlineTopic | null = null;
    let parentHidden = false;
    for (const topic of lesson.topics) {
      if (!topic.is_child) {
        parentHidden = topic.hidden;
        parent = topic.hidden ? null : { topic, lessonId: lesson.id, children: [] };
        if (parent) topics.push(parent);
        continue;
      }
      if (topic.hidden) continue;
      const node: OutlineTopic = { topic, lessonId: lesson.id, children: [] };
      if (parent && !parentHidden) parent.children.push(node);
      else topics.push(node);
    }
    return { id: lesson.id, title: lesson.title, topics };
  });
}

export type Step =
  | { kind: 'topic'; key: string; topic: StructureTopic; lessonId: number; lessonTitle: string }
  | { kind: 'quiz'; key: string; quiz: StructureQuiz };

/** The reading order for Next/Previous: every shown topic (a parent, then its children), then the quizzes. */
export function steps(outline: readonly OutlineLesson[], quizzes: readonly StructureQuiz[]): Step[] {
  const out: Step[] = [];
  const visit = (node: OutlineTopic, lessonTitle: string) => {
    out.push({
      kind: 'topic',
      key: `t${node.topic.id}`,
      topic: node.topic,
      lessonId: node.lessonId,
      lessonTitle,
    });
    for (const child of node.children) visit(child, lessonTitle);
  };
  for (const lesson of outline) for (const node of lesson.topics) visit(node, lesson.title);
  for (const quiz of quizzes) out.push({ kind: 'quiz', key: `q${quiz.id}`, quiz });
  return out;
}

/** Where to open: the saved position if it is still shown, else the first topic not completed or skipped. */
export function initialStep(
  all: readonly Step[],
  progress: {
    current?: { topic_id?: number | null; quiz_id?: number | null } | null;
    completed_topic_ids?: number[];
    skipped_topic_ids?: number[];
  },
): number {
  const cur = progress.current;
  if (cur?.topic_id) {
    const i = all.findIndex((s) => s.kind === 'topic' && s.topic.id === cur.topic_id);
    if (i >= 0) return i;
  }
  if (cur?.quiz_id) {
    const i = all.findIndex((s) => s.kind === 'quiz' && s.quiz.id === cur.quiz_id);
    if (i >= 0) return i;
  }
  const done = new Set([...(progress.completed_topic_ids ?? []), ...(progress.skipped_topic_ids ?? [])]);
  const i = all.findIndex((s) => (s.kind === 'topic' ? !done.has(s.topic.id) : !s.quiz.passed));
  return i >= 0 ? i : 0;
}

/**
 * What is left before the attempt can finish, in reading order, mirroring the server's rule (progress.ts isDone):
 * every required topic (shown, not skippable, not a child) completed and every quiz passed. Skipped or optional
 * topics are not left.
 */
export function remainingSteps(all: readonly Step[], progress: { completed_topic_ids?: number[] }): Step[] {
  const completed = new Set(progress.completed_topic_ids ?? []);
  return all.filter((s) =>
    s.kind === 'topic'
      ? !s.topic.skippable && !s.topic.is_child && !completed.has(s.topic.id)
      : !s.quiz.passed,
  );
}

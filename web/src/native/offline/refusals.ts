import type { OfflineRefusal, OfflineSyncOutcome } from '@cc/contracts';
import type { StoredDownload } from './library';

/**
 * The steps of a synced attempt the server refused (server/src/learning/progress.ts applyStep, the check the online
 * player meets too), in the learner's words: what it was, by the title the saved copy gives it, and the server's
 * reason. A copy removed from the device since leaves the step unnamed, never the reason.
 */
export function refusalText(refusal: OfflineRefusal, downloads: readonly StoredDownload[]): string {
  const named = nameOf(refusal, downloads);
  const what =
    refusal.item === 'quiz'
      ? named
        ? `Your answers to "${named}" were not counted`
        : 'Some quiz answers were not counted'
      : refusal.item === 'h5p'
        ? named
          ? `Your result in "${named}" was not counted`
          : 'An activity result was not counted'
        : named
          ? `"${named}" was not counted as ${refusal.item === 'skipped_topic' ? 'skipped' : 'read'}`
          : `A topic was not counted as ${refusal.item === 'skipped_topic' ? 'skipped' : 'read'}`;
  return `${what}. ${refusal.message}`;
}

function nameOf(refusal: OfflineRefusal, downloads: readonly StoredDownload[]): string | null {
  for (const { download } of downloads) {
    if (refusal.item === 'quiz') {
      const quiz = (download.quizzes ?? []).find((q) => q.id === refusal.id);
      if (quiz) return quiz.title;
      continue;
    }
    for (const lesson of download.lessons ?? []) {
      const topic = lesson.topics.find((t) => t.id === refusal.id);
      if (topic) return topic.title;
    }
  }
  return null;
}

/**
 * Refusals of an outcome stored on the device, each once (a learner retrying an activity may have sent the same
 * refused result several times); an outcome synced before the server sent them has none.
 */
export function refusalsOf(outcome: OfflineSyncOutcome): OfflineRefusal[] {
  const seen = new Set<string>();
  return (outcome.refused ?? []).filter((r) => {
    const key = `${r.item}:${r.id}:${r.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

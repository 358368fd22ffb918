import type { SyncOfflineAttemptBody } from '@cc/contracts';
import { type FileSink, RUNTIME_FOLDER } from './files';
import type { OfflineLibrary } from './library';

/** Whether an unfinished attempt holds anything the learner did (an answer, a topic, package data). */
export function holdsWork(body: SyncOfflineAttemptBody): boolean {
  return Boolean(
    body.completed_topic_ids?.length ||
      body.skipped_topic_ids?.length ||
      Object.keys(body.quiz_responses ?? {}).length ||
      body.h5p?.length ||
      Object.keys(body.cmi ?? {}).length,
  );
}

/**
 * Removes a saved course from the device (the /offline page's "Remove"): its copy and its package files go.
 * The learner's attempts never do: queued ones are not touched, and one begun and not finished (the draft) is
 * queued as it stands (completed_at null), so it is still sent and the server keeps it as data (rules.ts
 * offline_incomplete). Order matters for a crash part way: the attempt is safe in the queue before the copy goes,
 * and the copy goes before its files (a copy pointing at deleted files could not play; stray files only take space,
 * and the next removal of the user's folder takes them). The players' shared files go with the user's last package.
 */
export async function removeSavedCourse(
  library: OfflineLibrary,
  userId: number,
  contentId: number,
  sink: FileSink | null,
  now: () => Date = () => new Date(),
): Promise<void> {
  const stored = await library.getDownload(userId, contentId);
  const draft = await library.getDraft(userId, contentId);
  if (draft && holdsWork(draft.body))
    await library.finishDraft(userId, {
      body: { ...draft.body, completed_at: null },
      content_title: draft.content_title,
      queued_at: now().toISOString(),
      refused: null,
      tries: 0,
    });
  else if (draft) await library.dropEmptyDraft(userId, contentId);
  if (!stored) return;
  await library.removeDownload(userId, contentId);
  if (!sink) return;
  for (const pkg of stored.download.packages) await sink.removePackage(userId, pkg.uuid);
  const others = await library.listDownloads(userId);
  if (!others.some((d) => d.download.packages.length > 0)) await sink.removePackage(userId, RUNTIME_FOLDER);
}

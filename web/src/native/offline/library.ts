import type { OfflineDownload, OfflineSyncOutcome, SyncOfflineAttemptBody } from '@cc/contracts';
import type { KeyValueStore } from './kv';

/**
 * Downloaded copies and queued attempts, kept apart per user (a shared tablet holds several carers' data: every key
 * starts with the user id, and every read names the user). Nothing here ever deletes a queued attempt except
 * `removeQueued`, which the sync calls only after the server confirmed it stored that attempt.
 */
export interface StoredDownload {
  download: OfflineDownload;
  /** Package file path -> the URL the offline player loads it from (Cache Storage URL, or the shell's file URL). */
  files: Record<string, Record<string, string>>;
  saved_at: string;
}

export interface QueuedAttempt {
  body: SyncOfflineAttemptBody;
  content_title: string;
  queued_at: string;
  /** Set when the server refused it for good (4xx): kept on the device, shown to the learner, never dropped. */
  refused?: { status: number; message: string } | null;
  tries: number;
}

export interface SyncedAttempt {
  outcome: OfflineSyncOutcome;
  content_title: string;
}

const userKey = (userId: number) => `u:${userId}:`;
const downloadKey = (userId: number, contentId: number) => `${userKey(userId)}download:${contentId}`;
const queueKey = (userId: number, uuid: string) => `${userKey(userId)}queue:${uuid}`;
const syncedKey = (userId: number, uuid: string) => `${userKey(userId)}synced:${uuid}`;
const draftKey = (userId: number, contentId: number) => `${userKey(userId)}draft:${contentId}`;

/**
 * An offline attempt not finished yet: written on every answer, topic and SCORM commit, so closing the app (or the
 * battery dying) mid-course loses nothing; "Finish and save" turns it into a queued attempt with the same uuid.
 */
export interface DraftAttempt {
  body: SyncOfflineAttemptBody;
  content_title: string;
}

export function offlineLibrary(kv: KeyValueStore) {
  return {
    saveDownload: (userId: number, stored: StoredDownload) =>
      kv.put(downloadKey(userId, stored.download.content.id), stored),
    getDownload: (userId: number, contentId: number) =>
      kv.get<StoredDownload>(downloadKey(userId, contentId)),
    listDownloads: (userId: number) => kv.list<StoredDownload>(`${userKey(userId)}download:`),
    removeDownload: (userId: number, contentId: number) => kv.delete(downloadKey(userId, contentId)),

    /** Durable once this resolves (the IndexedDB transaction committed). */
    enqueue: (userId: number, item: QueuedAttempt) => kv.put(queueKey(userId, item.body.client_uuid), item),
    listQueue: (userId: number) => kv.list<QueuedAttempt>(`${userKey(userId)}queue:`),
    updateQueued: (userId: number, item: QueuedAttempt) =>
      kv.put(queueKey(userId, item.body.client_uuid), item),
    /**
     * The server's confirmation is written first, then the queue item removed: a crash between the two leaves the
     * item queued, and resending it is harmless (the server answers the same outcome for the same client uuid).
     */
    async confirmSynced(userId: number, uuid: string, synced: SyncedAttempt) {
      await kv.put(syncedKey(userId, uuid), synced);
      await kv.delete(queueKey(userId, uuid));
    },
    listSynced: (userId: number) => kv.list<SyncedAttempt>(`${userKey(userId)}synced:`),

    saveDraft: (userId: number, draft: DraftAttempt) =>
      kv.put(draftKey(userId, draft.body.content_id), draft),
    getDraft: (userId: number, contentId: number) => kv.get<DraftAttempt>(draftKey(userId, contentId)),
    /** Only for a draft holding nothing the learner did (removeSavedCourse): anything else is queued instead. */
    dropEmptyDraft: (userId: number, contentId: number) => kv.delete(draftKey(userId, contentId)),
    /** Queue first, then drop the draft: in between, the same uuid in both is harmless (sent once, by uuid). */
    async finishDraft(userId: number, item: QueuedAttempt) {
      await kv.put(queueKey(userId, item.body.client_uuid), item);
      await kv.delete(draftKey(userId, item.body.content_id));
    },
  };
}

export type OfflineLibrary = ReturnType<typeof offlineLibrary>;

import { Network } from '@capacitor/network';
import { type Attempt, LearningMessages, type QuizOutcome, type QuizSheet } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { api, type Envelope, isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { isMobile } from '../app/env';
import { indexedDbStore, type KeyValueStore, memoryStore } from '../native/offline/kv';
import { createOutbox, type Outbox, type OutboxItem, type OutboxSend, type SendOutcome } from './outbox';

/**
 * The app's one attempt outbox (outbox.ts) over IndexedDB, and what the attempt player keeps beside it so a reload
 * without a signal shows the attempt from the device (issue 31 §2): the attempt as last read, its lessons, and each
 * quiz sheet started. Kept per user; the outbox's writes are never deleted before the server has them.
 */

/** Whether the status will change by sending again: no answer, the server's trouble, or a signed-out device. */
export function retryable(status: number): boolean {
  return status >= 500 || [401, 408, 419, 429].includes(status);
}

/** The outbox's sends, without the app's 401/403 redirects (a send in the background must not navigate). */
export const sendOutboxItem: OutboxSend = async (item) => {
  const classify = (error: unknown): SendOutcome => {
    if (isApiError(error) && !retryable(error.status))
      return { state: 'refused', status: error.status, error };
    return { state: 'retry' };
  };
  try {
    if (item.kind === 'attempt') {
      const res = await api.patch<Envelope<Attempt>>(
        `/attempts/${item.attempt_id}`,
        { ...item.body, version: item.version, client_id: item.client_id },
        { skipAuthHandling: true },
      );
      return { state: 'sent', data: res.data.data, version: res.data.data.version };
    }
    const res = await api.post<Envelope<QuizOutcome>>(
      '/quizzes/take',
      { ...item.body, client_id: item.client_id },
      { skipAuthHandling: true },
    );
    const outcome = res.data.data;
    return {
      state: 'sent',
      data: { outcome, message: res.data.message } satisfies QuizSent,
      version: outcome.attempt.version,
    };
  } catch (error) {
    return classify(error);
  }
};

/** A quiz submit's answer as the outbox hands it on. */
export interface QuizSent {
  outcome: QuizOutcome;
  message?: string;
}

let store: KeyValueStore | null = null;
let outbox: Outbox | null = null;
function getStore(): KeyValueStore {
  // IndexedDB in the browser and the shell's webview; an environment without it (jsdom) keeps the outbox in memory.
  store ??= typeof indexedDB === 'undefined' ? memoryStore() : indexedDbStore('cc-attempt-outbox');
  return store;
}
export function getOutbox(): Outbox {
  outbox ??= createOutbox({
    store: getStore(),
    send: sendOutboxItem,
    schedule: (fn, ms) => {
      const timer = window.setTimeout(fn, ms);
      return () => window.clearTimeout(timer);
    },
  });
  return outbox;
}
/** For tests: another store (memoryStore) and send. */
export function setOutbox(next: { store: KeyValueStore; outbox: Outbox } | null) {
  store = next?.store ?? null;
  outbox = next?.outbox ?? null;
}

/** The words for a write kept on the device: "this phone" in the mobile app, "this device" in the web app. */
export function savedLocallyMessage(): string {
  return isMobile() ? LearningMessages.savedOnPhone : LearningMessages.savedOnDevice;
}

// --- What the page shows when the server cannot be reached -------------------------------------------------------

const snapKey = (kind: string, userId: number, ...ids: (number | string)[]) =>
  `snap:${kind}:${userId}:${ids.join(':')}`;

export const snapshots = {
  saveAttempt: (userId: number, attempt: Attempt) =>
    getStore().put(snapKey('attempt', userId, attempt.id), attempt),
  attempt: (userId: number, id: number | string) => getStore().get<Attempt>(snapKey('attempt', userId, id)),
  /** The attempt's lessons and quizzes (api.ts AttemptStructure, typed by the caller: api.ts imports this module). */
  saveStructure: (userId: number, id: number | string, structure: unknown) =>
    getStore().put(snapKey('structure', userId, id), structure),
  structure: <T>(userId: number, id: number | string) => getStore().get<T>(snapKey('structure', userId, id)),
  saveSheet: (userId: number, attemptId: number, quizId: number, sheet: QuizSheet) =>
    getStore().put(snapKey('sheet', userId, attemptId, quizId), sheet),
  sheet: (userId: number, attemptId: number, quizId: number) =>
    getStore().get<QuizSheet>(snapKey('sheet', userId, attemptId, quizId)),
};

/**
 * The attempt as the learner left it: the last copy read, with the steps still in the outbox laid over it (a topic
 * completed or skipped, the position). Only what the learner did; the server still judges every step when it
 * arrives, and the page shows what it answered then.
 */
export function withPending(attempt: Attempt, pending: readonly OutboxItem[]): Attempt {
  const mine = pending.filter((i) => i.attempt_id === attempt.id && i.kind === 'attempt');
  if (!mine.length || attempt.status !== 'in_progress') return attempt;
  const completed = new Set(attempt.progress.completed_topic_ids ?? []);
  const skipped = new Set(attempt.progress.skipped_topic_ids ?? []);
  let current = attempt.progress.current;
  for (const item of mine) {
    if (item.kind !== 'attempt') continue;
    if (item.body.completed_topic_id !== undefined) {
      completed.add(item.body.completed_topic_id);
      skipped.delete(item.body.completed_topic_id);
    }
    if (item.body.skipped_topic_id !== undefined && !completed.has(item.body.skipped_topic_id))
      skipped.add(item.body.skipped_topic_id);
    if (item.body.progress?.current !== undefined) current = item.body.progress.current;
  }
  return {
    ...attempt,
    progress: {
      ...attempt.progress,
      completed_topic_ids: [...completed],
      skipped_topic_ids: [...skipped],
      current,
    },
  };
}

/**
 * The writes of `attemptId` still in the outbox, kept current as they are queued and sent. Also drains the outbox
 * when the signal comes back (the browser's `online` event; in the shell @capacitor/network's web side raises the
 * same) and once on mount, for writes left from before a reload.
 */
export function usePendingWrites(attemptId: number | undefined): OutboxItem[] {
  const { user } = useAuth();
  const userId = user?.id;
  const [pending, setPending] = useState<OutboxItem[]>([]);
  useEffect(() => {
    if (userId === undefined || attemptId === undefined) return;
    const box = getOutbox();
    let alive = true;
    const mine = (items: OutboxItem[]) =>
      items.filter((i) => i.user_id === userId && i.attempt_id === attemptId);
    void box.pending(userId, attemptId).then((items) => alive && setPending(items));
    const off = box.subscribe((event) => {
      if (event.type === 'changed' && alive) setPending(mine(event.pending));
    });
    return () => {
      alive = false;
      off();
    };
  }, [userId, attemptId]);
  return pending;
}

/** Sends what waits in the outbox when the app starts and whenever the signal comes back (mounted app-wide). */
export function useOutboxDrain() {
  const { user } = useAuth();
  const userId = user?.id;
  useEffect(() => {
    if (userId === undefined) return;
    const box = getOutbox();
    const drain = () => void box.drain(userId, { force: true });
    window.addEventListener('online', drain);
    const listener = Network.addListener('networkStatusChange', (status) => {
      if (status.connected) drain();
    });
    if (navigator.onLine) drain();
    return () => {
      window.removeEventListener('online', drain);
      void listener.then((l) => l.remove());
    };
  }, [userId]);
}

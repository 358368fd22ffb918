import { Network } from '@capacitor/network';
import {
  type OfflineDownload,
  OfflineMessages,
  type OfflineSyncOutcome,
  type SyncOfflineAttemptBody,
} from '@cc/contracts';
import { useCallback, useEffect } from 'react';
import { api, type Envelope, isApiError } from '../../app/api';
import { useAuth } from '../../app/auth';
import { createStore, useStore } from '../../app/store';
import { defaultSink, type FileSink, savePackageFiles } from './files';
import { indexedDbStore } from './kv';
import { type OfflineLibrary, offlineLibrary, type QueuedAttempt, type StoredDownload } from './library';
import { removeSavedCourse } from './remove';
import { type Send, type SyncReport, syncOnce } from './sync';

/**
 * The offline learning state the pages show: how many attempts wait to sync (and how many the server refused),
 * whether a sync runs, and what the last one did. One library over IndexedDB for the whole app.
 */
let library: OfflineLibrary | null = null;
export function getLibrary(): OfflineLibrary {
  library ??= offlineLibrary(indexedDbStore());
  return library;
}
/** For tests. */
export function setLibrary(next: OfflineLibrary) {
  library = next;
}

export interface SyncState {
  waiting: number;
  refused: number;
  syncing: boolean;
  last: SyncReport | null;
  online: boolean;
}
export const syncStore = createStore<SyncState>({
  waiting: 0,
  refused: 0,
  syncing: false,
  last: null,
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
});

/**
 * Bumped whenever a copy is saved on this device or removed from it, by whichever page did it: every "Download for
 * offline" button and "Download my required training" read the device again (a bulk download turns the to-do's
 * buttons into "Available offline" as it goes).
 */
export const savedStore = createStore<{ version: number }>({ version: 0 });
const savedChanged = () => savedStore.set((s) => ({ version: s.version + 1 }));

export async function refreshCounts(userId: number) {
  const queue = await getLibrary().listQueue(userId);
  syncStore.set((s) => ({ ...s, waiting: queue.length, refused: queue.filter((q) => q.refused).length }));
}

/** POST /offline/attempts without the app's 401/403 redirects: a background sync must not navigate. */
export const sendAttempt: Send = async (body) => {
  try {
    const res = await api.post<Envelope<OfflineSyncOutcome>>('/offline/attempts', body, {
      skipAuthHandling: true,
    });
    return { ok: true, outcome: res.data.data };
  } catch (error) {
    if (isApiError(error)) return { ok: false, status: error.status, message: error.data?.message ?? '' };
    throw error; // no answer at all: offline, or the server unreachable
  }
};

export async function syncNow(userId: number, send: Send = sendAttempt): Promise<SyncReport> {
  syncStore.set((s) => ({ ...s, syncing: true }));
  try {
    const report = await syncOnce(getLibrary(), userId, send);
    syncStore.set((s) => ({ ...s, last: report }));
    return report;
  } finally {
    syncStore.set((s) => ({ ...s, syncing: false }));
    await refreshCounts(userId);
  }
}

/** Saves an attempt taken offline; durable on the device when this resolves. */
export async function queueAttempt(userId: number, body: SyncOfflineAttemptBody, contentTitle: string) {
  const item: QueuedAttempt = {
    body,
    content_title: contentTitle,
    queued_at: new Date().toISOString(),
    refused: null,
    tries: 0,
  };
  await getLibrary().finishDraft(userId, item);
  await refreshCounts(userId);
}

/** POST /offline/downloads, then every package file, then the copy: stored only once it is complete. */
export async function downloadForOffline(
  userId: number,
  contentId: number,
  sink: FileSink | null = defaultSink(),
  onProgress?: (done: number, total: number) => void,
): Promise<StoredDownload> {
  const res = await api.post<Envelope<OfflineDownload>>('/offline/downloads', { content_id: contentId });
  const download = res.data.data;
  const files = await savePackageFiles(userId, download, sink, undefined, onProgress);
  const stored: StoredDownload = { download, files, saved_at: new Date().toISOString() };
  await getLibrary().saveDownload(userId, stored);
  savedChanged();
  return stored;
}

/** Removes a saved course from the device, keeping every attempt of it (remove.ts). */
export async function removeFromDevice(
  userId: number,
  contentId: number,
  sink: FileSink | null = defaultSink(),
) {
  await removeSavedCourse(getLibrary(), userId, contentId, sink);
  savedChanged();
  await refreshCounts(userId);
}

/**
 * Keeps the counts fresh for the signed-in user and syncs when the device comes back online: the browser's `online`
 * event and, in the shell, @capacitor/network's status change (its web implementation listens to the same events).
 * Also tries once on mount, for attempts left from an earlier session.
 */
export function useOfflineSync() {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const state = useStore(syncStore);

  const run = useCallback(async () => {
    if (userId === null) return null;
    return syncNow(userId);
  }, [userId]);

  useEffect(() => {
    if (userId === null) return;
    void refreshCounts(userId);
    // The events below only reach a mounted page: one mounted after the signal came back must not say "offline".
    syncStore.set((s) => (s.online === navigator.onLine ? s : { ...s, online: navigator.onLine }));
    const wentOnline = () => {
      syncStore.set((s) => ({ ...s, online: true }));
      void run();
    };
    const wentOffline = () => syncStore.set((s) => ({ ...s, online: false }));
    window.addEventListener('online', wentOnline);
    window.addEventListener('offline', wentOffline);
    const listener = Network.addListener('networkStatusChange', (status) =>
      status.connected ? wentOnline() : wentOffline(),
    );
    if (navigator.onLine) void run();
    return () => {
      window.removeEventListener('online', wentOnline);
      window.removeEventListener('offline', wentOffline);
      void listener.then((l) => l.remove());
    };
  }, [userId, run]);

  return { ...state, userId, syncNow: run };
}

export function waitingText(waiting: number): string {
  if (waiting === 0) return OfflineMessages.allSynced;
  return waiting === 1
    ? OfflineMessages.waitingToSyncOne
    : OfflineMessages.waitingToSync.replace(':count', String(waiting));
}

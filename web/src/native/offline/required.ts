import { type LearnerEvent, OfflineMessages } from '@cc/contracts';
import { isNetworkError } from '../../app/network';
import { notifyError, notifySuccess } from '../../app/notifications';
import { createStore } from '../../app/store';
import { packagesPlayOffline } from './files';
import { downloadForOffline, getLibrary } from './state';

/**
 * Issue 31 §1: every course the learner can take online can be taken offline, her required and overdue ones first.
 * The to-do (GET /users/{id}/events) names the content to start or retake of each course and its type; this decides
 * which the device can take offline and saves the required ones one after the other, in the to-do's order.
 */

/** Whether this device can take a content of this type offline: e-learning anywhere, packages in the shell. */
export function canTakeOffline(type: string | null | undefined): boolean {
  return type === 'elearning' || (type === 'scorm' && packagesPlayOffline());
}

/**
 * A to-do item the learner can take offline: a course she can start, retake or resume online (not a document to
 * read, not one done) whose content runs on this device.
 */
export function offeredOffline(e: LearnerEvent): e is LearnerEvent & { content_id: number } {
  return !e.document_id && e.content_id !== null && e.state !== 'done' && canTakeOffline(e.content_type);
}

export interface OfflineItem {
  contentId: number;
  /** The course's title: what the learner reads in her to-do. */
  title: string;
}

/**
 * Her required training for the phone, in the to-do's order (the server's: overdue mandatory, overdue required,
 * expiring soonest, due, in progress): the mandatory and required courses still to do that the device can take
 * offline. Not optional courses, not a record awaiting approval (she has done it), each content once.
 */
export function requiredForOffline(events: readonly LearnerEvent[]): OfflineItem[] {
  const seen = new Set<number>();
  const items: OfflineItem[] = [];
  for (const e of events) {
    if (!offeredOffline(e) || e.kind === 'optional' || e.state === 'pending' || seen.has(e.content_id))
      continue;
    seen.add(e.content_id);
    items.push({ contentId: e.content_id, title: e.course.title });
  }
  return items;
}

/** The bulk download under way, for whichever page shows it (it goes on if the learner opens another page). */
export interface BulkDownload {
  running: boolean;
  /** Courses finished (saved or failed) of `total`, the ones not on the device when it started. */
  done: number;
  total: number;
  current: OfflineItem | null;
  /** The current course's files (package files in the shell; 0 of 0 for lessons and quizzes alone). */
  files: { done: number; total: number };
}
const IDLE: BulkDownload = { running: false, done: 0, total: 0, current: null, files: { done: 0, total: 0 } };
export const bulkStore = createStore<BulkDownload>(IDLE);

export type SaveOne = (
  userId: number,
  contentId: number,
  onProgress: (done: number, total: number) => void,
) => Promise<unknown>;
const saveOne: SaveOne = (userId, contentId, onProgress) =>
  downloadForOffline(userId, contentId, undefined, onProgress);

export interface BulkReport {
  saved: OfflineItem[];
  failed: OfflineItem[];
  /** The device lost its connection: the rest was not tried. */
  stopped: boolean;
}

/**
 * Saves the items not on the device yet, one at a time in the order given, and says how it went. A course that
 * fails does not stop the others; a lost connection does (nothing more can download). A second call while one runs
 * does nothing.
 */
export async function downloadInOrder(
  userId: number,
  items: readonly OfflineItem[],
  save: SaveOne = saveOne,
): Promise<BulkReport | null> {
  if (bulkStore.get().running) return null;
  bulkStore.set({ ...IDLE, running: true });
  const report: BulkReport = { saved: [], failed: [], stopped: false };
  try {
    const library = getLibrary();
    const todo: OfflineItem[] = [];
    for (const item of items) if (!(await library.getDownload(userId, item.contentId))) todo.push(item);
    bulkStore.set((s) => ({ ...s, total: todo.length }));
    for (const item of todo) {
      bulkStore.set((s) => ({ ...s, current: item, files: { done: 0, total: 0 } }));
      try {
        await save(userId, item.contentId, (done, total) =>
          bulkStore.set((s) => ({ ...s, files: { done, total } })),
        );
        report.saved.push(item);
      } catch (error) {
        report.failed.push(item);
        if (isNetworkError(error)) {
          report.stopped = true;
          break;
        }
      } finally {
        bulkStore.set((s) => ({ ...s, done: s.done + 1 }));
      }
    }
    const total = todo.length;
    if (report.stopped)
      notifyError(
        null,
        OfflineMessages.requiredStopped
          .replace(':saved', String(report.saved.length))
          .replace(':total', String(total)),
      );
    else if (report.failed.length)
      notifyError(
        null,
        OfflineMessages.requiredPartly
          .replace(':failed', String(report.failed.length))
          .replace(':total', String(total)),
      );
    else notifySuccess(OfflineMessages.requiredSaved);
    // The offline pages' code, fetched now (and kept by the app's service worker) so they open without a network.
    if (report.saved.length) void import('./pages');
    return report;
  } finally {
    bulkStore.set(IDLE);
  }
}

import type { OfflineSyncOutcome } from '@cc/contracts';
import type { OfflineLibrary } from './library';

/** What sending one attempt gave: the server's outcome, or its refusal status and message. A throw is "no answer". */
export type SendResult =
  | { ok: true; outcome: OfflineSyncOutcome }
  | { ok: false; status: number; message: string };
export type Send = (body: import('@cc/contracts').SyncOfflineAttemptBody) => Promise<SendResult>;

export interface SyncReport {
  sent: number;
  /** Still queued: not sent yet (offline, server down) or refused for good (kept, shown to the learner). */
  waiting: number;
  refused: number;
  /** False when the network or the server failed part way: the rest is kept for the next try. */
  complete: boolean;
}

/**
 * Whether a refusal is for good. 5xx, 408, 429 and no answer are transient: the item is retried later. 401/419 is
 * a signed-out device: also retried (after sign-in, as the same user). Other 4xx (the download gone, the body
 * refused) will not change by resending, so the item is marked refused, but still kept: the learner's data is
 * never deleted without the server saying it stored it.
 */
export function refusedForGood(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 408, 419, 429].includes(status);
}

/**
 * Sends a user's queued attempts one by one, oldest first. An item leaves the queue only after the server confirmed
 * it (201 stored, or 200 stored before: same outcome by client uuid). The first transient failure stops the run, so
 * nothing later overtakes it and nothing is lost; the next `online` event or "Sync now" starts again.
 */
export async function syncQueue(library: OfflineLibrary, userId: number, send: Send): Promise<SyncReport> {
  const queue = (await library.listQueue(userId)).sort((a, b) => a.queued_at.localeCompare(b.queued_at));
  const report: SyncReport = { sent: 0, waiting: 0, refused: 0, complete: true };
  let stopped = false;
  for (const item of queue) {
    if (stopped) {
      report.waiting += 1;
      continue;
    }
    let result: SendResult | null = null;
    try {
      result = await send(item.body);
    } catch {
      result = null;
    }
    if (result?.ok) {
      await library.confirmSynced(userId, item.body.client_uuid, {
        outcome: result.outcome,
        content_title: item.content_title,
      });
      report.sent += 1;
      continue;
    }
    const tries = item.tries + 1;
    if (result && refusedForGood(result.status)) {
      await library.updateQueued(userId, {
        ...item,
        tries,
        refused: { status: result.status, message: result.message },
      });
      report.refused += 1;
      report.waiting += 1;
      continue;
    }
    await library.updateQueued(userId, { ...item, tries });
    report.waiting += 1;
    report.complete = false;
    stopped = true;
  }
  return report;
}

/**
 * One run at a time per user: an `online` event, the network plugin and "Sync now" may all fire together, and two
 * runs would send the same item twice (harmless for the server, but wasteful and confusing in the counts).
 */
const running = new Map<number, Promise<SyncReport>>();
export function syncOnce(library: OfflineLibrary, userId: number, send: Send): Promise<SyncReport> {
  const current = running.get(userId);
  if (current) return current;
  const run = syncQueue(library, userId, send).finally(() => running.delete(userId));
  running.set(userId, run);
  return run;
}

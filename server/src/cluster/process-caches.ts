import { announceScoresStale, forgetScores } from '../compliance/scores-cache';
import type { CacheBus } from '../db/cache-bus';
import { closeSocketsOf } from '../realtime/socket-registry';
import { markDrillDownsStale } from '../reports/drill-down';

/**
 * The process-wide state that listens to the cache bus (the per-app caches, callers and reads, subscribe in their
 * plugins): cached scores, cached drill-downs and this process's open sockets. Whoever publishes (this process or
 * another) reaches all of them the same way.
 */
export function wireProcessCaches(bus: CacheBus): () => void {
  const stopAnnouncing = announceScoresStale(() => bus.publish({ topic: 'scores' }));
  const unsubscribe = bus.subscribe((message) => {
    switch (message.topic) {
      case 'writes':
        markDrillDownsStale();
        return;
      case 'scores':
      case 'resync':
        forgetScores();
        markDrillDownsStale();
        return;
      case 'sign-out':
        closeSocketsOf(message.which, message.keep);
        return;
    }
  });
  return () => {
    stopAnnouncing();
    unsubscribe();
  };
}

import type { Actor } from '../http/context';
import { WriteAwareCache } from '../http/write-aware-cache';
import type { SessionRecord } from './queries';

/**
 * Who is behind a session cookie or bearer token, remembered up to ACTOR_CACHE_MS (30 s by default) so a read costs
 * its own statements and not one more to rebuild the caller (auth/callers.ts; the API-read p95 target at 200
 * concurrent clients).
 *
 * Staleness is bounded as for every WriteAwareCache: every state-changing request and every background job that ends
 * (but deliveries: jobs/queue.ts keepsCaches), in any server process, empties it (logins, logouts, permission and user
 * changes all are such requests; other processes' through the cache bus, db/cache-bus.ts), and entries live at most
 * ACTOR_CACHE_MS should the bus be down.
 */
export interface CachedCaller {
  session: SessionRecord | null;
  token: {
    id: number;
    user_id: number;
    abilities: string[];
    last_used_at: Date | null;
    expires_at: Date | null;
    created_at: Date;
    kind: 'device' | 'personal';
  } | null;
  actor: Actor | null;
}

/** Callers by credential ('t:' token or 's:' session secret). */
export class ActorCache extends WriteAwareCache<CachedCaller> {}

/** A per-request copy: acting-as is set on the request's actor, never on the shared one. */
export function actorForRequest(actor: Actor | null): Actor | null {
  return actor ? { ...actor, actingAs: null } : null;
}

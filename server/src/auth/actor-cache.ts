import type { Actor } from '../http/context';
import type { SessionRecord } from './queries';

/**
 * Who is behind a session cookie or bearer token, remembered for a few seconds so a read costs its own query and
 * not four more to rebuild the caller (the API-read p95 target at 200 concurrent clients).
 *
 * Staleness is bounded two ways: every state-changing request in this process empties the cache when it ends
 * (logins, logouts, permission and user changes all are such requests), with a generation number so a read that
 * started before the change cannot put its stale answer back; and entries live at most `ttlMs`, which bounds what
 * another server process's change can take to show here.
 */
export interface CachedCaller {
  session: SessionRecord | null;
  token: { id: number; user_id: number; abilities: string[]; last_used_at: Date | null } | null;
  actor: Actor | null;
}

interface Entry extends CachedCaller {
  storedAt: number;
}

export class ActorCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The generation to pass back to `set`: a load that saw an older one is dropped. */
  current(): number {
    return this.generation;
  }

  get(key: string, nowMs: number): CachedCaller | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (nowMs - entry.storedAt > this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    return entry;
  }

  set(key: string, value: CachedCaller, generation: number, nowMs: number): void {
    if (this.ttlMs <= 0 || generation !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { ...value, storedAt: nowMs });
  }

  /** After any state-changing request. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** A per-request copy: acting-as is set on the request's actor, never on the shared one. */
export function actorForRequest(actor: Actor | null): Actor | null {
  return actor ? { ...actor, actingAs: null } : null;
}

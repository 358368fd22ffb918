import type { SubmitQuizBody, UpdateAttemptBody } from '@cc/contracts';
import type { z } from 'zod';
import type { KeyValueStore } from '../native/offline/kv';

/**
 * The attempt player's outbox (issue 31 §2): every answer and progress write of an attempt (PATCH /attempts/{id},
 * a quiz's submit) is first kept on the device (IndexedDB, the same durable store offline learning uses), then sent,
 * oldest first; it leaves the outbox only when the server has answered. No answer (offline, the server down) or a
 * 5xx / 408 / 429 keeps it, retried with backoff; the `online` event, the learner's next action or a reload try at
 * once. Each write carries a client id made when the learner acted: a write the server recorded but whose answer
 * was lost is sent again with the same id, and the server records it once (061_attempt_client_writes); the outbox
 * itself holds one entry per id.
 *
 * Writes of one attempt form a chain: each PATCH must name the attempt's current version. A write kept while offline
 * was made on the version the page last knew, so when one is sent, the next of the same attempt goes on the version
 * that answer gave (`known`, kept with the outbox), the learner's own steps never conflicting with each other.
 */
export type AttemptWrite = Omit<UpdateAttemptBody, 'version' | 'client_id'>;
export type QuizSubmit = Omit<z.infer<typeof SubmitQuizBody>, 'client_id'>;

export type OutboxItem = {
  client_id: string;
  user_id: number;
  attempt_id: number;
  queued_at: string;
  /** Failed sends so far; the next is not tried before next_at (ms since the epoch) unless forced. */
  tries: number;
  next_at: number;
} & (
  | { kind: 'attempt'; body: AttemptWrite; version: number }
  | { kind: 'quiz'; quiz_id: number; body: QuizSubmit }
);
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewOutboxItem = DistributiveOmit<OutboxItem, 'client_id' | 'queued_at' | 'tries' | 'next_at'> & {
  client_id?: string;
};

/**
 * What one send gave. `sent`: the server's data. `refused`: an answer that resending will not change (409, 422,
 * 403, 404), with the error for the page to show. A throw, or `retry`, is "try again later".
 */
export type SendOutcome =
  | { state: 'sent'; data: unknown; version?: number }
  | { state: 'refused'; status: number; error: unknown }
  | { state: 'retry' };
export type OutboxSend = (item: OutboxItem & { version?: number }) => Promise<SendOutcome>;

export type ItemOutcome =
  | { state: 'sent'; data: unknown }
  | { state: 'refused'; status: number; error: unknown }
  | { state: 'waiting' };

export type OutboxEvent =
  | { type: 'sent'; item: OutboxItem; data: unknown }
  | { type: 'refused'; item: OutboxItem; status: number; error: unknown }
  | { type: 'changed'; pending: OutboxItem[] };

export interface OutboxOptions {
  store: KeyValueStore;
  send: OutboxSend;
  now?: () => number;
  newId?: () => string;
  /** Backoff: first retry after `baseMs`, doubling, at most `maxMs`, ± `jitter` of it (0 in tests). */
  baseMs?: number;
  maxMs?: number;
  jitter?: number;
  random?: () => number;
  /** Schedules the next try when the head of the outbox waits (window.setTimeout in the app). */
  schedule?: (fn: () => void, ms: number) => () => void;
}

export const BACKOFF = { baseMs: 2000, maxMs: 5 * 60_000, jitter: 0.2 };

/** The wait before try number `tries + 1` after `tries` failed sends: base × 2^(tries − 1), capped, jittered. */
export function backoffMs(
  tries: number,
  o: { baseMs?: number; maxMs?: number; jitter?: number; random?: () => number } = {},
): number {
  const base = o.baseMs ?? BACKOFF.baseMs;
  const max = o.maxMs ?? BACKOFF.maxMs;
  const jitter = o.jitter ?? BACKOFF.jitter;
  const raw = Math.min(max, base * 2 ** Math.max(0, tries - 1));
  const spread = jitter ? raw * jitter * (2 * (o.random ?? Math.random)() - 1) : 0;
  return Math.max(0, Math.round(raw + spread));
}

const ITEM = 'outbox:';
const KNOWN = 'outbox-version:';
/** Keys sort as the items were queued: the time, then a counter for writes in the same millisecond. */
const itemKey = (userId: number, at: number, seq: number, clientId: string) =>
  `${ITEM}${userId}:${String(at).padStart(15, '0')}.${String(seq).padStart(6, '0')}:${clientId}`;

export interface Outbox {
  /** Keeps a write (durable when this resolves). A client id already in the outbox keeps the first entry. */
  enqueue(item: NewOutboxItem): Promise<OutboxItem>;
  /** Keeps the write and sends what is waiting, oldest first; resolves with what became of this write. */
  submit(item: NewOutboxItem): Promise<ItemOutcome & { item: OutboxItem }>;
  /**
   * Sends the waiting writes of `userId` oldest first until one gets no answer. `force` ignores the backoff (the
   * learner acted, the signal came back). One run at a time: a call during a run runs again after it.
   */
  drain(userId: number, o?: { force?: boolean }): Promise<Map<string, ItemOutcome>>;
  pending(userId: number, attemptId?: number): Promise<OutboxItem[]>;
  subscribe(fn: (event: OutboxEvent) => void): () => void;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { store, send } = options;
  const now = options.now ?? (() => Date.now());
  const newId = options.newId ?? (() => crypto.randomUUID());
  const listeners = new Set<(event: OutboxEvent) => void>();
  const emit = (event: OutboxEvent) => {
    for (const fn of listeners) fn(event);
  };
  let seq = 0;
  const keys = new Map<string, string>();
  const running = new Map<number, Promise<Map<string, ItemOutcome>>>();
  const timers = new Map<number, () => void>();

  const list = async (userId: number) =>
    (await store.list<OutboxItem & { key: string }>(`${ITEM}${userId}:`)).map((entry) => {
      keys.set(entry.client_id, entry.key);
      return entry;
    });

  async function changed(userId: number) {
    emit({ type: 'changed', pending: await list(userId) });
  }

  async function remove(item: OutboxItem & { key?: string }) {
    const key = item.key ?? keys.get(item.client_id);
    if (key) await store.delete(key);
    keys.delete(item.client_id);
  }

  function scheduleRetry(userId: number, at: number) {
    if (!options.schedule) return;
    timers.get(userId)?.();
    const cancel = options.schedule(
      () => {
        timers.delete(userId);
        void drain(userId);
      },
      Math.max(0, at - now()),
    );
    timers.set(userId, cancel);
  }

  async function run(userId: number, force: boolean): Promise<Map<string, ItemOutcome>> {
    const outcomes = new Map<string, ItemOutcome>();
    const items = await list(userId);
    for (const item of items) {
      if (!force && item.next_at > now()) {
        scheduleRetry(userId, item.next_at);
        break;
      }
      let version: number | undefined;
      if (item.kind === 'attempt') {
        const known = (await store.get<number>(`${KNOWN}${userId}:${item.attempt_id}`)) ?? 0;
        version = Math.max(item.version, known);
      }
      let outcome: SendOutcome;
      try {
        outcome = await send({ ...item, ...(version === undefined ? {} : { version }) });
      } catch {
        outcome = { state: 'retry' };
      }
      if (outcome.state === 'retry') {
        const tries = item.tries + 1;
        const next = { ...item, tries, next_at: now() + backoffMs(tries, options) };
        await store.put(item.key, next);
        outcomes.set(item.client_id, { state: 'waiting' });
        scheduleRetry(userId, next.next_at);
        break;
      }
      if (outcome.state === 'sent' && outcome.version !== undefined)
        await store.put(`${KNOWN}${userId}:${item.attempt_id}`, outcome.version);
      await remove(item);
      const { key: _key, ...plain } = item;
      if (outcome.state === 'sent') {
        outcomes.set(item.client_id, { state: 'sent', data: outcome.data });
        emit({ type: 'sent', item: plain, data: outcome.data });
      } else {
        outcomes.set(item.client_id, { state: 'refused', status: outcome.status, error: outcome.error });
        emit({ type: 'refused', item: plain, status: outcome.status, error: outcome.error });
      }
    }
    for (const item of items)
      if (!outcomes.has(item.client_id)) outcomes.set(item.client_id, { state: 'waiting' });
    await changed(userId);
    return outcomes;
  }

  function drain(userId: number, o: { force?: boolean } = {}) {
    const force = Boolean(o.force);
    const current = running.get(userId);
    const next = (current ?? Promise.resolve()).then(
      () => run(userId, force),
      () => run(userId, force),
    );
    const tracked = next.finally(() => {
      if (running.get(userId) === tracked) running.delete(userId);
    });
    running.set(userId, tracked);
    return tracked;
  }

  async function enqueue(input: NewOutboxItem): Promise<OutboxItem> {
    const clientId = input.client_id ?? newId();
    const existing = (await list(input.user_id)).find((i) => i.client_id === clientId);
    if (existing) {
      const { key: _key, ...plain } = existing;
      return plain;
    }
    const at = now();
    seq = (seq + 1) % 1_000_000;
    const key = itemKey(input.user_id, at, seq, clientId);
    const item = {
      ...input,
      client_id: clientId,
      queued_at: new Date(at).toISOString(),
      tries: 0,
      next_at: at,
    } as OutboxItem;
    await store.put(key, { ...item, key });
    keys.set(clientId, key);
    await changed(input.user_id);
    return item;
  }

  return {
    enqueue,
    async submit(input) {
      let item: OutboxItem;
      try {
        item = await enqueue(input);
      } catch {
        // The device will not keep it (IndexedDB refused: storage full, a private window): sent once, as before
        // the outbox, so the page still works online; with no answer it is reported as refused (no answer).
        const direct = {
          ...input,
          client_id: input.client_id ?? newId(),
          queued_at: new Date(now()).toISOString(),
          tries: 0,
          next_at: now(),
        } as OutboxItem;
        const outcome = await send(direct).catch((): SendOutcome => ({ state: 'retry' }));
        if (outcome.state === 'sent') return { state: 'sent', data: outcome.data, item: direct };
        if (outcome.state === 'refused') return { ...outcome, item: direct };
        return {
          state: 'refused',
          status: 0,
          error: new TypeError('No answer, and the device could not keep it'),
          item: direct,
        };
      }
      const outcomes = await drain(item.user_id, { force: true });
      return { ...(outcomes.get(item.client_id) ?? { state: 'waiting' }), item };
    },
    drain,
    async pending(userId, attemptId) {
      return (await list(userId))
        .filter((i) => attemptId === undefined || i.attempt_id === attemptId)
        .map(({ key: _key, ...plain }) => plain as OutboxItem);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

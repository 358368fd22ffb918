import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * The cache bus (issue 12 §4): what one server process changed, told to every process on the same PostgreSQL
 * database within milliseconds, so their in-memory caches forget it too (not only after their lifetime).
 *
 * - publish(message) runs this process's subscribers at once (synchronously: a write in this process is seen by the
 *   next read here, as before), then sends the message to the others with NOTIFY on one channel.
 * - One dedicated connection LISTENs (and sends the NOTIFYs, so a busy pool never delays them). It reconnects after
 *   a failure with backoff; messages published meanwhile wait and go out on reconnect. What the others sent while
 *   this process was deaf is unknown, so after a reconnect every cache here is emptied ('resync'). A connection that
 *   died without a word (a network cut) is found by a heartbeat query every HEARTBEAT_MS, answered within
 *   HEARTBEAT_MS or the connection is dropped and made again.
 * - Messages published in the same tick go out together (duplicates once), in payloads under NOTIFY's 8000 bytes.
 * - On the embedded database (one process per data folder) the bus is in-process only.
 *
 * A lower layer (issue 34 §1): the transport knows no capability. Who listens is wired at the top (bootstrap.ts,
 * cluster/process-caches.ts); the http caches subscribe with http/write-aware-cache.ts emptyOnWrites.
 */
export type BusMessage =
  /** A state-changing request ended: callers and remembered reads may have changed (auth, http/read-cache). */
  | { topic: 'writes' }
  /** Compliance rows or results changed: cached scores and drill-downs are stale (compliance/scores-cache). */
  | { topic: 'scores' }
  /** Sign-ins ended: close the sockets opened with them (realtime/socket-registry closeSocketsOf). */
  | { topic: 'sign-out'; which: SignOutWhich; keep?: { sessionId?: string; tokenId?: number } }
  /** Sent to this process's own subscribers only, after the bus was deaf for a while: forget everything. */
  | { topic: 'resync' };

export interface SignOutWhich {
  userId?: number;
  sessionId?: string;
  tokenId?: number;
}

export type BusHandler = (message: BusMessage) => void;

export interface CacheBus {
  /** true when other processes hear this one (PostgreSQL); false on the embedded database. */
  readonly shared: boolean;
  publish(message: BusMessage): void;
  /** Returns the function that unsubscribes. */
  subscribe(handler: BusHandler): () => void;
  close(): Promise<void>;
}

export const CACHE_BUS_CHANNEL = 'cc_cache_bus';
/** The LISTEN connection's name in pg_stat_activity. */
export const CACHE_BUS_APPLICATION_NAME = 'carecompliance cache bus';
const HEARTBEAT_MS = 10_000;
/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; leave room for the envelope. */
const MAX_PAYLOAD_BYTES = 7000;

interface Envelope {
  /** The sending process: its own messages come back to it and are skipped (its subscribers ran at publish). */
  o: string;
  m: BusMessage[];
}

class LocalSubscribers {
  private readonly handlers = new Set<BusHandler>();

  subscribe(handler: BusHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  deliver(message: BusMessage, onError: (error: unknown) => void): void {
    for (const handler of [...this.handlers]) {
      try {
        handler(message);
      } catch (error) {
        onError(error);
      }
    }
  }
}

/** The bus of a single process (the embedded database, the seed CLI against a data folder). */
export function createLocalBus(): CacheBus {
  const local = new LocalSubscribers();
  return {
    shared: false,
    publish: (message) => local.deliver(message, (error) => console.error('cache bus:', error)),
    subscribe: (handler) => local.subscribe(handler),
    close: async () => {},
  };
}

export interface PgBusOptions {
  databaseUrl: string;
  /** Where a lost connection or a failed handler is reported (default console.error). */
  log?: (message: string) => void;
  /** First reconnect delay; doubles up to 5 s. */
  retryMs?: number;
  /** How often the connection is checked, and how long the check may take (default 10 s). */
  heartbeatMs?: number;
}

/**
 * The bus over PostgreSQL LISTEN/NOTIFY. Resolves once the first LISTEN is in place, so a process serves no request
 * before it hears the others.
 */
export async function createPgBus(options: PgBusOptions): Promise<CacheBus> {
  const origin = randomUUID();
  const log = options.log ?? ((message: string) => console.error(message));
  const local = new LocalSubscribers();
  const onHandlerError = (error: unknown) =>
    log(`cache bus: a subscriber failed: ${error instanceof Error ? error.message : String(error)}`);
  const firstRetryMs = options.retryMs ?? 250;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;

  let client: pg.Client | null = null;
  let connected = false;
  let closed = false;
  let retryMs = firstRetryMs;
  let retryTimer: NodeJS.Timeout | null = null;
  let everConnected = false;
  /** Serialised messages waiting to be sent (a Set: the same message twice in one tick goes once). */
  const pending = new Set<string>();
  let flushQueued = false;
  /** One NOTIFY statement at a time on the connection. */
  let sending = false;
  /** The statement on its way (close waits for it). */
  let inFlight: Promise<void> = Promise.resolve();

  const receive = (payload: string | undefined) => {
    if (!payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    if (envelope.o === origin || !Array.isArray(envelope.m)) return;
    for (const message of envelope.m) local.deliver(message, onHandlerError);
  };

  const open = async (): Promise<void> => {
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: CACHE_BUS_APPLICATION_NAME,
      keepAlive: true,
      query_timeout: heartbeatMs,
    });
    next.on('notification', (n) => {
      if (n.channel === CACHE_BUS_CHANNEL) receive(n.payload);
    });
    next.on('error', (error) => lost(next, error));
    next.on('end', () => lost(next, null));
    try {
      await next.connect();
      await next.query(`LISTEN ${CACHE_BUS_CHANNEL}`);
    } catch (error) {
      next.removeAllListeners('end');
      next.on('error', () => {});
      await next.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    connected = true;
    retryMs = firstRetryMs;
    // Deaf until now: whatever the others changed meanwhile is unknown here.
    if (everConnected) local.deliver({ topic: 'resync' }, onHandlerError);
    everConnected = true;
    flush();
  };

  const lost = (which: pg.Client, error: Error | null) => {
    if (which !== client || closed) return;
    client = null;
    connected = false;
    which.removeAllListeners('end');
    which.on('error', () => {});
    void which.end().catch(() => {});
    log(`cache bus: the LISTEN connection ended${error ? ` (${error.message})` : ''}; reconnecting.`);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      open().catch((error: Error) => {
        log(`cache bus: cannot reconnect (${error.message}); trying again in ${retryMs} ms.`);
        retryMs = Math.min(retryMs * 2, 5000);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  };

  const flush = () => {
    flushQueued = false;
    const sender = client;
    if (sending || !connected || !sender || pending.size === 0) return;
    const batches: string[] = [];
    let batch: string[] = [];
    let size = 0;
    for (const message of pending) {
      if (batch.length > 0 && size + message.length + 1 > MAX_PAYLOAD_BYTES) {
        batches.push(`{"o":"${origin}","m":[${batch.join(',')}]}`);
        batch = [];
        size = 0;
      }
      batch.push(message);
      size += message.length + 1;
    }
    if (batch.length > 0) batches.push(`{"o":"${origin}","m":[${batch.join(',')}]}`);
    const sent = [...pending];
    pending.clear();
    // One statement for the whole burst (a client runs one query at a time).
    const calls = batches.map((_, i) => `pg_notify($1, $${i + 2})`).join(', ');
    sending = true;
    inFlight = sender.query(`SELECT ${calls}`, [CACHE_BUS_CHANNEL, ...batches]).then(
      () => {
        sending = false;
        flush(); // what was published while this one was on its way
      },
      (error: Error) => {
        sending = false;
        // Not sent: kept for the next connection (open() flushes them).
        for (const message of sent) pending.add(message);
        lost(sender, error);
      },
    );
  };

  await open();
  const heartbeat = setInterval(() => {
    const checked = client;
    if (!connected || !checked || sending) return;
    sending = true;
    checked.query('SELECT 1').then(
      () => {
        sending = false;
        flush();
      },
      (error: Error) => {
        sending = false;
        lost(checked, error);
      },
    );
  }, heartbeatMs);
  heartbeat.unref();

  return {
    shared: true,
    publish(message) {
      local.deliver(message, onHandlerError);
      if (message.topic === 'resync' || closed) return;
      pending.add(JSON.stringify(message));
      if (!flushQueued) {
        flushQueued = true;
        setImmediate(flush);
      }
    },
    subscribe: (handler) => local.subscribe(handler),
    async close() {
      closed = true;
      clearInterval(heartbeat);
      if (retryTimer) clearTimeout(retryTimer);
      // What this process published last (a write just before a graceful stop, the seed CLI's) still goes out.
      flush();
      await inFlight;
      const last = client;
      client = null;
      connected = false;
      if (last) {
        last.removeAllListeners('end');
        last.on('error', () => {});
        await last.end().catch(() => {});
      }
    },
  };
}

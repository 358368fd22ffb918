import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { constants } from 'node:os';
import { RESTART_CLOSE_CODE, RESTART_CLOSE_REASON } from '@cc/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';

/**
 * Graceful shutdown (issue 12 §3). On SIGTERM or SIGINT the process drains instead of dropping what it holds:
 * 1. every websocket is closed with 1012 "Service Restart" and a reason the web client shows while it reconnects
 *    (to this process's successor, or another behind the proxy); the job worker claims no more jobs and finishes
 *    the one in hand (a job cut by the bound below stays 'running' and is claimed again after its timeout);
 * 2. connections waiting in the kernel's accept queue are taken in and their requests read (acceptQueued), then
 *    the listening socket closes: new connections are refused, so a proxy sends them elsewhere;
 * 3. every request received is answered in full (exports included), each with `Connection: close`; keep-alive
 *    connections close as soon as they are idle;
 * 4. then the rest of the app (its onClose hooks) and, last, the database.
 * The whole wait is bounded (SHUTDOWN_TIMEOUT_SECONDS): then the connections left (a half-sent request, a client
 * that never answers the close) are destroyed and the process exits 1. A second signal (250 ms or more after the
 * first) exits at once (128 + signal).
 * One log line when draining starts, one when it ends, with counts.
 *
 * Why not app.close() alone: Fastify marks itself closing first (every request then gets 503) and Node's
 * server.close() closes "idle" connections, which include those accepted but not read yet: their requests were
 * reset (20 of 20 reads in a burst on the code before this), and a half-sent request held server.close() for
 * minutes (requestTimeout).
 */

export interface DrainTarget {
  server: Server;
  /** The websockets open on this process (@fastify/websocket's server). */
  websockets: () => Iterable<WebSocket>;
  log: FastifyBaseLogger;
  timeoutMs: number;
  /** Stops background work (the job worker, timers); runs while the requests drain. */
  stopWork: () => Promise<void>;
  /** After the requests: the app's own close (Fastify onClose hooks). */
  closeApp: () => Promise<void>;
  /** Last: the database. */
  closeDatabase: () => Promise<void>;
  exit?: (code: number) => void;
}

interface Connection {
  /** Requests received and not answered yet. */
  active: number;
  answered: number;
  /** socket.bytesRead when its last answer was sent: more since means a next request has begun. */
  readAtRest: number;
  accepted: number;
}

/** A connection that has sent nothing yet is left this long (its request may be on its way) before it is closed. */
const SILENT_GRACE_MS = 250;

/**
 * Connections and requests of one HTTP server, from the moment it is attached. Node's closeIdleConnections() is not
 * used: it counts as idle a connection whose request bytes are not read yet, and one whose answer is ended but still
 * being written (res.finished), so it reset both.
 */
function trackServer(server: Server) {
  const connections = new Map<Socket, Connection>();
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  let answered = 0;
  let accepted = 0;
  server.on('connection', (socket: Socket) => {
    accepted++;
    connections.set(socket, { active: 0, answered: 0, readAtRest: 0, accepted: performance.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // Before Fastify's own listener: a request that arrives while draining is answered, then its connection closes.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const connection = connections.get(req.socket as Socket);
    if (connection) connection.active++;
    inFlight.add(res);
    if (draining) res.shouldKeepAlive = false;
    res.once('close', () => {
      inFlight.delete(res);
      if (draining && res.writableFinished) answered++;
      if (!connection) return;
      connection.active--;
      connection.answered++;
      connection.readAtRest = req.socket.bytesRead;
    });
  });
  return {
    connections,
    inFlight,
    get accepted() {
      return accepted;
    },
    get answered() {
      return answered;
    },
    startDraining() {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
    },
    /**
     * Closes the connections nothing is happening on: a keep-alive one between requests, and one that has sent no
     * byte since it was accepted. Call it after a poll of the event loop (from setImmediate), so that bytes waiting
     * in the kernel have been read: closing a socket with unread bytes resets it. Answers how many it closed.
     */
    closeIdle(): number {
      let closed = 0;
      const now = performance.now();
      for (const [socket, c] of connections) {
        const resting = c.answered
          ? c.active === 0 && socket.bytesRead === c.readAtRest
          : socket.bytesRead === 0 && now - c.accepted >= SILENT_GRACE_MS;
        if (!resting || socket.writableLength > 0) continue;
        socket.destroy();
        closed++;
      }
      return closed;
    },
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Takes in the connections waiting in the kernel's accept queue: Node accepts one per turn of the event loop, so
 * turn until QUIET_TURNS turns in a row bring none (or `capMs` passes, under a load that keeps coming), then one
 * more turn reads what the last ones sent. Their clients sent their requests before we stopped listening: closing
 * the listening socket with them still queued resets them (20 of 20 reads in a burst did on the code before).
 */
const QUIET_TURNS = 3;
async function acceptQueued(tracker: { accepted: number }, capMs: number): Promise<void> {
  const until = performance.now() + capMs;
  let quiet = 0;
  let seen = tracker.accepted;
  while (quiet < QUIET_TURNS && performance.now() < until) {
    await nextTurn();
    quiet = tracker.accepted === seen ? quiet + 1 : 0;
    seen = tracker.accepted;
  }
}

/** A signal repeated within this many ms of the first is the same one, passed on twice. */
const REPEAT_MS = 250;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Installs the SIGTERM / SIGINT handlers that drain `target` (see above). */
export function drainOnSignals(target: DrainTarget): void {
  const exit = target.exit ?? ((code: number) => process.exit(code));
  const tracker = trackServer(target.server);
  let started: number | null = null;
  /** Set once the bound has passed: from then on only cutShort exits (with 1), even if the drain ends meanwhile. */
  let cut = false;
  let database: Promise<void> | null = null;
  const closeDatabase = () => {
    database ??= target.closeDatabase();
    return database;
  };

  const drain = async (signal: NodeJS.Signals) => {
    if (started !== null) {
      // One Ctrl-C can arrive twice (from the terminal and from a wrapper passing it on): that is not a second one.
      if (performance.now() - started < REPEAT_MS) return;
      target.log.warn({ signal }, `second ${signal}: exiting now`);
      return exit(128 + (constants.signals[signal] ?? 15));
    }
    started = performance.now();
    const requests = tracker.inFlight.size;
    let sockets = 0;
    /** Closes the open websockets with 1012; again while draining, for any opened meanwhile. */
    const closeWebsockets = () => {
      for (const socket of target.websockets()) {
        if (socket.readyState !== socket.OPEN) continue;
        sockets++;
        socket.close(RESTART_CLOSE_CODE, RESTART_CLOSE_REASON);
      }
    };
    closeWebsockets();
    target.log.info(
      { signal, requests, websockets: sockets, connections: tracker.connections.size },
      `draining: ${signal}, ${plural(requests, 'request')} in progress, ${plural(sockets, 'websocket')} closed with 1012; waiting at most ${target.timeoutMs / 1000} s`,
    );
    tracker.startDraining();
    const bound = setTimeout(() => void cutShort(), target.timeoutMs);
    const work = target
      .stopWork()
      .catch((err) => target.log.error({ err }, 'stopping the job worker failed'));

    await acceptQueued(tracker, target.timeoutMs / 2);
    // Not server.close(): it would also close "idle" connections, which include unread ones (see trackServer).
    const closed = new Promise<void>((resolve) =>
      NetServer.prototype.close.call(target.server, () => resolve()),
    );
    await nextTurn();
    // Idle connections now, and those that go idle after their last answer (checked every 50 ms, after a poll).
    let idle = tracker.closeIdle();
    const reaper = setInterval(
      () =>
        setImmediate(() => {
          idle += tracker.closeIdle();
          closeWebsockets();
        }),
      50,
    );
    await closed;
    clearInterval(reaper);
    await work;
    await target.closeApp().catch((err) => target.log.error({ err }, 'closing the app failed'));
    await closeDatabase();
    clearTimeout(bound);
    // Cutting the connections at the bound is also what lets a stalled drain end: its exit is cutShort's.
    if (cut) return;
    target.log.info(
      { answered: tracker.answered, idle, ms: Math.round(performance.now() - started) },
      `drained in ${Math.round(performance.now() - started)} ms: ${plural(tracker.answered, 'request')} answered, ${plural(sockets, 'websocket')} and ${plural(idle, 'idle connection')} closed`,
    );
    exit(0);
  };

  /** The bound passed: cut what is left, close the database if it closes quickly, exit 1. */
  const cutShort = async () => {
    cut = true;
    const connections = tracker.connections.size;
    const unanswered = tracker.inFlight.size;
    target.log.warn(
      { connections, requests: unanswered },
      `drain cut short after ${target.timeoutMs / 1000} s: ${plural(unanswered, 'request')} unanswered, ${plural(connections, 'connection')} cut`,
    );
    for (const socket of tracker.connections.keys()) socket.destroy();
    for (const socket of target.websockets()) socket.terminate();
    const quick = new Promise<void>((resolve) => setTimeout(resolve, 1000).unref());
    await Promise.race([closeDatabase().catch(() => {}), quick]);
    exit(1);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void drain(signal));
}

import {
  MATRIX_RECONNECT_TRIES,
  MATRIX_SUBSCRIBE_RETRIES,
  MATRIX_WS_PATH,
  type MatrixFiltersInput,
  MatrixMessages,
  matrixReconnectWait,
  matrixSubscribeWait,
  RESTART_CLOSE_CODE,
  type ServerMessage,
} from '@cc/contracts';
import { apiHooks } from '../app/api';
import { apiOrigin, isMobile } from '../app/env';

/**
 * The socket's address: on the API's host (VITE_API_ORIGIN, as every API call; the page's own host when unset),
 * ws for http and wss for https. The mobile shell's page (capacitor://localhost, https://localhost) serves no API,
 * so the page's host would never answer there (issue 31 §4).
 */
export function matrixSocketUrl(
  actingAs?: string | null,
  origin = apiOrigin() || window.location.origin,
): string {
  const url = new URL(MATRIX_WS_PATH, `${origin}/`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (actingAs) url.searchParams.set('actingAs', actingAs);
  return url.toString();
}

/**
 * The first message in mobile mode (spec 2 §4): the bearer token, since the shell sends no cookie, and the acting-as
 * slug with it. Null on the web, where the upgrade request's session cookie authenticates.
 */
export function matrixAuthMessage(actingAs?: string | null): string | null {
  if (!isMobile()) return null;
  const token = apiHooks.getToken();
  if (!token) return null;
  return JSON.stringify({ type: 'auth', token, ...(actingAs ? { actingAs } : {}) });
}

/**
 * The matrix channel client (spec 2 §4, §9): opens the socket on the API host (matrixSocketUrl; on the web the
 * session cookie authenticates and the acting-as slug goes in the query, in mobile mode the first message is the
 * bearer `auth`, followed at once by the subscribe: the server queues it until the token is checked), subscribes,
 * and retries the subscribe up to MATRIX_SUBSCRIBE_RETRIES times,
 * waiting 1000 ms × attempt² each time, until the server acknowledges. Messages go to onMessage; a failure to
 * connect or to be acknowledged goes to onError (the page shows "too large / no response").
 *
 * A server that stops closes the socket with 1012 (issue 12 §3); a cut connection closes it with 1005 or 1006.
 * Either before the matrix is complete means the stream must start again, never a silent half matrix: onStatus
 * tells the user "The server is restarting — reconnecting…", the client reconnects after matrixReconnectWait(n)
 * (0.5 s, 1 s, 2 s, … 8 s), and once the new stream is acknowledged onRestart drops what had arrived and onStatus
 * clears the notice. After MATRIX_RECONNECT_TRIES failed tries, onError says the server has not come back.
 */
export interface MatrixSubscription {
  close(): void;
}

/** Close codes after which the stream is opened again: a restart, going away, a cut, a server error, try later. */
const RECONNECT_CODES = new Set([1001, 1005, 1006, 1011, RESTART_CLOSE_CODE, 1013]);

export function subscribeMatrix(opts: {
  filters: MatrixFiltersInput;
  actingAs?: string | null;
  onMessage: (m: ServerMessage) => void;
  onError: (message: string, status?: number) => void;
  /** A notice while reconnecting (role=status on the page); null when the stream runs again. */
  onStatus?: (notice: string | null) => void;
  /** The stream starts over after a reconnect: forget what the cut one sent. */
  onRestart?: () => void;
  WebSocketImpl?: typeof WebSocket;
  wait?: (attempt: number) => number;
  reconnectWait?: (attempt: number) => number;
}): MatrixSubscription {
  const Impl = opts.WebSocketImpl ?? WebSocket;
  const url = matrixSocketUrl(opts.actingAs);
  const id = `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const wait = opts.wait ?? matrixSubscribeWait;
  const reconnectWait = opts.reconnectWait ?? matrixReconnectWait;
  let ws: WebSocket;
  let acked = false;
  let closed = false;
  /** progress 1 arrived: the matrix is whole, a later close changes nothing. */
  let complete = false;
  /** The server answered with an error (shown already): a close after it says nothing more. */
  let failed = false;
  let attempt = 0;
  /** Reconnect tries since the last acknowledged stream (0: not reconnecting). */
  let reconnects = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const subscribe = () => {
    if (closed || acked) return;
    if (attempt >= MATRIX_SUBSCRIBE_RETRIES) {
      opts.onError('No response', 504);
      return;
    }
    attempt++;
    ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id, filters: opts.filters }));
    timer = setTimeout(subscribe, wait(attempt));
  };

  const reconnect = () => {
    clearTimeout(timer);
    if (reconnects >= MATRIX_RECONNECT_TRIES) {
      opts.onStatus?.(null);
      opts.onError(MatrixMessages.notBack, 503);
      return;
    }
    reconnects++;
    opts.onStatus?.(MatrixMessages.restarting);
    timer = setTimeout(connect, reconnectWait(reconnects));
  };

  const connect = () => {
    if (closed) return;
    const socket = new Impl(url);
    ws = socket;
    acked = false;
    attempt = 0;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      // Read at each connect: a reconnect after a token refresh sends the current one.
      const auth = matrixAuthMessage(opts.actingAs);
      if (auth) socket.send(auth);
      subscribe();
    };
    socket.onmessage = (event) => {
      if (socket !== ws || closed) return;
      const message = JSON.parse(String(event.data)) as ServerMessage | { type: 'authenticated' };
      if (message.type === 'authenticated') return;
      if ('id' in message && message.id !== undefined && message.id !== id) return;
      if (message.type === 'subscribed') {
        acked = true;
        clearTimeout(timer);
        if (reconnects > 0) {
          reconnects = 0;
          opts.onRestart?.();
          opts.onStatus?.(null);
        }
      }
      if (message.type === 'error') {
        clearTimeout(timer);
        if (reconnects > 0) opts.onStatus?.(null);
        failed = true;
        opts.onError(message.message, message.status);
        return;
      }
      if (message.type === 'progress' && message.progress >= 1) complete = true;
      opts.onMessage(message);
    };
    socket.onerror = () => {
      // A cut after the socket opened, or a failed reconnect, is the close handler's to handle.
      if (!closed && !opened && reconnects === 0) opts.onError('No response', 504);
    };
    socket.onclose = (event) => {
      if (socket !== ws || closed) return;
      clearTimeout(timer);
      if (complete || failed) return;
      if (RECONNECT_CODES.has(event.code) && (opened || reconnects > 0)) return reconnect();
      if (reconnects > 0) {
        // Closed on the way back for another reason (a policy, a sign-in that ended): not a restart.
        opts.onStatus?.(null);
        opts.onError(MatrixMessages.notConnected, 503);
      } else if (!acked && event.code !== 1000) opts.onError('No response', 504);
    };
  };

  connect();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'unsubscribe', id }));
      ws.close(1000);
    },
  };
}

import {
  MATRIX_SUBSCRIBE_RETRIES,
  MATRIX_WS_PATH,
  type MatrixFiltersInput,
  matrixSubscribeWait,
  type ServerMessage,
} from '@cc/contracts';

/**
 * The matrix channel client (spec 2 §4, §9): opens the socket (same origin, the session cookie authenticates; the
 * acting-as slug goes in the query), subscribes, and retries the subscribe up to MATRIX_SUBSCRIBE_RETRIES times,
 * waiting 1000 ms × attempt² each time, until the server acknowledges. Messages go to onMessage; a failure to
 * connect or to be acknowledged goes to onError (the page shows "too large / no response").
 */
export interface MatrixSubscription {
  close(): void;
}

export function subscribeMatrix(opts: {
  filters: MatrixFiltersInput;
  actingAs?: string | null;
  onMessage: (m: ServerMessage) => void;
  onError: (message: string, status?: number) => void;
  WebSocketImpl?: typeof WebSocket;
  wait?: (attempt: number) => number;
}): MatrixSubscription {
  const Impl = opts.WebSocketImpl ?? WebSocket;
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = opts.actingAs ? `?actingAs=${encodeURIComponent(opts.actingAs)}` : '';
  const ws = new Impl(`${proto}://${window.location.host}${MATRIX_WS_PATH}${query}`);
  const id = `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const wait = opts.wait ?? matrixSubscribeWait;
  let acked = false;
  let closed = false;
  let attempt = 0;
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

  ws.onopen = () => subscribe();
  ws.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as ServerMessage;
    if ('id' in message && message.id !== undefined && message.id !== id) return;
    if (message.type === 'subscribed') {
      acked = true;
      clearTimeout(timer);
    }
    if (message.type === 'error') {
      clearTimeout(timer);
      opts.onError(message.message, message.status);
      return;
    }
    opts.onMessage(message);
  };
  ws.onerror = () => {
    if (!closed) opts.onError('No response', 504);
  };
  ws.onclose = (event) => {
    clearTimeout(timer);
    if (!closed && !acked && event.code !== 1000) opts.onError('No response', 504);
  };
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'unsubscribe', id }));
      ws.close(1000);
    },
  };
}

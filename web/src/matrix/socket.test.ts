import { MATRIX_RECONNECT_TRIES, MatrixMessages } from '@cc/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiHooks } from '../app/api';
import { FakeSocket } from '../test/fake-socket';
import { matrixSocketUrl, subscribeMatrix } from './socket';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('subscribeMatrix', () => {
  it('retries subscribe 5 times waiting 1000 ms × attempt², then reports no response', () => {
    vi.useFakeTimers();
    const onError = vi.fn();
    subscribeMatrix({ filters: {}, onMessage: () => {}, onError, WebSocketImpl: FakeSocket as never });
    const ws = FakeSocket.last;
    ws.onopen?.();
    expect(ws.sent).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(ws.sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ws.sent).toHaveLength(2);
    vi.advanceTimersByTime(4000);
    expect(ws.sent).toHaveLength(3);
    vi.advanceTimersByTime(9000 + 16000);
    expect(ws.sent).toHaveLength(5);
    expect(onError).not.toHaveBeenCalled();
    vi.advanceTimersByTime(25000);
    expect(ws.sent).toHaveLength(5);
    expect(onError).toHaveBeenCalledWith('No response', 504);
  });

  it('stops retrying once acknowledged and passes data on', () => {
    vi.useFakeTimers();
    const onMessage = vi.fn();
    subscribeMatrix({
      filters: { compliance_type: 'all' },
      actingAs: 'oak',
      onMessage,
      onError: () => {},
      WebSocketImpl: FakeSocket as never,
    });
    const ws = FakeSocket.last;
    expect(ws.url).toContain('/api/ws?actingAs=oak');
    ws.onopen?.();
    const { id, filters } = JSON.parse(ws.sent[0] as string);
    expect(filters).toEqual({ compliance_type: 'all' });
    ws.onmessage?.({ data: JSON.stringify({ type: 'subscribed', id }) });
    vi.advanceTimersByTime(60_000);
    expect(ws.sent).toHaveLength(1);
    ws.onmessage?.({ data: JSON.stringify({ type: 'progress', id, progress: 1 }) });
    ws.onmessage?.({ data: JSON.stringify({ type: 'progress', id: 'other', progress: 0.5 }) });
    expect(onMessage).toHaveBeenCalledTimes(2);
  });
});

describe('a server restart mid-stream (issue 12 §3)', () => {
  const start = () => {
    FakeSocket.all = [];
    const calls = { status: [] as (string | null)[], restarts: 0, errors: [] as string[], messages: 0 };
    const sub = subscribeMatrix({
      filters: {},
      onMessage: () => calls.messages++,
      onError: (m) => calls.errors.push(m),
      onStatus: (n) => calls.status.push(n),
      onRestart: () => calls.restarts++,
      WebSocketImpl: FakeSocket as never,
    });
    return { calls, sub };
  };

  it.each([1012, 1006, 1005])(
    'close %i before the matrix is complete: "restarting", a reconnect after 0.5 s, the stream starts over',
    (code) => {
      vi.useFakeTimers();
      const { calls } = start();
      const first = FakeSocket.last;
      const id = first.openAndAck();
      first.receive({ type: 'progress', id, progress: 0.4 });
      first.closeWith(code);
      expect(calls.status).toEqual([MatrixMessages.restarting]);
      expect(calls.errors).toEqual([]);
      expect(FakeSocket.all).toHaveLength(1);
      vi.advanceTimersByTime(499);
      expect(FakeSocket.all).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(2);
      const second = FakeSocket.last;
      expect(second.url).toBe(first.url);
      // The server is not back yet: the try fails, the next one waits twice as long.
      second.onerror?.();
      second.closeWith(1006);
      expect(calls.errors).toEqual([]);
      vi.advanceTimersByTime(999);
      expect(FakeSocket.all).toHaveLength(2);
      vi.advanceTimersByTime(1);
      const third = FakeSocket.last;
      expect(calls.restarts).toBe(0);
      third.openAndAck();
      // Acknowledged again: what the cut stream sent is dropped, the notice cleared.
      expect(calls.restarts).toBe(1);
      expect(calls.status.at(-1)).toBeNull();
      third.receive({ type: 'progress', id, progress: 1 });
      expect(calls.messages).toBe(4); // subscribed, progress, subscribed again, progress
    },
  );

  it('says plainly when the server does not come back', () => {
    vi.useFakeTimers();
    const { calls } = start();
    FakeSocket.last.openAndAck();
    FakeSocket.last.closeWith(1012);
    for (let n = 1; n <= MATRIX_RECONNECT_TRIES; n++) {
      vi.advanceTimersByTime(8000);
      expect(FakeSocket.all).toHaveLength(n + 1);
      FakeSocket.last.closeWith(1006);
    }
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(MATRIX_RECONNECT_TRIES + 1);
    expect(calls.errors).toEqual([MatrixMessages.notBack]);
    expect(calls.status.at(-1)).toBeNull();
  });

  it('a close after the matrix is complete, or by the page, changes nothing', () => {
    vi.useFakeTimers();
    const { calls, sub } = start();
    const id = FakeSocket.last.openAndAck();
    FakeSocket.last.receive({ type: 'progress', id, progress: 1 });
    FakeSocket.last.closeWith(1012);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(calls.status).toEqual([]);

    const other = start();
    other.sub.close();
    FakeSocket.last.closeWith(1006);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(other.calls).toMatchObject({ status: [], errors: [] });
    sub.close();
  });

  it('a sign-out (4401) is not a restart: no reconnect', () => {
    vi.useFakeTimers();
    const { calls } = start();
    FakeSocket.last.openAndAck();
    FakeSocket.last.receive({ type: 'error', status: 401, message: 'Unauthenticated.' });
    FakeSocket.last.closeWith(4401);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    expect(calls.errors).toEqual(['Unauthenticated.']);
    expect(calls.status).toEqual([]);
  });
});

// issue 31 §4: the mobile build's page (capacitor://localhost) serves no API; the socket goes where the API calls go.
describe('the socket address and the mobile auth message', () => {
  it('derives the socket URL from the API origin: https → wss, http → ws, acting-as in the query', () => {
    expect(matrixSocketUrl(null, 'https://api.example.com')).toBe('wss://api.example.com/api/ws');
    expect(matrixSocketUrl('oak & ash', 'http://10.0.2.2:3000')).toBe(
      'ws://10.0.2.2:3000/api/ws?actingAs=oak+%26+ash',
    );
  });

  it('opens on VITE_API_ORIGIN when it is set, on the page host otherwise', () => {
    subscribeMatrix({
      filters: {},
      onMessage: () => {},
      onError: () => {},
      WebSocketImpl: FakeSocket as never,
    });
    expect(FakeSocket.last.url).toBe(`ws://${window.location.host}/api/ws`);
    vi.stubEnv('VITE_API_ORIGIN', 'https://api.example.com/');
    subscribeMatrix({
      filters: {},
      onMessage: () => {},
      onError: () => {},
      WebSocketImpl: FakeSocket as never,
    });
    expect(FakeSocket.last.url).toBe('wss://api.example.com/api/ws');
  });

  it('mobile mode: sends the bearer auth (with acting-as) first, then the subscribe without waiting', () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    vi.stubEnv('VITE_API_ORIGIN', 'https://api.example.com');
    vi.spyOn(apiHooks, 'getToken').mockReturnValue('tkn-1');
    const onMessage = vi.fn();
    subscribeMatrix({
      filters: { compliance_type: 'all' },
      actingAs: 'oak',
      onMessage,
      onError: () => {},
      WebSocketImpl: FakeSocket as never,
    });
    const ws = FakeSocket.last;
    expect(ws.url).toBe('wss://api.example.com/api/ws?actingAs=oak');
    ws.onopen?.();
    const sent = ws.sent.map((m) => JSON.parse(m));
    expect(sent[0]).toEqual({ type: 'auth', token: 'tkn-1', actingAs: 'oak' });
    expect(sent[1]).toMatchObject({
      type: 'subscribe',
      channel: 'matrix',
      filters: { compliance_type: 'all' },
    });
    // The server's `authenticated` is not a matrix message for the page.
    ws.receive({ type: 'authenticated' });
    ws.receive({ type: 'subscribed', id: sent[1].id });
    expect(onMessage.mock.calls.map(([m]) => m.type)).toEqual(['subscribed']);
  });

  it('web mode: no auth message, the session cookie authenticates', () => {
    vi.spyOn(apiHooks, 'getToken').mockReturnValue('tkn-1');
    subscribeMatrix({
      filters: {},
      onMessage: () => {},
      onError: () => {},
      WebSocketImpl: FakeSocket as never,
    });
    FakeSocket.last.onopen?.();
    expect(FakeSocket.last.sent.map((m) => JSON.parse(m).type)).toEqual(['subscribe']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { subscribeMatrix } from './socket';

class FakeSocket {
  static last: FakeSocket;
  OPEN = 1;
  readyState = 1;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(public url: string) {
    FakeSocket.last = this;
  }
  send(s: string) {
    this.sent.push(s);
  }
  close() {}
}

afterEach(() => vi.useRealTimers());

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

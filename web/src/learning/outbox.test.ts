import { describe, expect, it } from 'vitest';
import { memoryStore } from '../native/offline/kv';
import { backoffMs, createOutbox, type OutboxEvent, type OutboxItem, type SendOutcome } from './outbox';

/** Issue 31 §2: the attempt player's outbox keeps each write until the server has it, retried with backoff. */
function world(
  script: (item: OutboxItem & { version?: number }, n: number) => SendOutcome | Promise<SendOutcome>,
) {
  const store = memoryStore();
  let clock = 1_000_000;
  let ids = 0;
  const sent: (OutboxItem & { version?: number })[] = [];
  const scheduled: number[] = [];
  const events: OutboxEvent[] = [];
  const outbox = createOutbox({
    store,
    now: () => clock,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
    jitter: 0,
    schedule: (_fn, ms) => {
      scheduled.push(ms);
      return () => undefined;
    },
    send: async (item) => {
      sent.push(item);
      return script(item, sent.length);
    },
  });
  outbox.subscribe((e) => events.push(e));
  return {
    store,
    outbox,
    sent,
    scheduled,
    events,
    tick: (ms: number) => {
      clock += ms;
    },
  };
}

const step = (topic: number) => ({
  kind: 'attempt' as const,
  user_id: 7,
  attempt_id: 3,
  version: 4,
  body: { completed_topic_id: topic },
});

describe('backoffMs', () => {
  it('doubles from the base up to the cap, and jitters within the spread', () => {
    const o = { baseMs: 1000, maxMs: 8000, jitter: 0 };
    expect([1, 2, 3, 4, 5, 9].map((t) => backoffMs(t, o))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffMs(1, { ...o, jitter: 0.2, random: () => 0 })).toBe(800);
    expect(backoffMs(1, { ...o, jitter: 0.2, random: () => 1 })).toBe(1200);
  });
});

describe('the attempt outbox', () => {
  it('sends at once when it can: the write leaves the outbox with the server answer', async () => {
    const w = world((item) => ({ state: 'sent', data: { topic: item.kind }, version: 5 }));
    const result = await w.outbox.submit(step(10));
    expect(result.state).toBe('sent');
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0]?.client_id).toMatch(/^0{8}-/);
    expect(await w.outbox.pending(7)).toEqual([]);
    expect(w.events.some((e) => e.type === 'sent' && e.item.client_id === result.item.client_id)).toBe(true);
  });

  it('keeps a write with no answer, retries with growing waits, and sends it once with the same client id', async () => {
    let online = false;
    const w = world(() => {
      if (!online) throw new TypeError('Failed to fetch');
      return { state: 'sent', data: null, version: 5 };
    });
    const first = await w.outbox.submit(step(10));
    expect(first.state).toBe('waiting');
    expect(await w.outbox.pending(7)).toHaveLength(1);
    expect(w.scheduled).toEqual([2000]);
    // Not due yet: a plain drain (the timer, not the learner) sends nothing.
    await w.outbox.drain(7);
    expect(w.sent).toHaveLength(1);
    w.tick(2000);
    await w.outbox.drain(7);
    expect(w.sent).toHaveLength(2);
    expect(w.scheduled.at(-1)).toBe(4000);
    w.tick(4000);
    await w.outbox.drain(7);
    expect(w.scheduled.at(-1)).toBe(8000);
    const [kept] = await w.outbox.pending(7);
    expect(kept?.tries).toBe(3);
    // The signal returns (the `online` event forces a drain): sent, with the id it was made with.
    online = true;
    const outcomes = await w.outbox.drain(7, { force: true });
    expect(outcomes.get(first.item.client_id)).toEqual({ state: 'sent', data: null });
    expect(new Set(w.sent.map((s) => s.client_id))).toEqual(new Set([first.item.client_id]));
    expect(await w.outbox.pending(7)).toEqual([]);
  });

  it('keeps one entry per client id (a second enqueue of the same id adds nothing)', async () => {
    const w = world(() => ({ state: 'retry' }));
    const a = await w.outbox.enqueue({ ...step(10), client_id: '11111111-1111-4111-8111-111111111111' });
    const b = await w.outbox.enqueue({ ...step(11), client_id: '11111111-1111-4111-8111-111111111111' });
    expect(b).toEqual(a);
    const pending = await w.outbox.pending(7);
    expect(pending).toHaveLength(1);
    expect(pending[0]?.kind === 'attempt' && pending[0].body.completed_topic_id).toBe(10);
    // Survives a new outbox over the same store (a reload).
    const again = createOutbox({ store: w.store, send: async () => ({ state: 'retry' }) });
    expect(await again.pending(7)).toHaveLength(1);
  });

  it('sends in order, stops at the first write with no answer, and moves later steps onto the new version', async () => {
    let calls = 0;
    const w = world((item) => {
      calls += 1;
      if (calls === 2) return { state: 'retry' };
      return { state: 'sent', data: item.client_id, version: (item.version ?? 0) + 1 };
    });
    // Three steps made offline on version 4.
    for (const t of [10, 11, 12]) await w.outbox.enqueue(step(t));
    await w.outbox.drain(7, { force: true });
    expect(w.sent.map((s) => (s.kind === 'attempt' ? [s.body.completed_topic_id, s.version] : null))).toEqual(
      [
        [10, 4],
        [11, 5],
      ],
    );
    expect((await w.outbox.pending(7)).map((i) => i.kind === 'attempt' && i.body.completed_topic_id)).toEqual(
      [11, 12],
    );
    await w.outbox.drain(7, { force: true });
    expect(
      w.sent.slice(2).map((s) => (s.kind === 'attempt' ? [s.body.completed_topic_id, s.version] : null)),
    ).toEqual([
      [11, 5],
      [12, 6],
    ]);
    expect(await w.outbox.pending(7)).toEqual([]);
  });

  it('drops a refused write (resending will not change it) and hands the refusal to the page', async () => {
    const w = world(() => ({ state: 'refused', status: 409, error: 'conflict' }));
    const result = await w.outbox.submit(step(10));
    expect(result).toMatchObject({ state: 'refused', status: 409, error: 'conflict' });
    expect(await w.outbox.pending(7)).toEqual([]);
    expect(w.events.some((e) => e.type === 'refused')).toBe(true);
  });

  it('runs one drain at a time: two at once never send the same write twice', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const w = world(async () => {
      await gate;
      return { state: 'sent', data: null, version: 5 };
    });
    await w.outbox.enqueue(step(10));
    const one = w.outbox.drain(7, { force: true });
    const two = w.outbox.drain(7, { force: true });
    release();
    await Promise.all([one, two]);
    expect(w.sent).toHaveLength(1);
  });

  it('keeps each user to their own writes', async () => {
    const w = world(() => ({ state: 'retry' }));
    await w.outbox.enqueue(step(10));
    await w.outbox.enqueue({ ...step(10), user_id: 8 });
    await w.outbox.drain(7, { force: true });
    expect(w.sent.map((s) => s.user_id)).toEqual([7]);
    expect(await w.outbox.pending(8)).toHaveLength(1);
  });
});

describe('a device that will not keep the write', () => {
  it('sends it once directly (the page still works online) and reports no answer as refused, not kept', async () => {
    const broken = memoryStore();
    broken.put = async () => {
      throw new DOMException('QuotaExceededError');
    };
    let answer: SendOutcome | Error = { state: 'sent', data: 'ok' };
    const outbox = createOutbox({
      store: broken,
      send: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    expect(await outbox.submit(step(10))).toMatchObject({ state: 'sent', data: 'ok' });
    answer = new TypeError('Failed to fetch');
    expect(await outbox.submit(step(11))).toMatchObject({ state: 'refused', status: 0 });
    expect(await outbox.pending(7)).toEqual([]);
  });
});

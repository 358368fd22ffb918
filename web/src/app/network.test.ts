import { afterEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { networkStore } from './network';

afterEach(() => {
  vi.unstubAllGlobals();
  networkStore.set({ online: true, reachable: true });
});

// issue 31 §3: the start page shows what the device holds, instead of errors, when no answer comes.
describe('network state', () => {
  it('a call that gets no answer marks the server unreachable; any answer, even an error status, marks it back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api.get('/users')).rejects.toBeInstanceOf(TypeError);
    expect(networkStore.get().reachable).toBe(false);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"message":"Server error"}', { status: 500 })),
    );
    await expect(api.get('/users')).rejects.toMatchObject({ status: 500 });
    expect(networkStore.get().reachable).toBe(true);
  });

  it('an aborted call says nothing about the network', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new DOMException('The operation was aborted.', 'AbortError');
      }),
    );
    await expect(api.get('/users')).rejects.toThrow('aborted');
    expect(networkStore.get().reachable).toBe(true);
  });

  it("follows the browser's offline and online events; online asks the server again", () => {
    networkStore.set({ online: true, reachable: false });
    window.dispatchEvent(new Event('offline'));
    expect(networkStore.get()).toEqual({ online: false, reachable: false });
    window.dispatchEvent(new Event('online'));
    expect(networkStore.get()).toEqual({ online: true, reachable: true });
  });
});

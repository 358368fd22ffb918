import { describe, expect, it } from 'vitest';
import { describeSession } from './api';

describe('describeSession', () => {
  it('names a browser session after its browser and system', () => {
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const edge =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0';
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
    expect(describeSession({ kind: 'session', name: chrome })).toBe('Chrome on Linux');
    expect(describeSession({ kind: 'session', name: edge })).toBe('Edge on Windows');
    expect(describeSession({ kind: 'session', name: safari })).toBe('Safari on iOS');
    expect(describeSession({ kind: 'session', name: 'curl/8.5' })).toBe('Web browser');
  });

  it("shows a device token's own name", () => {
    expect(describeSession({ kind: 'token', name: 'Samsung Galaxy S24' })).toBe('Samsung Galaxy S24');
  });
});

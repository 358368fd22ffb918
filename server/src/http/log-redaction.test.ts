import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { REDACTED, redactUrl, serializeRequest } from './log-redaction';

describe('request log redaction (issue 29 §10)', () => {
  it.each([
    [
      'a password-reset token in the path',
      '/api/auth/password/reset/Zx8kQ2mN4pR7sT1vW3yB5dF6',
      `/api/auth/password/reset/${REDACTED}`,
    ],
    [
      'a sign-up link',
      '/api/signup-links/aB3dE5fG7hJ9kL1mN3pQ5r/register',
      `/api/signup-links/${REDACTED}/register`,
    ],
    [
      'a calendar feed key with its ending',
      '/api/calendar/f3a9c2e1b7d64c0a9e8f1b2c3d4e5f6a.ics',
      `/api/calendar/${REDACTED}.ics`,
    ],
    [
      'a package launch token',
      '/packages/eyJhbGciOiJIUzI1NiJ9x1/1b4e28ba-2fa1-11d2-883f-0016d3cca427/index.html',
      `/packages/${REDACTED}/${REDACTED}/index.html`,
    ],
    [
      'a token in the query',
      '/api/auth/verify?token=9f8e7d6c5b4a39281726354a&next=/home',
      `/api/auth/verify?token=${REDACTED}&next=/home`,
    ],
  ])('%s', (_name, url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each([
    '/api/users/42',
    '/api/entities/oakfield-house/roles/stats',
    '/api/reports/matrix?page=2&per_page=50',
    '/packages/runtime/scorm-bridge.js',
    '/your-bookings?check_in=17',
  ])('leaves %s readable', (url) => {
    expect(redactUrl(url)).toBe(url);
  });

  it('is what the server logs for a request', async () => {
    const lines: string[] = [];
    const app = Fastify({
      logger: {
        level: 'info',
        serializers: { req: serializeRequest },
        stream: { write: (l: string) => lines.push(l) },
      },
    });
    app.get('/api/auth/password/reset/:token', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/api/auth/password/reset/Zx8kQ2mN4pR7sT1vW3yB5dF6' });
    await app.close();
    const logged = lines.join('\n');
    expect(logged).toContain(`/api/auth/password/reset/${REDACTED}`);
    expect(logged).not.toContain('Zx8kQ2mN4pR7sT1vW3yB5dF6');
  });
});

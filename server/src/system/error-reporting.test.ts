import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { errorHandlerReportingTo } from '../http/error-handler';
import { invalidField } from '../http/errors';
import { contentSecurityPolicy } from '../http/security-headers';
import {
  clientConfigOf,
  closeErrorReporting,
  flushErrorReporting,
  initErrorReporting,
  reportServerError,
} from './error-reporting';

/**
 * Issue 18 "the server reports its own unhandled errors": a local HTTP server stands in for the Sentry host named by
 * the DSN, and the app's own error handler runs in front of routes that fail.
 */

let receiver: Server;
let envelopes: string[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      if (request.url?.includes('/envelope/')) envelopes.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  expect(await initErrorReporting({ env: 'test', sentryDsn: `http://publickey@127.0.0.1:${port}/42` })).toBe(
    true,
  );

  app = Fastify();
  app.setErrorHandler(errorHandlerReportingTo(reportServerError));
  app.post('/api/users/:id/explode', async () => {
    throw new Error('database fell over');
  });
  app.post('/api/users/:id/refuse', async () => {
    throw invalidField('name', 'Enter a name.');
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await closeErrorReporting();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const secrets = {
  headers: {
    cookie: 'cc_session=SESSION-SECRET',
    authorization: 'Bearer TOKEN-SECRET',
    'x-xsrf-token': 'XSRF-SECRET',
  },
  payload: { password: 'BODY-SECRET' },
};

describe('server error reporting', () => {
  it('sends an envelope for a 500, without the body, cookies, authorization or query', async () => {
    envelopes = [];
    const res = await app.inject({
      method: 'POST',
      url: '/api/users/7/explode?email=QUERY-SECRET',
      ...secrets,
    });
    expect(res.statusCode).toBe(500);
    expect(res.json().message).not.toContain('database fell over');
    await flushErrorReporting();
    expect(envelopes).toHaveLength(1);
    const sent = envelopes[0] ?? '';
    expect(sent).toContain('database fell over');
    expect(sent).toContain('/api/users/:id/explode');
    for (const secret of ['SESSION-SECRET', 'TOKEN-SECRET', 'XSRF-SECRET', 'BODY-SECRET', 'QUERY-SECRET'])
      expect(sent).not.toContain(secret);
  });

  it('sends nothing for a 422 (the caller’s mistake, not the server’s)', async () => {
    envelopes = [];
    const res = await app.inject({ method: 'POST', url: '/api/users/7/refuse', ...secrets });
    expect(res.statusCode).toBe(422);
    await flushErrorReporting();
    expect(envelopes).toHaveLength(0);
  });

  it('is off without a DSN', async () => {
    expect(await initErrorReporting({ env: 'test', sentryDsn: undefined })).toBe(false);
  });

  it('reads SENTRY_DSN and refuses one that is not a DSN', () => {
    const dsn = 'https://abc@o1.ingest.sentry.io/123';
    expect(loadConfig({ SENTRY_DSN: dsn }).sentryDsn).toBe(dsn);
    expect(loadConfig({}).sentryDsn).toBeUndefined();
    expect(() => loadConfig({ SENTRY_DSN: 'https://o1.ingest.sentry.io' })).toThrow(/SENTRY_DSN must be/);
  });
});

describe('what the web app and its policy are told', () => {
  const base = { appUrl: 'https://training.example.com', packageOrigin: undefined };

  it('the CSP gains the DSN and analytics origins only when they are set', () => {
    const plain = contentSecurityPolicy(base);
    expect(plain['connect-src']).toEqual(["'self'", 'wss://training.example.com']);
    expect(plain['script-src']).toEqual(["'self'"]);
    const configured = contentSecurityPolicy({
      ...base,
      sentryBrowserDsn: 'https://abc@o1.ingest.sentry.io/456',
      analytics: { measurementId: 'G-ABC123', requiresConsent: true },
    });
    expect(configured['connect-src']).toContain('https://o1.ingest.sentry.io');
    expect(configured['connect-src']).toContain('https://*.google-analytics.com');
    expect(configured['script-src']).toEqual(["'self'", 'https://www.googletagmanager.com']);
  });

  it('client config: off (null) unless set; consent required by default', () => {
    expect(clientConfigOf(loadConfig({}))).toEqual({ errorReporting: null, analytics: null });
    const on = clientConfigOf(
      loadConfig({
        SENTRY_BROWSER_DSN: 'https://abc@o1.ingest.sentry.io/456',
        ANALYTICS_MEASUREMENT_ID: 'G-ABC123',
      }),
    );
    expect(on.errorReporting).toEqual({
      dsn: 'https://abc@o1.ingest.sentry.io/456',
      environment: 'development',
      tracesSampleRate: 0.1,
    });
    expect(on.analytics).toEqual({ measurementId: 'G-ABC123', requiresConsent: true });
    expect(
      clientConfigOf(
        loadConfig({ ANALYTICS_MEASUREMENT_ID: 'G-ABC123', ANALYTICS_REQUIRES_CONSENT: 'false' }),
      ).analytics?.requiresConsent,
    ).toBe(false);
    // The server's own DSN is never sent to browsers.
    expect(
      clientConfigOf(loadConfig({ SENTRY_DSN: 'https://secret@o1.ingest.sentry.io/1' })).errorReporting,
    ).toBeNull();
  });
});

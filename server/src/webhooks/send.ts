import http from 'node:http';
import https from 'node:https';
import type { Config } from '../config';
import { assertLiteralAllowed, guardedLookup, RefusedAddressError } from './address';
import { signatureHeader } from './signing';

/** One HTTP request of a delivery (Standard Webhooks headers), and what came of it. */

export const ATTEMPT_TIMEOUT_MS = 15_000;
export const BODY_EXCERPT_BYTES = 1024;

export interface SendInput {
  url: string;
  secrets: string[];
  eventId: string;
  /** The exact body: the same bytes on every attempt of an event. */
  body: string;
  timestampSeconds: number;
}

export interface SendOutcome {
  ok: boolean;
  responseCode: number | null;
  durationMs: number;
  body: string | null;
  error: string | null;
}

export function eventBody(event: { type: string; created_at: Date; payload: unknown }): string {
  return JSON.stringify({ type: event.type, timestamp: event.created_at.toISOString(), data: event.payload });
}

export async function sendWebhook(
  input: SendInput,
  policy: Pick<Config, 'env' | 'webhooksAllowPrivate'>,
): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(input.url);
    if (policy.env === 'production' && url.protocol !== 'https:')
      throw new Error('The address must use https.');
    assertLiteralAllowed(url, policy);
  } catch (error) {
    return { ok: false, responseCode: null, durationMs: elapsed(), body: null, error: describe(error) };
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (o: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...o, durationMs: elapsed() });
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        // A fresh connection per attempt: a pooled socket would skip the address check of `lookup`.
        agent: false,
        lookup: guardedLookup(policy) as never,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'CareCompliance-Webhooks/1',
          'webhook-id': input.eventId,
          'webhook-timestamp': String(input.timestampSeconds),
          'webhook-signature': signatureHeader(
            input.secrets,
            input.eventId,
            input.timestampSeconds,
            input.body,
          ),
          'content-length': Buffer.byteLength(input.body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const code = res.statusCode ?? null;
          const text = Buffer.concat(chunks).subarray(0, BODY_EXCERPT_BYTES).toString('utf8');
          // Redirects are never followed (they could lead anywhere): a 3xx is a failed attempt.
          finish({
            ok: code !== null && code >= 200 && code < 300,
            responseCode: code,
            body: text,
            error: null,
          });
          res.destroy();
        };
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // Only the first 1 KB is kept: stop reading a large body.
          if (size >= BODY_EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('error', (error) =>
          finish({ ok: false, responseCode: res.statusCode ?? null, body: null, error: describe(error) }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, responseCode: null, body: null, error: 'No answer within 15 seconds.' });
      req.destroy();
    }, ATTEMPT_TIMEOUT_MS);
    req.on('error', (error) => finish({ ok: false, responseCode: null, body: null, error: describe(error) }));
    req.end(input.body);
  });
}

function describe(error: unknown): string {
  if (error instanceof RefusedAddressError) return 'Refused: the address is on a private or local network.';
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'ECONNREFUSED') return 'Connection refused.';
  if (e?.code === 'ENOTFOUND') return 'The host name could not be found.';
  if (e?.code === 'ECONNRESET') return 'The connection was closed before an answer.';
  return (e?.message ?? String(error)).slice(0, 500);
}

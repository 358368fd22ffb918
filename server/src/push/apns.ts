import { connect } from 'node:http2';
import type { PushSettings } from '../config';
import { signJwt } from './jwt';
import { errorText, failed, PUSH_TIMEOUT_MS, type PushMessage, type PushOutcome } from './outcome';

type ApnsSettings = NonNullable<PushSettings['apns']>;

/**
 * iOS pushes by APNs over HTTP/2 with token-based authentication: an ES256 JWT from the .p8 key, which Apple wants
 * renewed between 20 and 60 minutes (so 40), and refuses when renewed more often than every 20 (so it is kept).
 */
const RENEW_MS = 40 * 60_000;
const providerTokens = new Map<string, { token: string; until: number }>();

function providerToken(s: ApnsSettings, now: number): string {
  const cacheKey = `${s.teamId}|${s.keyId}`;
  const cached = providerTokens.get(cacheKey);
  if (cached && cached.until > now) return cached.token;
  const token = signJwt('ES256', { kid: s.keyId }, { iss: s.teamId, iat: Math.floor(now / 1000) }, s.key);
  providerTokens.set(cacheKey, { token, until: now + RENEW_MS });
  return token;
}

interface Http2Answer {
  status: number;
  body: string;
}

function post(s: ApnsSettings, path: string, headers: Record<string, string>, payload: string) {
  return new Promise<Http2Answer>((resolve, reject) => {
    const session = connect(s.host);
    const timer = setTimeout(() => session.destroy(new Error('no answer in time')), PUSH_TIMEOUT_MS);
    const finish = (error: Error | null, answer?: Http2Answer) => {
      clearTimeout(timer);
      session.close();
      if (error) reject(error);
      else resolve(answer as Http2Answer);
    };
    session.on('error', (error) => finish(error));
    const request = session.request({ ':method': 'POST', ':path': path, ...headers });
    let status = 0;
    let body = '';
    request.setEncoding('utf8');
    request.on('response', (h) => {
      status = Number(h[':status']);
    });
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => finish(null, { status, body }));
    request.on('error', (error) => finish(error));
    request.end(payload);
  });
}

const reasonOf = (body: string) => {
  try {
    return (JSON.parse(body) as { reason?: string }).reason ?? null;
  } catch {
    return null;
  }
};

export async function sendApns(s: ApnsSettings, token: string, message: PushMessage): Promise<PushOutcome> {
  const payload = JSON.stringify({
    aps: { alert: { title: message.title, body: message.body }, sound: 'default' },
    link: message.link,
  });
  try {
    const answer = await post(
      s,
      `/3/device/${encodeURIComponent(token)}`,
      {
        authorization: `bearer ${providerToken(s, Date.now())}`,
        'apns-topic': s.bundleId,
        'apns-push-type': 'alert',
        'apns-priority': '10',
        'content-type': 'application/json',
      },
      payload,
    );
    if (answer.status === 200) return { ok: true };
    const reason = reasonOf(answer.body);
    if (answer.status === 410)
      return failed(
        'The phone is no longer registered with Apple (the app was removed or signed out).',
        true,
      );
    if (reason === 'ExpiredProviderToken' || reason === 'InvalidProviderToken') providerTokens.clear();
    return failed(
      `Apple did not take the notification (HTTP ${answer.status}${reason ? `, ${reason}` : ''}).`,
    );
  } catch (error) {
    return failed(`Apple's push service could not be reached (${errorText(error)}).`);
  }
}

import type { PushSettings } from '../config';
import { signJwt } from './jwt';
import { errorText, failed, PUSH_TIMEOUT_MS, type PushMessage, type PushOutcome } from './outcome';

type FcmSettings = NonNullable<PushSettings['fcm']>;

/**
 * Android pushes by FCM HTTP v1. The access token comes from Google's OAuth2 service-account grant (a JWT signed
 * RS256 with the account's key, exchanged at the token endpoint) and is kept until a minute before it ends, per
 * account and endpoint, so a reminder run asks for one token, not one per phone.
 */
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const accessTokens = new Map<string, { token: string; until: number }>();

async function accessToken(s: FcmSettings, now: number): Promise<string> {
  const cacheKey = `${s.clientEmail}|${s.tokenUrl}`;
  const cached = accessTokens.get(cacheKey);
  if (cached && cached.until > now) return cached.token;
  const iat = Math.floor(now / 1000);
  const assertion = signJwt(
    'RS256',
    { typ: 'JWT' },
    { iss: s.clientEmail, scope: SCOPE, aud: s.tokenUrl, iat, exp: iat + 3600 },
    s.privateKey,
  );
  const response = await fetch(s.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: GRANT, assertion }),
    signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
  if (!response.ok || !body.access_token)
    throw new Error(`Google refused the service account (HTTP ${response.status})`);
  const lifetime = Math.max(60, body.expires_in ?? 3600) - 60;
  accessTokens.set(cacheKey, { token: body.access_token, until: now + lifetime * 1000 });
  return body.access_token;
}

/** FCM's own error code (details[].errorCode: UNREGISTERED, INVALID_ARGUMENT, QUOTA_EXCEEDED, ...). */
function fcmErrorCode(body: unknown): string | null {
  const error = (body as { error?: { status?: string; details?: { errorCode?: string }[] } })?.error;
  return error?.details?.find((d) => d.errorCode)?.errorCode ?? error?.status ?? null;
}

export async function sendFcm(s: FcmSettings, token: string, message: PushMessage): Promise<PushOutcome> {
  try {
    const bearer = await accessToken(s, Date.now());
    const response = await fetch(`${s.apiUrl}/v1/projects/${encodeURIComponent(s.projectId)}/messages:send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        message: {
          token,
          notification: { title: message.title, body: message.body },
          data: { link: message.link },
          android: { priority: 'high' },
        },
      }),
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    if (response.ok) return { ok: true };
    const code = fcmErrorCode(await response.json().catch(() => null));
    if (code === 'UNREGISTERED')
      return failed(
        'The phone is no longer registered with Firebase (the app was removed or signed out).',
        true,
      );
    if (response.status === 401) accessTokens.clear();
    return failed(
      `Firebase did not take the notification (HTTP ${response.status}${code ? `, ${code}` : ''}).`,
    );
  } catch (error) {
    return failed(`Firebase could not be reached (${errorText(error)}).`);
  }
}

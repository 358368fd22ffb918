import { createHmac, randomBytes } from 'node:crypto';

/** Standard Webhooks secrets: `whsec_` + base64 of the key (24 random bytes). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for one secret. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The webhook-signature header: one signature per valid secret, space separated (rotation overlap). */
export function signatureHeader(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  return secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' ');
}

/** A new event id: msg_ + 27 url-safe characters (unique, unguessable, sortable enough by created_at). */
export function newEventId(): string {
  return `msg_${randomBytes(20).toString('base64url')}`;
}

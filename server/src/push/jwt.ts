import { createPrivateKey, sign } from 'node:crypto';

/**
 * A signed JWT (RFC 7519) for the push services: RS256 for Google's OAuth2 service-account grant, ES256 for APNs.
 * ES256 signatures are the raw r‖s pair (ieee-p1363), not DER: JOSE requires it and Apple refuses DER.
 */
const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

export function signJwt(
  alg: 'RS256' | 'ES256',
  header: Record<string, string>,
  claims: Record<string, unknown>,
  privateKeyPem: string,
): string {
  const input = `${base64url(JSON.stringify({ alg, ...header }))}.${base64url(JSON.stringify(claims))}`;
  const key = createPrivateKey(privateKeyPem);
  const signature =
    alg === 'RS256'
      ? sign('sha256', Buffer.from(input), key)
      : sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${base64url(signature)}`;
}

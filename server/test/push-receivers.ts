import { generateKeyPairSync, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { PushSettings } from '../src/config';

/**
 * Local stand-ins for the push services (issue 19), started by the tests: FCM's OAuth2 token endpoint and HTTP v1
 * send over HTTP, APNs over HTTP/2 cleartext (h2c). Both check what the real ones check (the JWT's signature with
 * the public half of the key the server signs with, its claims, the bearer), record what they were sent, and answer
 * by the device token: 'dead-…' is unregistered (FCM UNREGISTERED, APNs 410), 'fail-…' is refused, others are
 * delivered. The keys are made here, per run: no credential exists in the repository.
 */
export interface Received {
  platform: 'android' | 'ios';
  token: string;
  title: string;
  body: string;
  link: string;
}

function jwtParts(jwt: string) {
  const [header, claims, signature] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(claims ?? '', 'base64url').toString()) as Record<string, unknown>,
    input: Buffer.from(`${header}.${claims}`),
    signature: Buffer.from(signature ?? '', 'base64url'),
  };
}

async function readBody(req: IncomingMessage | NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

const listen = (server: Server | Http2Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

export interface PushReceivers {
  settings: Required<PushSettings>;
  received: Received[];
  tokenRequests: number;
  close(): Promise<void>;
}

export async function startPushReceivers(): Promise<PushReceivers> {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const rsaPublic = rsa.publicKey;
  const ecPublic = ec.publicKey;
  const state: PushReceivers = {
    settings: undefined as unknown as Required<PushSettings>,
    received: [],
    tokenRequests: 0,
    close: async () => {},
  };
  const accessToken = `ya29.test-${Date.now()}`;
  let fcmPort = 0;

  const fcm = createServer(async (req, res) => {
    const text = await readBody(req);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/token') {
      const form = new URLSearchParams(text);
      const jwt = jwtParts(form.get('assertion') ?? '');
      const valid =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
        jwt.header.alg === 'RS256' &&
        jwt.claims.iss === 'push@test-project.iam.gserviceaccount.com' &&
        jwt.claims.aud === `http://127.0.0.1:${fcmPort}/token` &&
        jwt.claims.scope === 'https://www.googleapis.com/auth/firebase.messaging' &&
        verify('sha256', jwt.input, rsaPublic, jwt.signature);
      state.tokenRequests += 1;
      return valid
        ? answer(200, { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' })
        : answer(400, { error: 'invalid_grant' });
    }
    if (req.url !== '/v1/projects/test-project/messages:send') return answer(404, {});
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return answer(401, { error: { status: 'UNAUTHENTICATED' } });
    const { message } = JSON.parse(text) as {
      message: { token: string; notification: { title: string; body: string }; data: { link: string } };
    };
    if (message.token.startsWith('dead-'))
      return answer(404, {
        error: {
          code: 404,
          status: 'NOT_FOUND',
          details: [
            { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
          ],
        },
      });
    if (message.token.startsWith('fail-'))
      return answer(503, { error: { code: 503, status: 'UNAVAILABLE' } });
    state.received.push({
      platform: 'android',
      token: message.token,
      ...message.notification,
      ...message.data,
    });
    return answer(200, { name: `projects/test-project/messages/${state.received.length}` });
  });

  const apns = createHttp2Server();
  apns.on('stream', async (stream, headers) => {
    const text = await readBody(stream);
    const answer = (status: number, body?: unknown) => {
      stream.respond({ ':status': status, 'content-type': 'application/json' });
      stream.end(body === undefined ? '' : JSON.stringify(body));
    };
    const jwt = jwtParts(String(headers.authorization ?? '').replace(/^bearer /, ''));
    const signed =
      jwt.header.alg === 'ES256' &&
      jwt.header.kid === 'KEY1234567' &&
      jwt.claims.iss === 'TEAM123456' &&
      verify('sha256', jwt.input, { key: ecPublic, dsaEncoding: 'ieee-p1363' }, jwt.signature);
    if (!signed) return answer(403, { reason: 'InvalidProviderToken' });
    if (headers['apns-topic'] !== 'com.example.carecompliance' || headers['apns-push-type'] !== 'alert')
      return answer(400, { reason: 'BadTopic' });
    const token = decodeURIComponent(String(headers[':path']).replace('/3/device/', ''));
    if (token.startsWith('dead-')) return answer(410, { reason: 'Unregistered', timestamp: Date.now() });
    if (token.startsWith('fail-')) return answer(500, { reason: 'InternalServerError' });
    const payload = JSON.parse(text) as { aps: { alert: { title: string; body: string } }; link: string };
    state.received.push({ platform: 'ios', token, ...payload.aps.alert, link: payload.link });
    return answer(200);
  });

  fcmPort = await listen(fcm);
  const apnsPort = await listen(apns);
  state.settings = {
    fcm: {
      projectId: 'test-project',
      clientEmail: 'push@test-project.iam.gserviceaccount.com',
      privateKey: rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      tokenUrl: `http://127.0.0.1:${fcmPort}/token`,
      apiUrl: `http://127.0.0.1:${fcmPort}`,
    },
    apns: {
      key: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      keyId: 'KEY1234567',
      teamId: 'TEAM123456',
      bundleId: 'com.example.carecompliance',
      host: `http://127.0.0.1:${apnsPort}`,
    },
  };
  state.close = async () => {
    await new Promise((resolve) => fcm.close(resolve));
    await new Promise((resolve) => apns.close(resolve));
  };
  return state;
}

import { ClientMessage, MATRIX_WS_PATH } from '@cc/contracts';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { loadActor } from '../auth/actor';
import { findTokenCaller } from '../auth/callers';
import { isSessionLive, isTokenLive, sessionAbsoluteEnd, sessionLifetimeOf, tokenEnd } from '../auth/queries';
import { resolveActingAs } from '../entities/scope';
import type { App } from '../http/app-types';
import type { Actor, Ctx } from '../http/context';
import { HttpError } from '../http/errors';
import { streamMatrix } from './matrix-channel';
import { closeSignedOut, registerSocket, type SocketOwner, trackSocket } from './socket-registry';

/**
 * The websocket channel (spec 2 §4, §7; ARCHITECTURE realtime/): GET /api/ws upgrades.
 * - Web: the session cookie of the upgrade request authenticates it; the Origin must be this site's (or a
 *   configured CORS origin), so another site cannot open a socket with the user's cookie. Acting-as: ?actingAs=slug.
 * - Mobile: no cookie; the first message is {type:'auth', token, actingAs?} with the bearer token. A client need not
 *   wait for {type:'authenticated'}: what arrives while the token is being checked is queued and handled, in order,
 *   once it is (issue 31 §4); a message before any auth message is still refused with 401.
 * Then {type:'subscribe', channel:'matrix', id, filters} → {type:'subscribed', id} at once, progress and fetch_data
 * messages (see matrix-channel.ts), {type:'unsubscribe', id} (or closing) cancels. Errors: {type:'error', message}.
 * - The socket lives only as long as its session or token (issue 11 §4): the code that ends one closes its sockets
 *   (socket-registry.ts), each subscribe checks the credential and reloads the caller, and a timer closes the socket
 *   when the credential reaches its absolute end.
 */

const MAX_SUBSCRIPTIONS = 4;
/** Messages held while an auth message is being checked; a client that sends more before the answer is refused. */
const MAX_QUEUED = 16;

function originAllowed(request: FastifyRequest, ctx: Ctx): boolean {
  const origin = request.headers.origin;
  if (!origin) return true; // not a browser: a cookie alone proves nothing more than for any GET
  const host = request.headers.host;
  const allowed = new Set([
    `${request.protocol}://${host}`,
    `http://${host}`,
    `https://${host}`,
    ...ctx.config.corsOrigins,
  ]);
  allowed.add(new URL(ctx.config.appUrl).origin);
  return allowed.has(origin);
}

const sendJson = (socket: WebSocket, message: unknown) => {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
};

const ownerOf = (actor: Actor): SocketOwner => ({
  userId: actor.userId,
  sessionId: actor.sessionId,
  tokenId: actor.tokenId,
});

/** The caller again, if the session or token that opened the socket still stands (else null): fresh permissions. */
async function reloadCaller(ctx: Ctx, actor: Actor): Promise<Actor | null> {
  const now = ctx.clock();
  const live =
    actor.via === 'session' && actor.sessionId
      ? await isSessionLive(ctx.db, {
          sessionId: actor.sessionId,
          userId: actor.userId,
          now,
          lifetime: sessionLifetimeOf(ctx.config),
        })
      : actor.via === 'token' && actor.tokenId
        ? await isTokenLive(ctx.db, {
            tokenId: actor.tokenId,
            userId: actor.userId,
            now,
            lifetimeDays: ctx.config.tokenLifetimeDays,
          })
        : false;
  if (!live) return null;
  const fresh = await loadActor(
    ctx.db,
    actor.userId,
    actor.via === 'session'
      ? { via: 'session', sessionId: actor.sessionId ?? '' }
      : {
          via: 'token',
          tokenId: actor.tokenId ?? 0,
          abilities: [...actor.abilities],
          kind: actor.tokenKind ?? 'device',
        },
  );
  if (fresh) fresh.actingAs = actor.actingAs;
  return fresh;
}

/** setTimeout's longest delay (~24.8 days); a later end is checked then and the timer set again. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function realtimeRoutes(app: App) {
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    MATRIX_WS_PATH.replace(/^\/api/, ''),
    { websocket: true, config: { auth: false } },
    (socket, request) => {
      trackSocket(socket);
      const ctx = request.ctx;
      const subscriptions = new Map<string, AbortController>();
      let authenticated = !!ctx.actor;
      if (ctx.actor && ctx.actor.via === 'session' && !originAllowed(request, ctx)) {
        sendJson(socket, {
          type: 'error',
          status: 403,
          message: 'This origin may not open the live connection.',
        });
        socket.close(1008, 'origin');
        return;
      }
      let endTimer: NodeJS.Timeout | undefined;
      const signOut = () => {
        for (const controller of subscriptions.values()) controller.abort();
        subscriptions.clear();
        closeSignedOut(socket);
      };
      /** Closes the socket when its credential reaches its absolute end (checked again at a capped timer). */
      const endAt = (end: Date) => {
        clearTimeout(endTimer);
        const delay = end.getTime() - ctx.clock().getTime();
        endTimer = setTimeout(
          () => {
            if (delay <= MAX_TIMER_MS) return signOut();
            endAt(end);
          },
          Math.max(0, Math.min(delay, MAX_TIMER_MS)),
        );
        endTimer.unref();
      };
      if (ctx.actor) {
        registerSocket(socket, ownerOf(ctx.actor));
        if (request.session) endAt(sessionAbsoluteEnd(request.session, sessionLifetimeOf(ctx.config)));
      }
      socket.on('close', () => {
        clearTimeout(endTimer);
        for (const controller of subscriptions.values()) controller.abort();
        subscriptions.clear();
      });
      // While an auth message is being checked (a database read), later messages wait here instead of meeting an
      // unauthenticated socket; null when nothing is being checked.
      let queued: ClientMessage[] | null = null;
      const releaseQueue = () => {
        const waiting = queued ?? [];
        queued = null;
        for (const message of waiting) void handle(message);
      };
      socket.on('message', (raw) => {
        let message: ClientMessage;
        try {
          const parsed = ClientMessage.safeParse(JSON.parse(String(raw)));
          if (!parsed.success) throw new Error('invalid');
          message = parsed.data;
        } catch {
          sendJson(socket, { type: 'error', status: 422, message: 'The message could not be understood.' });
          return;
        }
        if (queued) {
          if (queued.length >= MAX_QUEUED) {
            sendJson(socket, {
              type: 'error',
              status: 429,
              message: 'Too many messages before authentication.',
            });
            socket.close(1008, 'too many messages');
            return;
          }
          queued.push(message);
          return;
        }
        void handle(message);
      });
      const handle = async (message: ClientMessage) => {
        if (socket.readyState !== socket.OPEN) return;
        try {
          if (message.type === 'ping') return sendJson(socket, { type: 'pong' });
          if (message.type === 'auth') {
            if (authenticated) return;
            queued = [];
            // Its own error (an unknown acting-as slug) is told before the queued messages are answered.
            await authenticate(message).catch((error) => report(error, message));
            return releaseQueue();
          }
          if (!authenticated || !ctx.actor) {
            sendJson(socket, { type: 'error', status: 401, message: 'Unauthenticated.' });
            socket.close(4401, 'unauthenticated');
            return;
          }
          if (message.type === 'unsubscribe') {
            subscriptions.get(message.id)?.abort();
            subscriptions.delete(message.id);
            return sendJson(socket, { type: 'unsubscribed', id: message.id });
          }
          // subscribe: the session or token may have ended in another process since the socket opened.
          const caller = await reloadCaller(ctx, ctx.actor);
          if (!caller) return signOut();
          ctx.actor = caller;
          // A retry of a running subscription is acknowledged again, not restarted.
          if (subscriptions.has(message.id)) return sendJson(socket, { type: 'subscribed', id: message.id });
          if (subscriptions.size >= MAX_SUBSCRIPTIONS) {
            sendJson(socket, {
              type: 'error',
              id: message.id,
              status: 429,
              message: 'Too many subscriptions.',
            });
            return;
          }
          const controller = new AbortController();
          subscriptions.set(message.id, controller);
          sendJson(socket, { type: 'subscribed', id: message.id });
          const subCtx: Ctx = { ...ctx, memo: new Map() };
          try {
            await streamMatrix(subCtx, socket, message.id, message.filters, controller.signal);
          } finally {
            if (subscriptions.get(message.id) === controller) subscriptions.delete(message.id);
          }
        } catch (error) {
          report(error, message);
        }
      };
      const report = (error: unknown, message: ClientMessage) => {
        // Closed under it (a shutdown, a sign-out): nobody is left to tell.
        if (socket.readyState !== socket.OPEN) return;
        const id = 'id' in message ? message.id : undefined;
        if (error instanceof HttpError) {
          sendJson(socket, {
            type: 'error',
            id,
            status: error.status,
            message: error.message,
            errors: error.errors,
          });
        } else {
          request.log.error({ err: error }, 'websocket message failed');
          sendJson(socket, {
            type: 'error',
            id,
            status: 500,
            message: 'Server error. Please try again or contact support.',
          });
        }
      };
      const authenticate = async (message: Extract<ClientMessage, { type: 'auth' }>) => {
        const now = ctx.clock();
        const { token, actor } = await findTokenCaller(
          ctx.db,
          message.token,
          now,
          ctx.config.tokenLifetimeDays,
        );
        if (!actor || !token) {
          sendJson(socket, { type: 'error', status: 401, message: 'Unauthenticated.' });
          socket.close(4401, 'unauthenticated');
          return;
        }
        ctx.actor = actor;
        if (message.actingAs) actor.actingAs = await resolveActingAs(ctx, message.actingAs, actor);
        authenticated = true;
        registerSocket(socket, ownerOf(actor));
        endAt(tokenEnd(token, ctx.config.tokenLifetimeDays));
        sendJson(socket, { type: 'authenticated' });
      };
    },
  );
}

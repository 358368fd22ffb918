import { ClientMessage, MATRIX_WS_PATH } from '@cc/contracts';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { loadActor } from '../auth/actor';
import { findAccessToken } from '../auth/queries';
import { resolveActingAs } from '../entities/scope';
import type { App } from '../http/app-types';
import type { Ctx } from '../http/context';
import { HttpError } from '../http/errors';
import { streamMatrix } from './matrix-channel';

/**
 * The websocket channel (spec 2 §4, §7; ARCHITECTURE realtime/): GET /api/ws upgrades.
 * - Web: the session cookie of the upgrade request authenticates it; the Origin must be this site's (or a
 *   configured CORS origin), so another site cannot open a socket with the user's cookie. Acting-as: ?actingAs=slug.
 * - Mobile: no cookie; the first message is {type:'auth', token, actingAs?} with the bearer token.
 * Then {type:'subscribe', channel:'matrix', id, filters} → {type:'subscribed', id} at once, progress and fetch_data
 * messages (see matrix-channel.ts), {type:'unsubscribe', id} (or closing) cancels. Errors: {type:'error', message}.
 */

const MAX_SUBSCRIPTIONS = 4;

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

export async function realtimeRoutes(app: App) {
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  app.get(
    MATRIX_WS_PATH.replace(/^\/api/, ''),
    { websocket: true, config: { auth: false } },
    (socket, request) => {
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
      socket.on('close', () => {
        for (const controller of subscriptions.values()) controller.abort();
        subscriptions.clear();
      });
      socket.on('message', async (raw) => {
        let message: ClientMessage;
        try {
          const parsed = ClientMessage.safeParse(JSON.parse(String(raw)));
          if (!parsed.success) throw new Error('invalid');
          message = parsed.data;
        } catch {
          sendJson(socket, { type: 'error', status: 422, message: 'The message could not be understood.' });
          return;
        }
        try {
          if (message.type === 'ping') return sendJson(socket, { type: 'pong' });
          if (message.type === 'auth') {
            if (authenticated) return;
            const now = ctx.clock();
            const token = await findAccessToken(ctx.db, message.token, now);
            const actor = token
              ? await loadActor(ctx.db, token.user_id, {
                  via: 'token',
                  tokenId: token.id,
                  abilities: token.abilities,
                })
              : null;
            if (!actor) {
              sendJson(socket, { type: 'error', status: 401, message: 'Unauthenticated.' });
              socket.close(4401, 'unauthenticated');
              return;
            }
            ctx.actor = actor;
            if (message.actingAs) actor.actingAs = await resolveActingAs(ctx, message.actingAs, actor);
            authenticated = true;
            return sendJson(socket, { type: 'authenticated' });
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
          // subscribe: a retry of a running subscription is acknowledged again, not restarted.
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
        }
      });
    },
  );
}

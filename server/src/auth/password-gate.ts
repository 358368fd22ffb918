import { Messages } from '@cc/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../http/errors';

/**
 * What a user whose password must change may still call (spec 2 §3 password expiry and compromised_passwords
 * 'enforce_change'): who am I, what may I do, change the password, sign out, and the app-shell basics.
 * Keys are `METHOD route-pattern` as Fastify registers them (prefix included).
 */
const ALLOWED = new Set([
  'GET /api/auth/user',
  'GET /api/auth/permissions',
  'POST /api/auth/permission-check',
  'GET /api/auth/sessions',
  'POST /api/auth/confirm-password',
  'POST /api/auth/update-password',
  'POST /api/auth/logout',
  'POST /api/auth/logout/:id',
  'POST /api/auth/logout-others',
  'POST /api/logout',
  'POST /logout',
  'GET /api/version',
  'GET /api/time',
  'GET /api/check',
]);

/** The branding the app shell needs before anything else (GET /api/whitelabel...). */
const ALLOWED_GET_PREFIXES = ['/api/whitelabel'];

/** Only the API is gated: web pages, the csrf cookie and login/register are not API calls on behalf of a user. */
const isApi = (url: string) => url.startsWith('/api/') || url === '/graphql' || url.startsWith('/graphql?');

export function passwordGateAllows(method: string, routeUrl: string | undefined): boolean {
  if (!routeUrl) return true; // no such route: the 404 handler answers
  if (!isApi(routeUrl)) return true;
  if (ALLOWED.has(`${method} ${routeUrl}`)) return true;
  return method === 'GET' && ALLOWED_GET_PREFIXES.some((p) => routeUrl.startsWith(p));
}

/** A callback hook (it never waits): a throw is passed on as the hook's error. */
function gate(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const actor = request.ctx?.actor;
  if (actor?.passwordChangeRequired && !passwordGateAllows(request.method, request.routeOptions.url))
    throw forbidden(Messages.passwordChangeRequired);
  done();
}

declare module 'fastify' {
  interface FastifyInstance {
    passwordGate?: true;
  }
}

/**
 * While the password must change, every API call outside ALLOWED answers 403 'Your password must be changed
 * before you continue.' (the Auth user reports password_change_required, so the web app sends the user to
 * /update-password). Runs at preValidation: after authentication (onRequest), whatever the registration order,
 * and before the body is validated. Registering it twice is harmless.
 */
export const passwordGatePlugin = fp(
  async (app: FastifyInstance) => {
    if (app.hasDecorator('passwordGate')) return;
    app.decorate('passwordGate', true);
    app.addHook('preValidation', gate);
  },
  { name: 'password-gate' },
);

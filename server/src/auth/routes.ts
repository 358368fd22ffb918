import {
  AuthUser,
  ConfirmPasswordBody,
  ForgotPasswordBody,
  LoginBody,
  Messages,
  MobileLoginBody,
  OwnSession,
  PERMISSIONS,
  PermissionCheckBody,
  ResetPasswordBody,
  UnlockSignInBody,
  UpdateEmailBody,
  UpdatePasswordBody,
  VerifyEmailBody,
} from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import {
  clearSessionCookies,
  sessionCookieOf,
  setGuestCsrfCookie,
  setSessionCookies,
} from '../http/authenticate';
import { actorOf } from '../http/context';
import { done, ok } from '../http/envelope';
import { updateEmail, verifyEmail } from './email-flows';
import { issueGuestCsrfToken } from './guest-csrf';
import { deviceCookieOf, setDeviceCookie } from './known-devices';
import { forgotPassword, resetPassword, updatePassword } from './password-flows';
import {
  checkPermissions,
  confirmOwnPassword,
  currentAuthUser,
  endOtherSessions,
  endOwnSession,
  listOwnSessions,
  loginWithSession,
  loginWithToken,
  logout,
  unlockSignIn,
} from './service';

/**
 * Web-session routes (spec 1 §7 "Web login: GET /sanctum/csrf-cookie, then POST /login"). Mounted at / and /api.
 * `signIn`: the routes a person signing in (or getting back in) calls run on the sign-in lane (issue 36 §2).
 */
export async function authWebRoutes(app: App) {
  app.get(
    '/sanctum/csrf-cookie',
    { config: { auth: false, signIn: true }, schema: { tags: ['auth'] } },
    async (request, reply) => {
      const { ctx } = request;
      if (request.session) {
        setSessionCookies(reply, ctx, sessionCookieOf(request, ctx) ?? '', request.session.csrf_token);
        return reply.status(204).send();
      }
      // Signed out: a signed token, no session row (issue 11 §12: anonymous calls must not fill the sessions table).
      const token = await issueGuestCsrfToken(ctx.db, ctx.clock());
      setGuestCsrfCookie(reply, ctx, token, sessionCookieOf(request, ctx) !== undefined);
      return reply.status(204).send();
    },
  );

  app.post(
    '/login',
    {
      config: { csrf: 'session', auth: false, signIn: true },
      schema: { tags: ['auth'], body: LoginBody, response: { 200: z.object({ data: AuthUser }) } },
    },
    async (request, reply) => {
      const { session, user, deviceSecret } = await loginWithSession(
        request.ctx,
        request.body,
        request.session?.id ?? null,
        { secret: deviceCookieOf(request, request.ctx), name: null },
      );
      setSessionCookies(reply, request.ctx, session.secret, session.csrfToken);
      setDeviceCookie(reply, request.ctx, deviceSecret);
      return ok(user);
    },
  );

  app.post('/logout', { config: { auth: false }, schema: { tags: ['auth'] } }, async (request, reply) => {
    if (request.ctx.actor) await logout(request.ctx);
    clearSessionCookies(reply, request.ctx);
    return done(Messages.loggedOut);
  });
}

export async function authRoutes(app: App) {
  app.post(
    '/auth/login',
    // A device login writes its own new token, the login time and its audit rows: nothing a cached caller or answer
    // holds, so the 200 other callers' caches stay (issue 12 §2: each login emptied them all, and every caller paid
    // four queries again). The web login replaces a live session, so it still empties them.
    {
      config: { csrf: 'off', auth: false, keepsCaches: true, signIn: true },
      schema: { tags: ['auth'], body: MobileLoginBody },
    },
    async (request, reply) => {
      const result = await loginWithToken(request.ctx, request.body, deviceCookieOf(request, request.ctx));
      setDeviceCookie(reply, request.ctx, result.device_token);
      return ok(result);
    },
  );

  app.post('/auth/logout', { schema: { tags: ['auth'] } }, async (request) => {
    await logout(request.ctx);
    return done(Messages.loggedOut);
  });

  app.get(
    '/auth/user',
    {
      config: { readCache: true },
      schema: { tags: ['auth'], response: { 200: z.object({ data: AuthUser }) } },
    },
    async (request) => ok(await currentAuthUser(request.ctx)),
  );

  // The caller's effective permissions, with catalogue details (spec 1 §4 "Permissions ... loaded at app start").
  app.get(
    '/auth/permissions',
    { config: { readCache: true }, schema: { tags: ['auth'] } },
    async (request) => {
      const actor = actorOf(request.ctx);
      return ok(PERMISSIONS.filter((p) => actor.superAdmin || actor.permissions.has(p.id)));
    },
  );

  app.post(
    '/auth/permission-check',
    { schema: { tags: ['auth'], body: PermissionCheckBody } },
    async (request) => ok({ allowed: checkPermissions(request.ctx, request.body) }),
  );

  // Same answer whether or not the account exists. Not a 'session' route: spec 1 §7 fetches the csrf cookie before
  // reset and verify only, and the mobile shell has no cookie. A browser that has the cookie must still send the
  // XSRF header (the default rule for cookie-carrying requests).
  app.post(
    '/auth/forgot-password',
    { config: { auth: false, signIn: true }, schema: { tags: ['auth'], body: ForgotPasswordBody } },
    async (request) => {
      await forgotPassword(request.ctx, request.body);
      return done(Messages.resetLinkSent);
    },
  );

  // spec 1 §7 "POST /auth/reset-password (gets the CSRF cookie first)": a web-session route.
  app.post(
    '/auth/reset-password',
    {
      config: { csrf: 'session-or-json', auth: false, signIn: true },
      schema: { tags: ['auth'], body: ResetPasswordBody },
    },
    async (request) => {
      await resetPassword(request.ctx, request.body);
      return done(Messages.passwordReset);
    },
  );

  // spec 1 §7 "POST /auth/verify-email (same)".
  app.post(
    '/auth/verify-email',
    { config: { csrf: 'session-or-json', auth: false }, schema: { tags: ['auth'], body: VerifyEmailBody } },
    async (request) => done(await verifyEmail(request.ctx, request.body)),
  );

  // issue 29 §8: the mailed link that lets this browser sign in while failed sign-ins elsewhere hold the account's new
  // devices back. Like verify-email: a web-session route that the mobile shell may call with JSON and no cookie.
  app.post(
    '/auth/unlock-sign-in',
    {
      config: { csrf: 'session-or-json', auth: false, signIn: true },
      schema: { tags: ['auth'], body: UnlockSignInBody },
    },
    async (request, reply) => {
      const secret = await unlockSignIn(request.ctx, request.body, deviceCookieOf(request, request.ctx));
      setDeviceCookie(reply, request.ctx, secret);
      return done(Messages.signInUnlocked);
    },
  );

  app.post('/auth/update-email', { schema: { tags: ['auth'], body: UpdateEmailBody } }, async (request) => {
    await updateEmail(request.ctx, request.body);
    return done(Messages.emailUpdated);
  });

  app.post(
    '/auth/update-password',
    { schema: { tags: ['auth'], body: UpdatePasswordBody } },
    async (request) => {
      await updatePassword(request.ctx, request.body);
      return done(Messages.passwordUpdated);
    },
  );

  // issue 29 §6: the password again, before managing sessions and devices (their routes answer 423 until then).
  app.post(
    '/auth/confirm-password',
    { schema: { tags: ['auth'], body: ConfirmPasswordBody } },
    async (request) => {
      await confirmOwnPassword(request.ctx, request.body);
      return done(Messages.passwordConfirmed);
    },
  );

  // issue 11 §10: "Sessions and devices" under the user's account menu.
  app.get(
    '/auth/sessions',
    { schema: { tags: ['auth'], response: { 200: z.object({ data: z.array(OwnSession) }) } } },
    async (request) => ok(await listOwnSessions(request.ctx)),
  );

  app.post('/auth/logout-others', { schema: { tags: ['auth'] } }, async (request) => {
    await endOtherSessions(request.ctx);
    return done(Messages.otherSessionsEnded);
  });

  app.post(
    '/auth/logout/:id',
    { schema: { tags: ['auth'], params: z.object({ id: z.string().max(64) }) } },
    async (request) => {
      await endOwnSession(request.ctx, request.params.id);
      return done(Messages.sessionEnded);
    },
  );
}

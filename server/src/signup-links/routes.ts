import {
  ConfirmSignupBody,
  CreateSignupLinkBody,
  SignupLinkMessages as M,
  OpenSignupLinkBody,
  SignedUp,
  SignUpBody,
  SignupLinkListQuery,
  SignupLinkParams,
  SignupListQuery,
} from '@cc/contracts';
import { z } from 'zod';
import { startWebSession } from '../auth/service';
import type { App } from '../http/app-types';
import { setSessionCookies } from '../http/authenticate';
import { ok, paginate } from '../http/envelope';
import { confirmSignup, mySignup, openSignupLink, signUpThroughLink } from './public-service';
import {
  approveSignup,
  createSignupLink,
  getSignupLink,
  listSignupLinks,
  listSignupsOf,
  rejectSignup,
  revokeSignupLink,
} from './service';

/**
 * Sign-up links (issue 18; contracts signup-links.ts): HTTP only, the rules live in the services. The manager's
 * routes need a session or token and permission 3; `open` and `sign-up` are the public page's (no login).
 */
export async function signupLinkRoutes(app: App): Promise<void> {
  const tags = ['signup-links'];
  app.get('/signup-links', { schema: { tags, querystring: SignupLinkListQuery } }, async (r) => {
    const { data, total } = await listSignupLinks(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/signup-links', { schema: { tags, body: CreateSignupLinkBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createSignupLink(r.ctx, r.body), M.created)),
  );
  app.get('/signup-links/signups', { schema: { tags, querystring: SignupListQuery } }, async (r) => {
    const { data, total } = await listSignupsOf(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.get('/signup-links/mine', { schema: { tags } }, async (r) => ok(await mySignup(r.ctx)));
  app.get('/signup-links/:id', { schema: { tags, params: SignupLinkParams } }, async (r) =>
    ok(await getSignupLink(r.ctx, r.params.id)),
  );
  app.post('/signup-links/:id/revoke', { schema: { tags, params: SignupLinkParams } }, async (r) =>
    ok(await revokeSignupLink(r.ctx, r.params.id), M.revoked),
  );
  app.post('/signup-links/signups/:id/approve', { schema: { tags, params: SignupLinkParams } }, async (r) =>
    ok(await approveSignup(r.ctx, r.params.id), M.approved),
  );
  app.post('/signup-links/signups/:id/reject', { schema: { tags, params: SignupLinkParams } }, async (r) => {
    const { view, message } = await rejectSignup(r.ctx, r.params.id);
    return ok(view, message);
  });

  // The public page (no login). POST, so the token travels in the body and not in access logs' URLs.
  app.post(
    '/signup-links/open',
    { config: { auth: false, csrf: 'off' }, schema: { tags, body: OpenSignupLinkBody } },
    async (r) => ok(await openSignupLink(r.ctx, r.body.token)),
  );
  // The same answer whether or not the address has an account (issue 29 §5): a confirm link, or the owner, is mailed.
  app.post(
    '/signup-links/sign-up',
    {
      config: { auth: false, csrf: 'session-or-json' },
      schema: { tags, body: SignUpBody, response: { 202: z.object({ message: z.string() }) } },
    },
    async (r, reply) => {
      await signUpThroughLink(r.ctx, r.body);
      return reply.status(202).send({ message: M.checkEmail });
    },
  );
  // The confirm link's page calls this: a web-session route like /login (a signed-out browser sends its csrf-cookie
  // token), then signed in at once and on to the learner dashboard.
  app.post(
    '/signup-links/confirm',
    {
      config: { auth: false, csrf: 'session-or-json' },
      schema: {
        tags,
        body: ConfirmSignupBody,
        response: { 201: z.object({ data: SignedUp, message: z.string() }) },
      },
    },
    async (r, reply) => {
      const { userId } = await confirmSignup(r.ctx, r.body.token);
      // Signed in by the mailed link, not by a password: managing sessions will ask for it (issue 29 §6).
      const { session, user } = await startWebSession(r.ctx, userId, r.session?.id ?? null, {
        passwordGiven: false,
      });
      setSessionCookies(reply, r.ctx, session.secret, session.csrfToken);
      return reply.status(201).send({ data: { user, pending: true as const }, message: M.signedUp });
    },
  );
}

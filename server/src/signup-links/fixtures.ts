import { randomUUID } from 'node:crypto';
import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import { buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import { cookiesOf, type Harness } from '../../test/harness';
import { lastMail } from '../auth/flows-test-support';

/** Test world of sign-up links: a group with a home, a role and a type, a manager (3, 86) at the group. */
export const MANAGER_PERMS = [3, 21, 86, 104];

export async function signupWorld(h: Harness) {
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { level: 'B', parentId: group.id });
  const role = await buildRole(h.db, group.id, { name: 'Care Assistant' });
  const type = await buildType(h.db, group.id, { name: 'Learner', permissions: [104] });
  const manager = await buildUser(h.db, { entityId: group.id, permissions: MANAGER_PERMS });
  const version = await h.db
    .selectFrom('care_certificate_versions')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return {
    group,
    home,
    role,
    type,
    manager,
    versionId: version.id,
    as: await clientFor(h.app, h.db, manager.id),
  };
}
export type SignupWorld = Awaited<ReturnType<typeof signupWorld>>;

export const linkBody = (w: SignupWorld, extra: Record<string, unknown> = {}) => ({
  entity_id: w.home.id,
  role_id: w.role.id,
  type_id: w.type.id,
  start_date: '2030-01-06',
  ...extra,
});

/** Creates a link as the world's manager; returns its id and token. */
export async function makeLink(w: SignupWorld, extra: Record<string, unknown> = {}) {
  const res = await w.as('POST', '/api/signup-links', linkBody(w, extra));
  if (res.statusCode !== 201) throw new Error(`link not created: ${res.body}`);
  const data = res.json().data as { id: number; token: string; url: string };
  return data;
}

let address = 1;
/** A fresh client address per sign-up, so the per-address throttle stays out of tests that are not about it. */
export const nextAddress = () => `10.1.${Math.floor(address / 250)}.${(address++ % 250) + 1}`;

/** POST /signup-links/sign-up as a browser does (JSON body; a signed-out browser would also send its XSRF cookie). */
export function requestSignUp(
  h: Harness,
  token: string,
  o: { email?: string; name?: string; password?: string; confirm?: string; ip?: string } = {},
) {
  const password = o.password ?? 'Kettle-Orchard-Lantern-93';
  return h.app.inject({
    method: 'POST',
    url: '/api/signup-links/sign-up',
    remoteAddress: o.ip ?? nextAddress(),
    payload: {
      token,
      name: o.name ?? 'Nia Starter',
      email: o.email ?? `starter-${randomUUID().slice(0, 8)}@example.test`,
      password,
      password_confirmation: o.confirm ?? password,
    },
  });
}

/** The confirm token of the newest sign-up confirmation mailed to an address, or null. */
export async function confirmTokenFor(h: Harness, email: string): Promise<string | null> {
  const mail = await lastMail(h, email, 'confirm_signup');
  const match = mail?.text_body.match(/[?&]confirm=([^\s&]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** POST /signup-links/confirm with a confirm token, as the sign-up page does when the mailed link is opened. */
export function confirmSignUp(h: Harness, token: string, ip?: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/signup-links/confirm',
    remoteAddress: ip ?? nextAddress(),
    payload: { token },
  });
}

/**
 * What a new starter does: signs up through the link (202 whatever the address, issue 29 §5), then follows the
 * confirm link mailed to them, which answers 201 and signs them in. A refused sign-up's answer comes back as it is,
 * and so does the 202 of an address that has an account (its owner is mailed, there is no link to follow).
 */
export async function signUp(
  h: Harness,
  token: string,
  o: { email?: string; name?: string; password?: string; confirm?: string; ip?: string } = {},
) {
  const email = (o.email ?? `starter-${randomUUID().slice(0, 8)}@example.test`).toLowerCase();
  const before = await confirmTokenFor(h, email);
  const res = await requestSignUp(h, token, { ...o, email });
  if (res.statusCode !== 202) return res;
  const confirm = await confirmTokenFor(h, email);
  if (!confirm || confirm === before) return res;
  return confirmSignUp(h, confirm, o.ip);
}

/** The session cookies a sign-up set, ready for the next request. */
export const sessionOf = (res: Awaited<ReturnType<typeof signUp>>) => {
  const jar = cookiesOf(res);
  return {
    cookies: { [SESSION_COOKIE]: jar[SESSION_COOKIE] ?? '', [CSRF_COOKIE]: jar[CSRF_COOKIE] ?? '' },
    headers: { 'x-xsrf-token': jar[CSRF_COOKIE] ?? '' },
  };
};

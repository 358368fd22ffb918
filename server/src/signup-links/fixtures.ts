import { randomUUID } from 'node:crypto';
import { CSRF_COOKIE, SESSION_COOKIE } from '@cc/contracts';
import { buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import { cookiesOf, type Harness } from '../../test/harness';

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

/** Signs up through a link as a browser does (JSON body; a signed-out browser would also send its XSRF cookie). */
export function signUp(
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

/** The session cookies a sign-up set, ready for the next request. */
export const sessionOf = (res: Awaited<ReturnType<typeof signUp>>) => {
  const jar = cookiesOf(res);
  return {
    cookies: { [SESSION_COOKIE]: jar[SESSION_COOKIE] ?? '', [CSRF_COOKIE]: jar[CSRF_COOKIE] ?? '' },
    headers: { 'x-xsrf-token': jar[CSRF_COOKIE] ?? '' },
  };
};

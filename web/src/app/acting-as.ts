import { ACTING_AS_HEADER, type AuthUser, Perm, STORAGE_KEYS } from '@cc/contracts';
import { api, apiHooks, type Envelope } from './api';
import { authStore, checkPermission, onLogout, permissionsStore } from './auth';
import { readJson, readString, writeJson, writeString } from './storage';
import { createStore, useStore } from './store';
import { loadWhitelabel, subdomainOf } from './whitelabel';

/**
 * Acting-as (spec 1 §3, §4, §6): the entity the user currently acts for. Stored locally under `actingAs`
 * (the entity) and `graphQLActingAs` (its id), restored at start-up. A user lands on their primary entity (a super
 * admin on their a_entity: landingFor); resetting (null) goes back to the a_entity.
 */
export interface ActingAsEntity {
  id: number;
  slug: string;
  name: string;
  level?: 'A' | 'B';
  can_see_new_dashboards?: boolean;
  can_view_internal_bookings?: boolean;
  can_view_external_bookings?: boolean;
  can_manage_bookings?: boolean;
}

export const actingAsStore = createStore<ActingAsEntity | null>(null);

export function useActingAs(): ActingAsEntity | null {
  return useStore(actingAsStore);
}

function defaultFor(user: AuthUser | null): ActingAsEntity | null {
  return user ? { ...user.a_entity } : null;
}

/** May act as other entities (permission 19; a super admin holds every permission). */
const mayActAs = (user: AuthUser) => checkPermission(user, permissionsStore.get(), [Perm.actingAs]);

/**
 * Where a user lands after signing in (issue 13 "a home manager lands on the whole group"): their primary entity —
 * a home manager's home — rather than the a_entity of spec 1 §3, which a super admin keeps (their organisation). A
 * user who may act as (19) switches to the group from there; one who may not is scoped to their primary entity by the
 * server anyway, so showing the group's name and figures misled them.
 */
export function landingFor(user: AuthUser | null): ActingAsEntity | null {
  if (!user) return null;
  if (user.super_admin) return defaultFor(user);
  return { ...user.primary_entity };
}

function persist(entity: ActingAsEntity | null): void {
  actingAsStore.set(entity);
  writeJson(STORAGE_KEYS.actingAs, entity);
  writeString(STORAGE_KEYS.graphQLActingAs, entity ? String(entity.id) : null);
}

/**
 * null resets to the user's own a_entity; an entity id fetches that entity (GET /api/entities/{id}), sets
 * it, keeps it locally and applies the white-label theme for its slug.
 */
export async function setActingAs(entityId: number | null): Promise<ActingAsEntity | null> {
  if (entityId === null) {
    const entity = defaultFor(authStore.get().user);
    persist(entity);
    if (entity) void loadWhitelabel({ slug: entity.slug });
    return entity;
  }
  const res = await api.get<Envelope<ActingAsEntity>>(`/entities/${entityId}`, { actingAs: false });
  const entity = res.data.data;
  persist(entity);
  void loadWhitelabel({ slug: entity.slug });
  return entity;
}

/**
 * Viewing follows the organisation of an /entities/{slug} address (issue 38 §3: entities/EntityViewing.tsx). Asked
 * with the slug itself as acting-as, so the server decides whether the caller may act as it (a super admin anywhere,
 * permission 19 within their organisation) and answers the entity as it will be seen from there. `loaded` runs with
 * the entity before Viewing changes, so a page never renders for the new Viewing without its entity.
 */
export async function viewEntityAt<T extends ActingAsEntity>(
  slug: string,
  loaded: (entity: T) => void,
): Promise<T> {
  const res = await api.get<Envelope<T>>(`/entities/${encodeURIComponent(slug)}`, {
    actingAs: false,
    headers: { [ACTING_AS_HEADER]: slug },
    skipAuthHandling: true,
  });
  const entity = res.data.data;
  loaded(entity);
  persist(entity);
  void loadWhitelabel({ slug: entity.slug });
  return entity;
}

/** Start-up: the saved entity, else the default for the restored user. */
export function restoreActingAs(): void {
  const stored = readJson<ActingAsEntity>(STORAGE_KEYS.actingAs);
  const storedId = readString(STORAGE_KEYS.graphQLActingAs);
  const user = authStore.get().user;
  // A user who may not act as cannot have chosen anything else: they are always on their landing entity.
  const chosen = stored && (!storedId || storedId === String(stored.id)) && (!user || mayActAs(user));
  if (stored && chosen) actingAsStore.set(stored);
  else persist(landingFor(user));
}

/**
 * The slug sent with requests. Only for a user who may act as (super admin or permission 19): for anyone
 * else the server scopes to their own entity, and sending their organisation's slug would be refused.
 */
export function actingAsSlugForRequests(): string | null {
  const entity = actingAsStore.get();
  if (!entity) return null;
  const user = authStore.get().user;
  return checkPermission(user, permissionsStore.get(), [Perm.actingAs]) ? entity.slug : null;
}

apiHooks.getActingAsSlug = actingAsSlugForRequests;

// A new login starts from the user's own organisation and wears its branding (unless a sub-domain decides it);
// logout forgets the choice.
let lastUserId: number | null = null;
authStore.subscribe(() => {
  const user = authStore.get().user;
  const id = user?.id ?? null;
  if (id !== null && id !== lastUserId) {
    if (lastUserId !== null || !actingAsStore.get() || (user && !mayActAs(user))) persist(landingFor(user));
    const entity = actingAsStore.get();
    if (entity && !subdomainOf(window.location.hostname)) void loadWhitelabel({ slug: entity.slug });
  }
  lastUserId = id;
});
onLogout(() => {
  lastUserId = null;
  persist(null);
});

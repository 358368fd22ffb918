import { ACTING_AS_HEADER, TRAINING_PROVIDER_DEFAULTS } from '@cc/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { authStore, permissionsStore, setUser } from '../app/auth';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { json, stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-routes';

/**
 * Issue 38 §3: a super admin viewing one organisation opens another's page by its address (here a training company's
 * provider settings). The server scopes every call to the Viewing organisation, so the page's calls answered 404 and
 * the page said "We couldn't find that entity" until the user switched Viewing by hand.
 */

const MEADOWBROOK = { id: 1, slug: 'meadowbrook', name: 'Meadowbrook Care Group', level: 'A' as const };
const BRIGHTPATH = {
  id: 9,
  slug: 'brightpath-training',
  name: 'Brightpath Training',
  level: 'A' as const,
  is_training_company: true,
  parent: null,
  children: [],
};
const SETTINGS_PATH = '/entities/brightpath-training/training-provider-settings';

/** The server's scope: Brightpath answers only to a caller acting as Brightpath (or a subtree holding it). */
const calls: { path: string; actingAs: string | null }[] = [];
/** Brightpath as a sub-organisation of Meadowbrook: it answers to a caller viewing Meadowbrook too. */
let underMeadowbrook = false;
beforeEach(() => {
  underMeadowbrook = false;
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  calls.length = 0;
  stubApi(({ url, headers }) => {
    const actingAs = headers[ACTING_AS_HEADER] ?? null;
    calls.push({ path: url.pathname, actingAs });
    const asBrightpath = actingAs === BRIGHTPATH.slug || (underMeadowbrook && actingAs === MEADOWBROOK.slug);
    if (url.pathname === `/api/entities/${BRIGHTPATH.slug}` && asBrightpath)
      return json(200, { data: BRIGHTPATH });
    if (url.pathname === `/api/entities/${BRIGHTPATH.slug}/training-provider-settings` && asBrightpath)
      return json(200, { data: { ...TRAINING_PROVIDER_DEFAULTS, entity_id: BRIGHTPATH.id } });
  });
});
afterEach(() => vi.unstubAllGlobals());

const renderAt = (path: string) => renderRoutes(routes, path);

describe("another organisation's page by its address (issue 38 §3)", () => {
  it('a super admin viewing another organisation gets the page, and Viewing follows it', async () => {
    setUser(makeUser({ super_admin: true, a_entity: { ...makeUser().a_entity, ...MEADOWBROOK } }));
    actingAsStore.set(MEADOWBROOK);
    const router = renderAt(SETTINGS_PATH);
    // The first render loads the lazy pages: more than findBy's second.
    expect(
      await screen.findByRole('button', { name: 'Save settings' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('How Brightpath Training runs its sessions for other organisations.'),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(SETTINGS_PATH);
    expect(actingAsStore.get()?.slug).toBe(BRIGHTPATH.slug);
    expect(screen.getByTestId('acting-as')).toHaveTextContent('Brightpath Training');
  });

  it('an organisation within the one viewed leaves Viewing alone', async () => {
    underMeadowbrook = true;
    setUser(makeUser({ super_admin: true, a_entity: { ...makeUser().a_entity, ...MEADOWBROOK } }));
    actingAsStore.set(MEADOWBROOK);
    renderAt(SETTINGS_PATH);
    await screen.findByRole('button', { name: 'Save settings' }, { timeout: 15_000 });
    expect(actingAsStore.get()?.slug).toBe(MEADOWBROOK.slug);
    expect(calls.filter((c) => c.actingAs === BRIGHTPATH.slug)).toEqual([]);
  });

  it('someone who may not act as keeps the 404, in plain words', async () => {
    setUser(makeUser({ permissions: [{ id: 110, slug: 'training-provider' }] }));
    const router = renderAt(SETTINGS_PATH);
    await screen.findByRole('heading', { name: "We couldn't find that organisation" }, { timeout: 15_000 });
    expect(router.state.location.pathname).toBe('/404');
    // No attempt to act as the address's organisation: they cannot choose Viewing.
    expect(calls.filter((c) => c.actingAs === BRIGHTPATH.slug)).toEqual([]);
  });
});

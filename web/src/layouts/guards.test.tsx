import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { authStore, permissionsStore, setUser } from '../app/auth';
import { routePattern } from '../app/route-meta';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { renderRoutes } from '../test/render-routes';
import { canSeeLearnerDashboard } from './guards';

const renderAt = (path: string) => renderRoutes(routes, path);

beforeEach(() => {
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  // Background calls (white-label, entities) answer 404 here.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } })),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('route guards (spec 1 §2)', () => {
  it('sends a logged-out user to /login with the full path and query as redirect', async () => {
    const router = renderAt('/users?page=2&search=ann#top');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe(
      '/users?page=2&search=ann#top',
    );
  });

  it('lets a logged-in user in and titles the page', async () => {
    setUser(makeUser());
    renderAt('/tasks-in-progress');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tasks in progress' })).toBeInTheDocument();
    await vi.waitFor(() => expect(document.title).toBe('Tasks in progress | CareCompliance'));
  });

  it('sends a logged-in user away from /login to /', async () => {
    setUser(makeUser());
    const router = renderAt('/login');
    await screen.findByRole('heading', { name: /Welcome, Sam/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a user without permission 12 from /reports/matrix to /403 (issue 38), and lets a holder in', async () => {
    setUser(makeUser());
    const router = renderAt('/reports/matrix');
    await screen.findByRole('heading', { name: "You don't have access to this" });
    expect(router.state.location.pathname).toBe('/403');
    permissionsStore.set([12]);
    const allowed = renderAt('/reports/matrix-legacy');
    await vi.waitFor(() => expect(allowed.state.location.pathname).toBe('/reports/matrix-legacy'));
    await vi.waitFor(() => expect(document.title).toBe('Compliance matrix (legacy) | CareCompliance'));
  });

  it('unknown paths go to /404?resource=page', async () => {
    const router = renderAt('/no/such/page');
    await screen.findByRole('heading', { name: "We couldn't find that page" });
    expect(router.state.location.pathname).toBe('/404');
    expect(router.state.location.search).toBe('?resource=page');
  });

  it('/404 names the resource', async () => {
    renderAt('/404?resource=user');
    await screen.findByRole('heading', { name: "We couldn't find that user" });
  });

  it('learner dashboard: in with the feature and permission 104', async () => {
    setUser(makeUser());
    const router = renderAt('/learner-dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Learner dashboard' });
    expect(router.state.location.pathname).toBe('/learner-dashboard');
  });

  it('learner dashboard: without permission 104 back to the events screen', async () => {
    setUser(makeUser({ permissions: [] }));
    const router = renderAt('/learner-dashboard');
    await screen.findByRole('heading', { name: /Welcome, Sam/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it('learner dashboard: without the entity feature back to the events screen', async () => {
    const user = makeUser();
    setUser({ ...user, a_entity: { ...user.a_entity, can_see_new_dashboards: false } });
    const router = renderAt('/learner-dashboard');
    await screen.findByRole('heading', { name: /Welcome, Sam/ });
    expect(router.state.location.pathname).toBe('/');
  });

  it('guard logic: both the feature and the permission are needed', () => {
    expect(canSeeLearnerDashboard(true, undefined, true)).toBe(true);
    expect(canSeeLearnerDashboard(undefined, true, true)).toBe(true);
    expect(canSeeLearnerDashboard(false, true, true)).toBe(false);
    expect(canSeeLearnerDashboard(true, true, false)).toBe(false);
  });

  it('/forgot-password logs a logged-in user out first', async () => {
    setUser(makeUser());
    const router = renderAt('/forgot-password');
    // The loader runs before the page shows (router initialised = loaders done).
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
    expect(router.state.location.pathname).toBe('/forgot-password');
    expect(authStore.get().user).toBeNull();
    expect(localStorage.getItem('authUser')).toBeNull();
  });

  it('/verify-email/{token} posts the token before showing the result', async () => {
    document.cookie = 'XSRF-TOKEN=x';
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) =>
      String(url).endsWith('/api/auth/verify-email')
        ? new Response(JSON.stringify({ message: 'Your e-mail address has been verified.' }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          })
        : new Response(null, { status: 204 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderAt('/verify-email/tok-123');
    await screen.findByText('Your e-mail address has been verified.');
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/api/auth/verify-email'));
    expect(call?.[1]?.body).toBe('{"token":"tok-123"}');
  });

  it('stores the route pattern with params as *', () => {
    expect(routePattern('/users/abc-123', { uuid: 'abc-123' })).toBe('/users/*');
    expect(routePattern('/entities/acme/role/4/courses', { slug: 'acme', role: '4' })).toBe(
      '/entities/*/role/*/courses',
    );
    expect(routePattern('/users', {})).toBe('/users');
  });
});

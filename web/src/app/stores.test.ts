import { MODAL_DEFAULTS, STORAGE_KEYS } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/factories';
import { json } from '../test/fake-api';
import { actingAsSlugForRequests, actingAsStore, restoreActingAs, setActingAs } from './acting-as';
import {
  authStore,
  checkPermission,
  login,
  logout,
  permissionsStore,
  resetPassword,
  restoreAuth,
  setUser,
} from './auth';
import { hideModal, modalStore, modalZIndex, onModalEvent, showModal } from './modal';
import { setNavigator } from './navigation';
import { addNotification, errorNoticeText, notificationsStore, removeNotification } from './notifications';

const navigate = vi.fn();
beforeEach(() => {
  navigate.mockReset();
  setNavigator(navigate);
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  modalStore.set({});
  notificationsStore.set([]);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
});

describe('auth store (spec 1 §3, §4)', () => {
  it('login: loading on, then the user is set and persisted under authUser', async () => {
    const user = makeUser();
    const fetchMock = vi.fn(async (url: string) => {
      if (String(url).endsWith('/sanctum/csrf-cookie')) {
        document.cookie = 'XSRF-TOKEN=abc';
        return new Response(null, { status: 204 });
      }
      expect(authStore.get().loading).toBe(true);
      return json(200, { data: user });
    });
    vi.stubGlobal('fetch', fetchMock);
    await expect(login({ email: 'sam@example.test', password: 'x' })).resolves.toBe(true);
    expect(authStore.get()).toMatchObject({ user, loading: false, error: null, token: null });
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.authUser)!)).toEqual(user);
    expect(fetchMock.mock.calls[1][0]).toBe('/login');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('login failure: the error is set from the response data', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(422, { message: 'These credentials do not match our records.', errors: { email: ['bad'] } }),
      ),
    );
    document.cookie = 'XSRF-TOKEN=abc';
    await expect(login({ email: 'a@b.c', password: 'x' })).resolves.toBe(false);
    expect(authStore.get().error).toEqual({
      message: 'These credentials do not match our records.',
      errors: { email: ['bad'] },
    });
    expect(authStore.get().user).toBeNull();
    expect(authStore.get().loading).toBe(false);
  });

  it('logout always clears stored user data and token, even when the server call fails, and goes to /', async () => {
    setUser(makeUser());
    localStorage.setItem(STORAGE_KEYS.token, 'tok');
    localStorage.setItem(STORAGE_KEYS.actingAs, JSON.stringify({ id: 1, slug: 'x', name: 'X' }));
    restoreAuth();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(500, { message: 'boom' })),
    );
    await logout();
    expect(authStore.get().user).toBeNull();
    expect(authStore.get().token).toBeNull();
    for (const key of [
      STORAGE_KEYS.authUser,
      STORAGE_KEYS.token,
      STORAGE_KEYS.actingAs,
      STORAGE_KEYS.graphQLActingAs,
    ])
      expect(localStorage.getItem(key)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/', undefined);
  });

  it('logout with redirect false stays put', async () => {
    setUser(makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { message: 'ok' })),
    );
    await logout({ redirect: false });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('reset failure with a message shows the password errors joined by line breaks', async () => {
    document.cookie = 'XSRF-TOKEN=abc';
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        String(url).includes('csrf')
          ? new Response(null, { status: 204 })
          : json(422, {
              message: 'The given data was invalid.',
              errors: { password: ['Too short.', 'Needs a number.'] },
            }),
      ),
    );
    const ok = await resetPassword({ token: 't', email: 'a@b.c', password: 'x', password_confirmation: 'x' });
    expect(ok).toBe(false);
    expect(authStore.get().error?.message).toBe('Too short.\nNeeds a number.');
    expect(authStore.get().message).toBeNull();
  });

  it('permission checks: all/any by id, super_admin passes everything', () => {
    const user = makeUser({
      permissions: [
        { id: 21, slug: 'a' },
        { id: 22, slug: 'b' },
      ],
    });
    expect(checkPermission(user, null, [21, 22])).toBe(true);
    expect(checkPermission(user, null, [21, 49])).toBe(false);
    expect(checkPermission(user, null, [21, 49], 'any')).toBe(true);
    expect(checkPermission(user, [49], [21])).toBe(false); // the loaded list wins over the user's own
    expect(checkPermission(makeUser({ super_admin: true, permissions: [] }), null, [133, 1])).toBe(true);
    expect(checkPermission(null, null, [1], 'any')).toBe(false);
  });
});

describe('acting-as store (spec 1 §4)', () => {
  it('lands a user on their own home (primary entity) and persists it under actingAs / graphQLActingAs', () => {
    setUser(makeUser());
    expect(actingAsStore.get()?.slug).toBe('oakfield');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEYS.actingAs)!).id).toBe(2);
    expect(localStorage.getItem(STORAGE_KEYS.graphQLActingAs)).toBe('2');
  });

  it('lands a home manager who may act as (19) on their home too, and a super admin on the a_entity', () => {
    setUser(makeUser({ permissions: [{ id: 19, slug: 'acting-as' }] }));
    expect(actingAsStore.get()?.name).toBe('Oakfield House');
    setUser(null);
    actingAsStore.set(null);
    setUser(makeUser({ id: 8, super_admin: true }));
    expect(actingAsStore.get()?.slug).toBe('meadowbrook');
  });

  it('does not restore the group for a user who may not act as (an older session stored it)', () => {
    setUser(makeUser());
    localStorage.setItem(
      STORAGE_KEYS.actingAs,
      JSON.stringify({ id: 1, slug: 'meadowbrook', name: 'Meadowbrook' }),
    );
    localStorage.setItem(STORAGE_KEYS.graphQLActingAs, '1');
    actingAsStore.set(null);
    restoreActingAs();
    expect(actingAsStore.get()?.slug).toBe('oakfield');
  });

  it('an entity id fetches the entity, stores it and loads its white-label by slug; null resets', async () => {
    setUser(makeUser({ permissions: [{ id: 19, slug: 'acting-as' }] }));
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(String(url));
        if (String(url).startsWith('/api/entities/5'))
          return json(200, { data: { id: 5, slug: 'oakfield', name: 'Oakfield House' } });
        return json(404, { message: 'Not found.' });
      }),
    );
    await setActingAs(5);
    expect(actingAsStore.get()).toMatchObject({ id: 5, slug: 'oakfield' });
    expect(localStorage.getItem(STORAGE_KEYS.graphQLActingAs)).toBe('5');
    expect(calls[0]).toBe('/api/entities/5');
    await vi.waitFor(() =>
      expect(calls.some((c) => c.startsWith('/api/whitelabel?slug=oakfield'))).toBe(true),
    );
    expect(actingAsSlugForRequests()).toBe('oakfield');

    await setActingAs(null);
    expect(actingAsStore.get()?.id).toBe(1);
    expect(localStorage.getItem(STORAGE_KEYS.graphQLActingAs)).toBe('1');
  });

  it('is restored from storage at start-up', () => {
    setUser(makeUser({ permissions: [{ id: 19, slug: 'acting-as' }] }));
    localStorage.setItem(STORAGE_KEYS.actingAs, JSON.stringify({ id: 9, slug: 'nine', name: 'Nine' }));
    localStorage.setItem(STORAGE_KEYS.graphQLActingAs, '9');
    actingAsStore.set(null);
    restoreActingAs();
    expect(actingAsStore.get()?.slug).toBe('nine');
  });

  it('is not sent for a user who may not act as (permission 19)', () => {
    setUser(makeUser());
    expect(actingAsStore.get()).not.toBeNull();
    expect(actingAsSlugForRequests()).toBeNull();
  });
});

describe('notifications (spec 1 §3)', () => {
  it('adds and removes by id', () => {
    const a = addNotification({ message: 'one', timeout: 0 });
    const b = addNotification({ message: 'two', type: 'error' });
    expect(a).not.toBe(b);
    expect(notificationsStore.get().map((n) => n.message)).toEqual(['one', 'two']);
    removeNotification(a);
    expect(notificationsStore.get().map((n) => n.id)).toEqual([b]);
  });

  it('removes itself after its timeout', () => {
    vi.useFakeTimers();
    addNotification({ message: 'bye', timeout: 1000 });
    vi.advanceTimersByTime(1000);
    expect(notificationsStore.get()).toEqual([]);
    vi.useRealTimers();
  });

  it('generic error notice = server message plus the JSON of errors', () => {
    expect(errorNoticeText({ message: 'Bad', errors: { name: ['Required'] } }, 'x')).toBe(
      'Bad {"name":["Required"]}',
    );
    expect(errorNoticeText(null, 'Failed to fetch entities.')).toBe('Failed to fetch entities.');
  });
});

describe('named modals (spec 1 §2)', () => {
  it('shows and hides by name with data, announcing before-open and before-close', () => {
    const events: string[] = [];
    const off1 = onModalEvent('before-open', (d) => events.push(`open:${d.name}:${JSON.stringify(d.data)}`));
    const off2 = onModalEvent('before-close', (d) => events.push(`close:${d.name}`));
    showModal('entity', { id: 3 });
    expect(modalStore.get().entity).toMatchObject({ visible: true, data: { id: 3 } });
    hideModal('entity');
    expect(modalStore.get().entity.visible).toBe(false);
    hideModal('entity'); // already hidden: no second event
    expect(events).toEqual(['open:entity:{"id":3}', 'close:entity']);
    off1();
    off2();
  });

  it('stacks from 99 upwards', () => {
    showModal('a');
    showModal('b');
    expect(modalZIndex(modalStore.get().a)).toBe(MODAL_DEFAULTS.zIndexStart);
    expect(modalZIndex(modalStore.get().b)).toBe(100);
    hideModal('b');
    hideModal('a');
    showModal('c');
    expect(modalZIndex(modalStore.get().c)).toBe(99);
  });
});

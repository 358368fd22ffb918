import { Messages, STORAGE_KEYS } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/factories';
import { actingAsStore } from './acting-as';
import { ApiError, api } from './api';
import { authStore, permissionsStore, setUser } from './auth';
import { setNavigator } from './navigation';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const navigate = vi.fn();
beforeEach(() => {
  navigate.mockReset();
  setNavigator(navigate);
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  window.history.replaceState(null, '', '/users');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  setNavigator(null);
});

describe('api client (spec 1 §7)', () => {
  it('reads /api, includes credentials and resolves with {status, data}', async () => {
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { data: { ok: true } }));
    vi.stubGlobal('fetch', fetchMock);
    const res = await api.get('/check', { params: { page: 2, deep: true, ids: [1, 2], none: undefined } });
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ data: { ok: true } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/check?page=2&deep=1&ids%5B%5D=1&ids%5B%5D=2');
    expect(init.credentials).toBe('include');
  });

  it('sends the XSRF-TOKEN cookie as X-XSRF-TOKEN on state-changing calls', async () => {
    document.cookie = 'XSRF-TOKEN=tok%3D123';
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { data: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/users', { name: 'A' });
    const init = fetchMock.mock.calls[0][1] as unknown as RequestInit & { headers: Record<string, string> };
    expect(init.headers['X-XSRF-TOKEN']).toBe('tok%3D123');
    expect(init.headers['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"name":"A"}');
  });

  it('sends the __Host-XSRF-TOKEN cookie of a server on https, never a bare XSRF-TOKEN planted beside it (issue 29 §1)', async () => {
    // jsdom cannot hold a __Host- cookie (it is Secure): the reader sees what document.cookie would show on https.
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('XSRF-TOKEN=planted; __Host-XSRF-TOKEN=ours');
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { data: 1 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/users', { name: 'A' });
    const init = fetchMock.mock.calls[0][1] as unknown as RequestInit & { headers: Record<string, string> };
    expect(init.headers['X-XSRF-TOKEN']).toBe('ours');
  });

  it('fetches /sanctum/csrf-cookie first when the cookie is missing', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        urls.push(url);
        if (url === '/sanctum/csrf-cookie') {
          document.cookie = 'XSRF-TOKEN=fresh';
          return new Response(null, { status: 204 });
        }
        expect((init?.headers ?? {}) as Record<string, string>).toHaveProperty('X-XSRF-TOKEN', 'fresh');
        return json(200, {});
      }),
    );
    await api.patch('/users/1', { name: 'B' });
    expect(urls).toEqual(['/sanctum/csrf-cookie', '/api/users/1']);
  });

  it('does not send X-XSRF-TOKEN on GET', async () => {
    document.cookie = 'XSRF-TOKEN=abc';
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/users');
    expect(
      (fetchMock.mock.calls[0][1] as unknown as { headers: Record<string, string> }).headers['X-XSRF-TOKEN'],
    ).toBeUndefined();
  });

  it('mobile mode: Bearer from the stored token, no XSRF round trip', async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    authStore.set((s) => ({ ...s, token: 'tkn-1' }));
    localStorage.setItem(STORAGE_KEYS.token, 'tkn-1');
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/users', {});
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const headers = (fetchMock.mock.calls[0][1] as unknown as { headers: Record<string, string> }).headers;
    expect(headers.Authorization).toBe('Bearer tkn-1');
    expect(headers['X-XSRF-TOKEN']).toBeUndefined();
  });

  it('web mode never sends a Bearer header', async () => {
    authStore.set((s) => ({ ...s, token: 'tkn-1' }));
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/users');
    expect(
      (fetchMock.mock.calls[0][1] as unknown as { headers: Record<string, string> }).headers.Authorization,
    ).toBeUndefined();
  });

  it('sends the acting-as slug as header and GET query for a user who may act as', async () => {
    setUser(makeUser({ permissions: [{ id: 19, slug: 'acting-as' }] }));
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/users', { params: { page: 1 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, { headers: Record<string, string> }];
    // The user lands on their own home (acting-as.ts landingFor), which is what is sent.
    expect(url).toBe('/api/users?page=1&actingAs=oakfield');
    expect(init.headers['x-acting-as']).toBe('oakfield');
  });

  it('rejects with the response object (status and {message, errors})', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) =>
        json(422, { message: 'Invalid', errors: { name: ['Required'] } }),
      ),
    );
    document.cookie = 'XSRF-TOKEN=abc';
    const error = await api.post('/users', {}).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.response.status).toBe(422);
    expect(error.response.data.errors).toEqual({ name: ['Required'] });
  });

  it.each([401, 419])('%i outside an auth-layout page logs out and goes to /', async (status) => {
    setUser(makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) => json(status, { message: 'Unauthenticated.' })),
    );
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => expect(authStore.get().user).toBeNull());
    expect(localStorage.getItem(STORAGE_KEYS.authUser)).toBeNull();
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/', undefined));
  });

  it('401 on an auth-layout page (login) does not log out', async () => {
    window.history.replaceState(null, '', '/login');
    setUser(makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) => json(401, { message: 'Unauthenticated.' })),
    );
    await expect(api.get('/auth/user')).rejects.toBeInstanceOf(ApiError);
    expect(authStore.get().user).not.toBeNull();
  });

  it('403 goes to /403 without logging out', async () => {
    setUser(makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) =>
        json(403, { message: 'This action is unauthorized.' }),
      ),
    );
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(navigate).toHaveBeenCalledWith('/403', undefined);
    expect(authStore.get().user).not.toBeNull();
  });

  it('a 403 "password must be changed" goes to /update-password with the way back', async () => {
    setUser(makeUser());
    window.history.replaceState(null, '', '/users?page=2');
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) =>
        json(403, { message: Messages.passwordChangeRequired }),
      ),
    );
    await expect(api.get('/users')).rejects.toBeInstanceOf(ApiError);
    expect(navigate).toHaveBeenCalledWith(
      `/update-password?redirect=${encodeURIComponent('/users?page=2')}`,
      undefined,
    );
    expect(navigate).not.toHaveBeenCalledWith('/403', undefined);
  });

  it('skipAuthHandling leaves the session alone', async () => {
    setUser(makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, _init?: RequestInit) => json(401, {})),
    );
    await expect(api.get('/auth/user', { skipAuthHandling: true })).rejects.toBeInstanceOf(ApiError);
    expect(authStore.get().user).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('upload sends multipart form data', async () => {
    document.cookie = 'XSRF-TOKEN=abc';
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.upload('/whitelabel/acme', {
      primaryColour: '#000000',
      logo: new Blob(['x'], { type: 'image/png' }),
    });
    const init = fetchMock.mock.calls[0][1] as unknown as { body: FormData; headers: Record<string, string> };
    expect(init.body).toBeInstanceOf(FormData);
    expect(init.body.get('primaryColour')).toBe('#000000');
    expect(init.headers['Content-Type']).toBeUndefined();
  });
});

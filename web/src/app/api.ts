import { ACTING_AS_HEADER, type ErrorEnvelope, Messages } from '@cc/contracts';
import { readCsrfCookie } from './cookies';
import { apiOrigin, isMobile, requestCredentials } from './env';
import { isAuthLayoutPath, navigateTo } from './navigation';
import { isNetworkError, markReachable } from './network';
import { LONG_REQUEST_MS, startProgress } from './progress';

/**
 * THE api client (spec 1 §7). Every call in the web app goes through it:
 * - base address: `${VITE_API_ORIGIN}/api`, cookies included on the web, none in the mobile app (bearer token, env.ts requestCredentials);
 * - web: the XSRF-TOKEN cookie (__Host-XSRF-TOKEN on https: cookies.ts) is echoed as X-XSRF-TOKEN on state-changing calls, fetching
 *   /sanctum/csrf-cookie first when the cookie is missing;
 * - mobile mode: `Authorization: Bearer <stored token>`;
 * - the acting-as slug goes as header x-acting-as and, on GET, as query `actingAs`;
 * - a failed response rejects with an ApiError carrying the response (status, data = {message, error, errors});
 * - 401/419 outside the auth-layout pages logs the user out; 403 goes to /403 (spec 1 §4).
 * Responses are read like the spec does: `res.data.data`, `res.data.message`.
 */

export interface ApiResponse<T = unknown> {
  status: number;
  data: T;
  headers: Headers;
}

export class ApiError extends Error {
  readonly response: ApiResponse<Partial<ErrorEnvelope> | null>;
  constructor(response: ApiResponse<Partial<ErrorEnvelope> | null>) {
    super(response.data?.message || `Request failed with status ${response.status}`);
    this.name = 'ApiError';
    this.response = response;
  }
  get status(): number {
    return this.response.status;
  }
  get data(): Partial<ErrorEnvelope> | null {
    return this.response.data;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type Params = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export interface RequestOptions {
  params?: Params;
  headers?: Record<string, string>;
  /** Address the path at the API host's root instead of /api (the Sanctum-style /sanctum/csrf-cookie, /login, /logout). */
  root?: boolean;
  /** Don't log out on 401/419 or go to /403 on 403 (logout itself, background checks). */
  skipAuthHandling?: boolean;
  /** Send the acting-as slug (default true). */
  actingAs?: boolean;
  signal?: AbortSignal;
  /** Let the request outlive the page (fetch keepalive): a save sent as the learner leaves or hides it. */
  keepalive?: boolean;
  /** Read a successful answer as a Blob whatever its type (a text/csv file to save). */
  blob?: boolean;
}

/** Wired by the auth and acting-as stores at start-up (avoids an import cycle). */
export const apiHooks = {
  getToken: (): string | null => null,
  getActingAsSlug: (): string | null => null,
  isLoggedIn: (): boolean => false,
  onUnauthenticated: (): void => {},
};

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function buildUrl(path: string, options: RequestOptions = {}, method = 'GET'): string {
  const base = `${apiOrigin()}${options.root ? '' : '/api'}`;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(options.params ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) query.append(`${key}[]`, String(v));
    else query.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const slug = options.actingAs === false ? null : apiHooks.getActingAsSlug();
  if (slug && method === 'GET' && !query.has('actingAs')) query.set('actingAs', slug);
  const qs = query.toString();
  return `${base}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
}

export async function ensureCsrfCookie(): Promise<string | null> {
  let token = readCsrfCookie();
  if (!token) {
    await fetch(`${apiOrigin()}/sanctum/csrf-cookie`, { credentials: 'include' });
    token = readCsrfCookie();
  }
  return token;
}

/** GET /sanctum/csrf-cookie explicitly (web login, reset and verify do it first: spec 1 §7). */
export async function fetchCsrfCookie(): Promise<void> {
  if (isMobile()) return;
  await fetch(`${apiOrigin()}/sanctum/csrf-cookie`, { credentials: 'include' });
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      return await response.json();
    } catch {
      return null;
    }
  }
  if (type.startsWith('text/')) return { message: await response.text() };
  return response.blob();
}

export async function request<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const mobile = isMobile();
  if (mobile) {
    const token = apiHooks.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  } else if (UNSAFE.has(method)) {
    const xsrf = await ensureCsrfCookie();
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }
  const slug = options.actingAs === false ? null : apiHooks.getActingAsSlug();
  if (slug) headers[ACTING_AS_HEADER] = slug;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let stop: (() => void) | null = null;
  const timer = setTimeout(() => {
    stop = startProgress();
  }, LONG_REQUEST_MS);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options, method), {
      method,
      headers,
      body: payload,
      credentials: requestCredentials(),
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
    });
    markReachable(true);
  } catch (error) {
    // No answer at all (offline, the server unreachable): pages show what the device holds (network.ts).
    if (isNetworkError(error)) markReachable(false);
    throw error;
  } finally {
    clearTimeout(timer);
    (stop as (() => void) | null)?.();
  }

  const data = options.blob && response.ok ? await response.blob() : await parseBody(response);
  const result: ApiResponse<T> = { status: response.status, data: data as T, headers: response.headers };
  if (response.ok) return result;

  const error = new ApiError(result as ApiResponse<Partial<ErrorEnvelope> | null>);
  if (!options.skipAuthHandling) handleAuthFailure(response.status, error.data?.message);
  throw error;
}

/**
 * Spec 1 §4 session expiry: 401/419 outside an auth-layout page logs out; 403 goes to /403 — except the server's
 * "password must be changed" refusal (a password that fell due mid-session), which goes to /update-password.
 */
export function handleAuthFailure(status: number, message?: string): void {
  if ((status === 401 || status === 419) && !isAuthLayoutPath(window.location.pathname)) {
    if (apiHooks.isLoggedIn()) apiHooks.onUnauthenticated();
  } else if (status === 403 && message === Messages.passwordChangeRequired) {
    const here = `${window.location.pathname}${window.location.search}`;
    if (window.location.pathname !== '/update-password')
      navigateTo(`/update-password?redirect=${encodeURIComponent(here)}`);
  } else if (status === 403) {
    navigateTo('/403');
  }
}

export const api = {
  get: <T = unknown>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body ?? {}, options),
  patch: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, body ?? {}, options),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, body ?? {}, options),
  delete: <T = unknown>(path: string, options?: RequestOptions) =>
    request<T>('DELETE', path, undefined, options),
  /** Multipart upload: fields become form fields, File/Blob values become files. POST by default. */
  upload: <T = unknown>(
    path: string,
    fields: FormData | Record<string, string | Blob | null | undefined>,
    options?: RequestOptions & { method?: 'POST' | 'PATCH' | 'PUT' },
  ) => {
    let form: FormData;
    if (fields instanceof FormData) form = fields;
    else {
      form = new FormData();
      for (const [key, value] of Object.entries(fields))
        if (value !== null && value !== undefined) form.append(key, value);
    }
    return request<T>(options?.method ?? 'POST', path, form, options);
  },
};

/** The envelope the server answers with (spec 1 §7): read `res.data.data`. */
export interface Envelope<T> {
  data: T;
  message?: string;
}

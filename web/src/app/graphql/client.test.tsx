import { gql } from '@apollo/client';
import { Messages, STORAGE_KEYS } from '@cc/contracts';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/factories';
import { json } from '../../test/fake-api';
import { actingAsStore } from '../acting-as';
import { ApiError } from '../api';
import { authStore, permissionsStore, setUser } from '../auth';
import { setNavigator } from '../navigation';
import { createGraphQLClient, GRAPHQL_DEFAULTS } from './client';
import { courseListVariables, fetchAll, gqlMutate, gqlQuery, pagedFrom } from './request';

type Call = {
  url: string;
  init: RequestInit & { headers: Record<string, string> };
  body: Record<string, unknown>;
};

/** A fake GraphQL server: answers with `answer(body)` and records what was sent. */
function fakeServer(answer: (body: Record<string, unknown>) => Response) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    // Apollo sends header names in lower case.
    const headers = Object.fromEntries(
      Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    calls.push({ url: String(url), init: { ...init, headers } as Call['init'], body });
    return answer(body);
  });
  return { calls, fetch: fetch as unknown as typeof globalThis.fetch };
}

const PEOPLE = gql`
  query People($first: Int, $page: Int, $search: String) {
    users(first: $first, page: $page, search: $search) {
      data { id name }
      paginatorInfo { currentPage lastPage perPage total }
    }
  }
`;
const ME = gql`
  query Me {
    me { id }
  }
`;

const navigate = vi.fn();
beforeEach(() => {
  navigate.mockReset();
  setNavigator(navigate);
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  localStorage.clear();
  window.history.replaceState(null, '', '/users');
  document.cookie = 'XSRF-TOKEN=tok%3D123';
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  setNavigator(null);
});

describe('GraphQL client defaults (spec 1 §9)', () => {
  it('watched queries: no cache, errors ignored; one-off queries: no cache, errors returned', () => {
    const client = createGraphQLClient();
    expect(client.defaultOptions.watchQuery).toEqual({ fetchPolicy: 'no-cache', errorPolicy: 'ignore' });
    expect(client.defaultOptions.query).toEqual({ fetchPolicy: 'no-cache', errorPolicy: 'all' });
    expect(GRAPHQL_DEFAULTS.query.fetchPolicy).toBe('no-cache');
  });

  it('asks the server again every time (nothing is answered from a cache)', async () => {
    const server = fakeServer(() => json(200, { data: { me: { __typename: 'AuthUser', id: '1' } } }));
    const client = createGraphQLClient({ fetch: server.fetch });
    await gqlQuery(ME, {}, client);
    await gqlQuery(ME, {}, client);
    expect(server.calls).toHaveLength(2);
  });
});

describe('GraphQL requests (spec 1 §7)', () => {
  it('POSTs to /graphql with credentials, the XSRF header and operationName, variables and query', async () => {
    const server = fakeServer(() => json(200, { data: { me: { id: '7' } } }));
    const client = createGraphQLClient({ fetch: server.fetch });
    const data = await gqlQuery<{ me: { id: string } }>(ME, {}, client);
    expect(data.me.id).toBe('7');
    const [call] = server.calls;
    expect(call?.url).toBe('/graphql');
    expect(call?.init.method).toBe('POST');
    expect(call?.init.credentials).toBe('include');
    expect(call?.init.headers['x-xsrf-token']).toBe('tok%3D123');
    expect(call?.init.headers.authorization).toBeUndefined();
    expect(call?.body.operationName).toBe('Me');
    expect(String(call?.body.query)).toContain('me');
  });

  it('in token mode (the mobile build) sends the bearer token and no XSRF header', async () => {
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    authStore.set({ user: null, message: null, loading: false, error: null, token: '5|secret' });
    const server = fakeServer(() => json(200, { data: { me: { id: '1' } } }));
    await gqlQuery(ME, {}, createGraphQLClient({ fetch: server.fetch }));
    expect(server.calls[0]?.init.headers.authorization).toBe('Bearer 5|secret');
    expect(server.calls[0]?.init.headers['x-xsrf-token']).toBeUndefined();
  });

  it('sends the acting-as entity as REST does, for a user who may act as', async () => {
    setUser(makeUser({ super_admin: true }));
    actingAsStore.set({ id: 5, slug: 'care-home-b', name: 'Care home B' });
    localStorage.setItem(STORAGE_KEYS.graphQLActingAs, '5');
    const server = fakeServer(() => json(200, { data: { me: { id: '1' } } }));
    await gqlQuery(ME, {}, createGraphQLClient({ fetch: server.fetch }));
    expect(server.calls[0]?.init.headers['x-acting-as']).toBe('care-home-b');
  });
});

describe('GraphQL errors are logged, never shown (spec 1 §8, spec 2 §8)', () => {
  it('logs message, location and path to the console and rejects with the generic text', async () => {
    const logger = { error: vi.fn() };
    const server = fakeServer(() =>
      json(200, {
        data: null,
        errors: [
          {
            message: 'relation "secret_table" does not exist',
            locations: [{ line: 2, column: 5 }],
            path: ['me'],
            extensions: { code: 'INTERNAL_SERVER_ERROR' },
          },
        ],
      }),
    );
    const client = createGraphQLClient({ fetch: server.fetch, logger });
    const failure = await gqlQuery(ME, {}, client).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe(Messages.somethingWentWrong);
    expect((failure as ApiError).message).not.toContain('secret_table');
    const logged = String(logger.error.mock.calls[0]?.[0]);
    expect(logged).toContain('relation "secret_table" does not exist');
    expect(logged).toContain('"line":2');
    expect(logged).toContain('["me"]');

    // A page that shows the failure shows the generic text only.
    render(<p>{(failure as ApiError).message}</p>);
    expect(screen.queryByText(/secret_table/)).toBeNull();
  });

  it('logs network errors too', async () => {
    const logger = { error: vi.fn() };
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof globalThis.fetch;
    const failure = await gqlQuery(ME, {}, createGraphQLClient({ fetch, logger })).catch((e: unknown) => e);
    expect((failure as ApiError).status).toBe(0);
    expect(String(logger.error.mock.calls[0]?.[0])).toContain('[Network error]: Failed to fetch');
  });

  it('keeps a 422 field map for the form, with the catalogue message and not "Invalid input"', async () => {
    const logger = { error: vi.fn() };
    const server = fakeServer(() =>
      json(200, {
        data: null,
        errors: [
          {
            message: 'Invalid input',
            extensions: {
              code: 'BAD_USER_INPUT',
              status: 422,
              validation: { title: ['The title field is required.'] },
            },
          },
        ],
      }),
    );
    const mutation = gql`
      mutation Save($title: String!) {
        upsertPathway(input: { title: $title }) { id }
      }
    `;
    const failure = (await gqlMutate(
      mutation,
      { title: '' },
      createGraphQLClient({ fetch: server.fetch, logger }),
    ).catch((e: unknown) => e)) as ApiError;
    expect(failure.status).toBe(422);
    expect(failure.data?.errors).toEqual({ title: ['The title field is required.'] });
    expect(failure.message).toBe('The title field is required.');
  });

  it('401 logs the signed-in user out, as REST does', async () => {
    setUser(makeUser());
    const server = fakeServer(() =>
      json(200, {
        data: null,
        errors: [{ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED', status: 401 } }],
      }),
    );
    await gqlQuery(ME, {}, createGraphQLClient({ fetch: server.fetch, logger: { error: vi.fn() } })).catch(
      () => null,
    );
    expect(authStore.get().user).toBeNull();
  });

  it('a 419 answer from the session check logs out too', async () => {
    setUser(makeUser());
    const server = fakeServer(() => json(419, { message: Messages.sessionExpired }));
    await gqlQuery(ME, {}, createGraphQLClient({ fetch: server.fetch, logger: { error: vi.fn() } })).catch(
      () => null,
    );
    expect(authStore.get().user).toBeNull();
  });

  it('403 goes to /403', async () => {
    setUser(makeUser());
    const server = fakeServer(() =>
      json(200, {
        data: null,
        errors: [{ message: 'This action is unauthorized.', extensions: { code: 'FORBIDDEN', status: 403 } }],
      }),
    );
    await gqlQuery(ME, {}, createGraphQLClient({ fetch: server.fetch, logger: { error: vi.fn() } })).catch(
      () => null,
    );
    expect(navigate.mock.calls[0]?.[0]).toBe('/403');
  });
});

describe('fetchAll (spec 2 §7, §9)', () => {
  it('pages with first=100 until paginatorInfo.lastPage and returns every item', async () => {
    const server = fakeServer((body) => {
      const { page, first } = body.variables as { page: number; first: number };
      const data = Array.from({ length: page < 3 ? first : 7 }, (_, i) => ({
        id: String((page - 1) * first + i + 1),
        name: 'x',
      }));
      return json(200, {
        data: {
          users: { data, paginatorInfo: { currentPage: page, lastPage: 3, perPage: first, total: 207 } },
        },
      });
    });
    const all = await fetchAll<{ id: string }>(
      PEOPLE,
      { search: 'a' },
      createGraphQLClient({ fetch: server.fetch }),
    );
    expect(all).toHaveLength(207);
    expect(all[206]?.id).toBe('207');
    expect(server.calls.map((c) => c.body.variables)).toEqual([
      { search: 'a', first: 100, page: 1 },
      { search: 'a', first: 100, page: 2 },
      { search: 'a', first: 100, page: 3 },
    ]);
  });

  it('fails the whole fetch when a page fails', async () => {
    const server = fakeServer((body) => {
      const { page } = body.variables as { page: number };
      if (page === 2) return json(200, { data: null, errors: [{ message: 'boom' }] });
      return json(200, {
        data: {
          users: {
            data: [{ id: '1', name: 'x' }],
            paginatorInfo: { currentPage: 1, lastPage: 2, perPage: 100, total: 101 },
          },
        },
      });
    });
    await expect(
      fetchAll(PEOPLE, {}, createGraphQLClient({ fetch: server.fetch, logger: { error: vi.fn() } })),
    ).rejects.toBeInstanceOf(ApiError);
  });

  it('the course listing asks for 10 at a time', () => {
    expect(courseListVariables(2, 'fire')).toEqual({ first: 10, page: 2, search: 'fire' });
  });

  it('converts a page to the REST list shape the pagers read', () => {
    expect(
      pagedFrom({ data: [1, 2], paginatorInfo: { currentPage: 2, lastPage: 2, perPage: 10, total: 12 } })
        .meta,
    ).toEqual({ current_page: 2, last_page: 2, per_page: 10, total: 12, from: 11, to: 12 });
  });
});

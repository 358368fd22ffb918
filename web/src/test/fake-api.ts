/**
 * A fake API for screen tests: the JSON answers and Laravel-style pages the server sends, and a stubbed fetch that
 * records every request and asks the test for each answer. Undone by `vi.unstubAllGlobals()` in the test's afterEach.
 */
import { vi } from 'vitest';
import { type GraphQLCall, graphqlOperation } from './graphql';

/** A JSON answer (a 204 has no body). */
export const json = (status: number, body?: unknown): Response =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** One page of rows as a Laravel paginated resource (data, meta, links). */
export function paged<T>(rows: T[], { page = 1, perPage = 15, total = rows.length } = {}) {
  const from = rows.length ? (page - 1) * perPage + 1 : null;
  return {
    data: rows,
    meta: {
      current_page: page,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      per_page: perPage,
      total,
      from,
      to: from === null ? null : from + rows.length - 1,
    },
    links: { first: '', last: '', prev: null, next: null },
  };
}

/**
 * One request the page sent: its method, its path without `/api` but with the query string, and its body (parsed
 * JSON, a FormData as sent, or undefined). Only these three are compared by toEqual; `url`, `route`, `search`,
 * `headers` and `gql` are there to read.
 */
export class ApiCall {
  readonly path: string;
  readonly #url: URL;
  readonly #headers: HeadersInit | undefined;
  constructor(
    readonly method: string,
    url: URL,
    readonly body: unknown,
    headers?: HeadersInit,
  ) {
    this.path = `${url.pathname.replace(/^\/api(?=\/)/, '')}${url.search}`;
    this.#url = url;
    this.#headers = headers;
  }
  /** The whole URL, `/api` and all. */
  get url(): URL {
    return this.#url;
  }
  /** The path without `/api` and without the query string. */
  get route(): string {
    return this.#url.pathname.replace(/^\/api(?=\/)/, '');
  }
  /** The query string, `?` and all, or ''. */
  get search(): string {
    return this.#url.search;
  }
  /** The request's headers, names in lower case. */
  get headers(): Record<string, string> {
    return Object.fromEntries(new Headers(this.#headers));
  }
  /** The GraphQL operation, or null for a REST request. */
  get gql(): GraphQLCall | null {
    return graphqlOperation(this.#url, this.body);
  }
}

export type Answer = (call: ApiCall) => Response | undefined | Promise<Response | undefined>;

function parseBody(body: BodyInit | null | undefined): unknown {
  if (typeof body !== 'string') return body ?? undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * Stubs fetch: the CSRF cookie is always granted; every other request is recorded in the returned list (in order)
 * and answered by `answer`, or with the server's 404 when it answers nothing.
 */
export function stubApi(answer: Answer): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      if (url.pathname === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      const call = new ApiCall(init?.method ?? 'GET', url, parseBody(init?.body), init?.headers);
      calls.push(call);
      return (await answer(call)) ?? json(404, { message: 'Not found.' });
    }),
  );
  return calls;
}

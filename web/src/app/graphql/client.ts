import { ApolloClient, ApolloLink, HttpLink, InMemoryCache } from '@apollo/client';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { ACTING_AS_HEADER } from '@cc/contracts';
import { apiHooks, ensureCsrfCookie, handleAuthFailure } from '../api';
import { apiOrigin, isMobile, requestCredentials } from '../env';
import { LONG_REQUEST_MS, startProgress } from '../progress';

/**
 * The web app's GraphQL client (spec 1 §7 "Other", spec 2 §7 "GraphQL"): POST /graphql on the API host with
 * credentials, the same headers as THE REST client (web/src/app/api.ts) and the spec's defaults (spec 1 §9):
 * watched queries never cache and ignore errors; one-off queries never cache and return data and errors together.
 * Errors are logged, never shown (spec 1 §8, spec 2 §8): callers turn them into the page's own message.
 */
export const GRAPHQL_DEFAULTS = {
  watchQuery: { fetchPolicy: 'no-cache', errorPolicy: 'ignore' },
  query: { fetchPolicy: 'no-cache', errorPolicy: 'all' },
  mutate: { errorPolicy: 'all' },
} as const;

// Apollo 4 types results by the declared defaults (a query's `error` exists only under errorPolicy 'all').
declare module '@apollo/client' {
  export namespace ApolloClient {
    export namespace DeclareDefaultOptions {
      interface WatchQuery {
        errorPolicy: 'ignore';
      }
      interface Query {
        errorPolicy: 'all';
      }
      interface Mutate {
        errorPolicy: 'all';
      }
    }
  }
}

/** What the links need from the outside world; tests pass a fake fetch and a console. */
export interface GraphQLClientOptions {
  fetch?: typeof fetch;
  logger?: Pick<Console, 'error'>;
}

/**
 * The acting-as entity GraphQL requests carry (spec 1 §9 graphQLActingAs). acting-as.ts keeps the entity's id under
 * graphQLActingAs and the entity under actingAs, written together; the server resolves acting-as by slug (x-acting-as),
 * so GraphQL sends exactly what REST sends, under the same rule (only for a user who may act as).
 */
export function graphqlActingAs(): string | null {
  return apiHooks.getActingAsSlug();
}

/** The request headers, built per operation: the XSRF cookie and the token can change between two operations. */
export async function graphqlHeaders(options: { actingAs?: boolean } = {}): Promise<Record<string, string>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (isMobile()) {
    const token = apiHooks.getToken();
    if (token) headers.Authorization = `Bearer ${token}`;
  } else {
    // Every GraphQL call is a POST: the server checks the XSRF header on each one (spec 1 §7, §9).
    const xsrf = await ensureCsrfCookie();
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }
  const actingAs = options.actingAs === false ? null : graphqlActingAs();
  if (actingAs) headers[ACTING_AS_HEADER] = actingAs;
  return headers;
}

/** The HTTP status a GraphQL error stands for: the server puts the REST status in extensions.status. */
export function statusOfGraphQLError(error: { extensions?: Record<string, unknown> }): number | null {
  const status = error.extensions?.status;
  if (typeof status === 'number') return status;
  switch (error.extensions?.code) {
    case 'UNAUTHENTICATED':
      return 401;
    case 'SESSION_EXPIRED':
      return 419;
    case 'FORBIDDEN':
      return 403;
    default:
      return null;
  }
}

/**
 * Logs what went wrong (message, locations, path: spec 1 §8) and acts on the session's state exactly as REST does:
 * 401/419 log out, 403 goes to /403. Nothing reaches the screen from here.
 */
export function errorLink(logger: Pick<Console, 'error'> = console): ApolloLink {
  return new ErrorLink(({ error, operation }) => {
    if (CombinedGraphQLErrors.is(error)) {
      for (const e of error.errors) {
        logger.error(
          `[GraphQL error]: Message: ${e.message}, Location: ${JSON.stringify(e.locations ?? [])}, Path: ${JSON.stringify(e.path ?? [])}`,
          { operation: operation.operationName },
        );
      }
      const first = error.errors.map((e) => ({ e, status: statusOfGraphQLError(e) })).find((x) => x.status);
      if (first?.status && [401, 403, 419].includes(first.status))
        handleAuthFailure(first.status, first.e.message);
      return;
    }
    logger.error(`[Network error]: ${error.message}`, { operation: operation.operationName });
    if (ServerError.is(error)) handleAuthFailure(error.statusCode, messageOf(error.bodyText));
  });
}

/** A REST-shaped refusal (the authentication plugin's 401/419 JSON) before GraphQL ran. */
function messageOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return undefined;
  }
}

/** fetch with the REST client's progress bar for slow requests. */
function withProgress(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    let stop: (() => void) | null = null;
    const timer = setTimeout(() => {
      stop = startProgress();
    }, LONG_REQUEST_MS);
    try {
      return await base(input, init);
    } finally {
      clearTimeout(timer);
      (stop as (() => void) | null)?.();
    }
  };
}

export function createGraphQLClient(options: GraphQLClientOptions = {}): ApolloClient {
  const headersLink = new SetContextLink(async (previous) => ({
    headers: {
      ...(previous.headers as Record<string, string> | undefined),
      // An operation run with context { actingAs: false } goes without it, as REST's option of the same name.
      ...(await graphqlHeaders({ actingAs: (previous as { actingAs?: boolean }).actingAs })),
    },
  }));
  const http = new HttpLink({
    uri: () => `${apiOrigin()}/graphql`,
    credentials: requestCredentials(),
    // Looked up per request, so tests and the browser's own fetch are used as they are at call time.
    fetch: withProgress((input, init) => (options.fetch ?? globalThis.fetch)(input, init)),
  });
  return new ApolloClient({
    link: ApolloLink.from([errorLink(options.logger), headersLink, http]),
    cache: new InMemoryCache(),
    defaultOptions: GRAPHQL_DEFAULTS,
  });
}

/** THE GraphQL client of the web app. */
export const graphqlClient = createGraphQLClient();

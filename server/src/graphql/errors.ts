import type { GraphQLError } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import { ZodError } from 'zod';
import { fieldErrorsFromZod, HttpError, invalid } from '../http/errors';

/** spec 2 §5: the query endpoint answers a validation failure with one error 'Invalid input' and the field map. */
export const INVALID_INPUT = 'Invalid input';
export const UNEXPECTED = 'Unexpected error.';

/** The services' HTTP statuses as GraphQL error codes (Apollo's names, which most clients already know). */
const CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  419: 'SESSION_EXPIRED',
  422: 'BAD_USER_INPUT',
  429: 'TOO_MANY_REQUESTS',
};

/**
 * A GraphQLError from any copy of graphql-js: the test runner loads graphql's ESM build for our code while yoga and
 * graphql-armor load its CommonJS build, so `instanceof` cannot be trusted here.
 */
const isGraphQLError = (error: unknown): error is GraphQLError =>
  error instanceof Error && error.name === 'GraphQLError';

/** The original error behind a GraphQLError (resolvers' errors arrive wrapped, sometimes twice). */
function originalOf(error: unknown): unknown {
  let current = error;
  while (isGraphQLError(current) && current.originalError) current = current.originalError;
  return current;
}

/**
 * graphql-yoga's maskError: a service's HttpError keeps its message with `extensions.code` (and `status`); a 422 is
 * exactly one error 'Invalid input' with `extensions.validation` = the field error map (spec 2 §5). GraphQL's own
 * errors (syntax, validation, limits) pass as they are. Anything else is masked and logged: its message could leak
 * internals (SQL, paths).
 */
export function maskError(
  error: unknown,
  _message: string,
  isDev?: boolean,
  log?: (error: unknown) => void,
): Error {
  const original = originalOf(error);
  const graphqlError = isGraphQLError(error) ? error : null;
  const where = {
    nodes: graphqlError?.nodes,
    source: graphqlError?.source,
    positions: graphqlError?.positions,
  };
  const path = graphqlError?.path;

  const http =
    original instanceof HttpError
      ? original
      : original instanceof ZodError
        ? invalid(fieldErrorsFromZod(original))
        : null;
  if (http) {
    const code = CODES[http.status] ?? (http.status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST');
    if (http.status === 422) {
      return createGraphQLError(INVALID_INPUT, {
        ...where,
        path,
        extensions: { code, status: 422, validation: http.errors ?? {} },
      });
    }
    return createGraphQLError(http.message, { ...where, path, extensions: { code, status: http.status } });
  }
  // Raised as a GraphQLError (by GraphQL itself, the limits, or a scalar's coercion): about the request, safe to show.
  if (isGraphQLError(original)) return graphqlError ?? original;
  log?.(original);
  return createGraphQLError(UNEXPECTED, {
    ...where,
    path,
    extensions: {
      code: 'INTERNAL_SERVER_ERROR',
      ...(isDev && original instanceof Error ? { originalError: { message: original.message } } : {}),
    },
  });
}

import { ACTING_AS_HEADER } from '@cc/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { invalid } from './errors';

/**
 * Input no handler should ever see (issue 10 §5), refused with 422 and the field named, before any query runs:
 * - a NUL character (U+0000) in any string or key of the query, the path parameters, the acting-as header or the
 *   body: PostgreSQL cannot store it in text (it fails the statement, which was a 500 on every list's `search`);
 * - a body nested deeper than MAX_INPUT_DEPTH: JSON.parse reads any depth, but JSON.stringify (jsonb columns such as
 *   user_preferences) and other recursive code overflow the stack on it.
 * GraphQL runs the same check on its documents and variables (graphql/server.ts), in its own error format; multipart
 * readers check their text fields with assertCleanInput.
 */
export const MAX_INPUT_DEPTH = 32;

export interface InputProblem {
  /** The field, as the 422's `errors` key: dotted path (zod's style), `_` for the whole body. */
  field: string;
  message: string;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const label = (field: string) =>
  (
    field
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? 'input'
  ).replaceAll('_', ' ');
const nulMessage = (field: string) => `The ${label(field)} field may not contain a NUL character.`;
const deepMessage = (field: string) =>
  `The ${label(field)} field is nested too deeply (at most ${MAX_INPUT_DEPTH} levels).`;

/**
 * Objects and arrays of parsed input (including the query parser's prototype-less objects); bytes, streams and dates
 * are not walked.
 */
function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (value === null || typeof value !== 'object') return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) return false;
  return typeof (value as { pipe?: unknown }).pipe !== 'function';
}

/**
 * The first NUL or too-deep value in `value`, walking with an explicit stack (a recursive walk would itself overflow
 * on the input it is meant to refuse). A too-deep value is reported on its first `topSegments` path segments (the
 * field the caller sent: `user_preferences`, or `input.user_preferences` for a GraphQL variable).
 */
export function findInputProblem(
  value: unknown,
  o: { topSegments?: number; maxDepth?: number } = {},
): InputProblem | null {
  const { topSegments = 1, maxDepth = MAX_INPUT_DEPTH } = o;
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop() as (typeof stack)[number];
    if (typeof item.value === 'string') {
      if (item.value.includes('\0')) return { field: item.path || '_', message: nulMessage(item.path) };
      continue;
    }
    if (!isContainer(item.value)) continue;
    if (item.depth >= maxDepth) {
      const top = item.path.split('.').slice(0, topSegments).join('.');
      return { field: top || '_', message: deepMessage(top) };
    }
    const entries = Array.isArray(item.value)
      ? item.value.map((v, i) => [String(i), v] as const)
      : Object.entries(item.value);
    for (const [key, child] of entries) {
      const path = join(item.path, key);
      if (key.includes('\0')) return { field: path, message: nulMessage(path) };
      stack.push({ value: child, path, depth: item.depth + 1 });
    }
  }
  return null;
}

/** Throws the 422 for the first problem in `value` (multipart fields, anything read outside the JSON parser). */
export function assertCleanInput(value: unknown): void {
  const problem = findInputProblem(value);
  if (problem) throw invalid({ [problem.field]: [problem.message] });
}

/** GraphQL answers in its own format (graphql/server.ts checks documents and variables). */
const isGraphql = (request: FastifyRequest) => {
  const url = request.routeOptions.url ?? '';
  return url === '/graphql' || url === '/api/graphql';
};

export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  // Before authentication: the acting-as slug (query or header) is looked up in the database.
  // Callback hooks: they never wait (a throw is passed on as the hook's error, as a rejection would be).
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isGraphql(request)) {
      assertCleanInput(request.params);
      assertCleanInput(request.query);
      const actingAs = request.headers[ACTING_AS_HEADER];
      if (typeof actingAs === 'string' && actingAs.includes('\0'))
        throw invalid({ actingAs: [nulMessage('actingAs')] });
    }
    done();
  });
  // After the body is parsed, before the route's schema and handler.
  app.addHook('preValidation', (request, _reply, done) => {
    if (!isGraphql(request)) assertCleanInput(request.body);
    done();
  });
});

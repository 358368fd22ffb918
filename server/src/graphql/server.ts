import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { FastifyBaseLogger } from 'fastify';
import { type ASTNode, type DocumentNode, GraphQLError, Kind, visit } from 'graphql';
import { createGraphQLError, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config';
import type { Ctx } from '../http/context';
import { unauthenticated } from '../http/errors';
import { findInputProblem, type InputProblem } from '../http/input-guard';
import { INVALID_INPUT, maskError } from './errors';
import { LIMITS } from './limits';
import { schema } from './schema';

/**
 * The GraphQL server (graphql-yoga over the Pothos schema). routes.ts imports this module on the first GraphQL
 * request, not at start: yoga, graphql, Pothos and the schema cost ~0.5 s of every cold start and ~12 MB of heap in a
 * process that may never be asked a query.
 */

export type ServerContext = Ctx & { csrfToken?: string };

/** Outside development, "Did you mean …?" hints would let anyone map the schema through error messages. */
const withoutSuggestions: Plugin = {
  onValidate:
    () =>
    ({ result, setResult }) => {
      if (!result.length) return;
      setResult(
        result.map((error) =>
          error.message.includes('Did you mean')
            ? new GraphQLError(error.message.replace(/ ?Did you mean .+\?$/, ''), {
                nodes: error.nodes,
                source: error.source,
                positions: error.positions,
                extensions: error.extensions,
              })
            : error,
        ),
      );
    },
};

/** A string literal of the document holding a NUL character (`"\u0000"` is a valid GraphQL escape), by argument. */
function nulInDocument(document: DocumentNode): InputProblem | null {
  let found: InputProblem | null = null;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      if (found || !node.value.includes('\0')) return;
      const named = [...ancestors, parent]
        .reverse()
        .find(
          (a): a is ASTNode & { name: { value: string } } =>
            a != null &&
            !Array.isArray(a) &&
            ((a as ASTNode).kind === Kind.ARGUMENT || (a as ASTNode).kind === Kind.OBJECT_FIELD),
        );
      const field = named?.name.value ?? 'query';
      found = { field, message: `The ${field.replaceAll('_', ' ')} field may not contain a NUL character.` };
    },
  });
  return found;
}

/**
 * The REST input guard for GraphQL (http/input-guard.ts, issue 10 §5): a NUL character in a variable or a string
 * literal, or variables nested deeper than MAX_INPUT_DEPTH, stop the operation before any resolver runs, as the
 * spec's one 'Invalid input' error with the field map (spec 2 §5). graphql-armor's max-depth bounds the selection;
 * this bounds the input.
 */
const inputGuard: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    const problem =
      findInputProblem(args.variableValues ?? {}, { topSegments: 2 }) ?? nulInDocument(args.document);
    if (!problem) return;
    setResultAndStopExecution({
      errors: [
        createGraphQLError(INVALID_INPUT, {
          extensions: {
            code: 'BAD_USER_INPUT',
            status: 422,
            validation: { [problem.field]: [problem.message] },
          },
        }),
      ],
    });
  },
};

/** Whether the document asks for the schema itself (__schema or __type, in any operation or fragment). */
function asksForSchema(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Field(node) {
      if (node.name.value === '__schema' || node.name.value === '__type') found = true;
    },
  });
  return found;
}

/**
 * Issue 11 §9: in production the schema is described only to a signed-in caller, the same rule as /api/docs. Checked
 * when the operation runs, not as a validation rule: yoga caches validation by document, which would let one
 * caller's verdict answer the next.
 */
const introspectionNeedsCaller: Plugin<ServerContext> = {
  onExecute({ args, setResultAndStopExecution }) {
    const context = args.contextValue as ServerContext;
    if (context.actor || !asksForSchema(args.document)) return;
    const error = unauthenticated();
    setResultAndStopExecution({
      errors: [createGraphQLError(error.message, { extensions: { code: 'UNAUTHENTICATED', status: 401 } })],
    });
  },
};

export function buildYoga(config: Config, log: FastifyBaseLogger): YogaServerInstance<ServerContext, object> {
  const development = config.env === 'development';
  return createYoga<ServerContext>({
    schema,
    // A URLPattern: the endpoint answers at /graphql and at /api/graphql.
    graphqlEndpoint: '{/api}?/graphql',
    // @fastify/cors already answers for this route; the app's CORS policy is the only one.
    cors: false,
    batching: false,
    landingPage: false,
    logging: {
      debug: (...args) => log.debug({ args }, 'graphql'),
      info: (...args) => log.info({ args }, 'graphql'),
      warn: (...args) => log.warn({ args }, 'graphql'),
      error: (...args) => log.error({ args }, 'graphql'),
    },
    maskedErrors: {
      isDev: development,
      maskError: (error, message, isDev) =>
        maskError(error, message, isDev, (err) => log.error({ err }, 'graphql resolver failed')),
    },
    // GraphiQL only in development, with the session's XSRF token so its POSTs pass the check (spec 1 §7).
    graphiql: development
      ? (request, context) => ({
          title: 'CareCompliance GraphQL',
          endpoint: new URL(request.url).pathname,
          headers: JSON.stringify(context?.csrfToken ? { 'X-XSRF-TOKEN': context.csrfToken } : {}),
        })
      : false,
    plugins: [
      // Fragments count by what they select, not as a level or a unit of their own.
      maxDepthPlugin({ n: LIMITS.depth, exposeLimits: true, flattenFragments: true }),
      costLimitPlugin({ maxCost: LIMITS.cost, exposeLimits: true, flattenFragments: true }),
      maxAliasesPlugin({ n: LIMITS.aliases, exposeLimits: true }),
      inputGuard,
      ...(development ? [] : [withoutSuggestions]),
      ...(config.env === 'production' ? [introspectionNeedsCaller] : []),
    ],
  });
}

import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { Config } from '../config';
import type { App } from '../http/app-types';
import type { Ctx } from '../http/context';
import { maskError } from './errors';
import { schema } from './schema';

/**
 * Query limits (graphql-armor): deep nesting, expensive selections and alias fan-out are refused before execution.
 * The cost rule multiplies a selection by a literal `first`, so one full page the client fetches (first: 100, about
 * 30 fields of a user or an entity) costs some 12,000: 20,000 lets that through and refuses a handful of them
 * aliased in one request. `first` given as a variable is not multiplied, but the services cap it at 100 rows.
 */
export const LIMITS = { depth: 10, cost: 20_000, aliases: 15 } as const;
/** A multipart request (GraphQL multipart request spec): up to the white-label form's three images and the JSON. */
const MULTIPART_BODY_LIMIT = 8 * 1024 * 1024;

type ServerContext = Ctx & { csrfToken?: string };

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

function buildYoga(config: Config, log: FastifyBaseLogger): YogaServerInstance<ServerContext, object> {
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
      ...(development ? [] : [withoutSuggestions]),
    ],
  });
}

/**
 * POST /graphql (spec 1 §7, spec 2 §7), also at /api/graphql. The authentication plugin has already run: the
 * context is the request's Ctx (session cookie with X-XSRF-TOKEN on POST, or a bearer token; x-acting-as), so
 * resolvers call the same services as REST.
 */
export async function graphqlRoutes(app: App) {
  // This plugin is encapsulated: the multipart parser below replaces @fastify/multipart's for these routes only.
  // Yoga reads the whole form (operations, map, files) itself; Fastify only bounds the size.
  app.removeContentTypeParser('multipart/form-data');
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MULTIPART_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  let yoga: YogaServerInstance<ServerContext, object> | undefined;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    yoga ??= buildYoga(request.ctx.config, app.log);
    const context: ServerContext = { ...request.ctx, csrfToken: request.session?.csrf_token };
    const response = await yoga.handleNodeRequestAndResponse(request, reply, context);
    reply.status(response.status);
    response.headers.forEach((value, key) => {
      reply.header(key, value);
    });
    return reply.send(response.body);
  };
  for (const url of ['/graphql', '/api/graphql']) {
    // auth: false: the resolvers answer an anonymous caller (UNAUTHENTICATED as a GraphQL error), on both paths.
    app.route({ url, method: ['GET', 'POST'], schema: { hide: true }, config: { auth: false }, handler });
  }
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { YogaServerInstance } from 'graphql-yoga';
import type { App } from '../http/app-types';
import type { ServerContext } from './server';

/** A multipart request (GraphQL multipart request spec): up to the white-label form's three images and the JSON. */
const MULTIPART_BODY_LIMIT = 8 * 1024 * 1024;

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

  let yogaReady: Promise<YogaServerInstance<ServerContext, object>> | undefined;
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    yogaReady ??= import('./server')
      .then((m) => m.buildYoga(request.ctx.config, app.log))
      .catch((error) => {
        yogaReady = undefined; // the next request tries again
        throw error;
      });
    const yoga = await yogaReady;
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

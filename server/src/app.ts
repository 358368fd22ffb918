import { existsSync } from 'node:fs';
import path from 'node:path';
import { API_VERSION, MAX_IMAGE_BYTES, PRODUCT_NAME, SESSION_COOKIE } from '@cc/contracts';
import fastifyCookie from '@fastify/cookie';
import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { activityRoutes } from './activity/routes';
import { auditRoutes } from './audit/routes';
import { passwordGatePlugin } from './auth/password-gate';
import { authRoutes, authWebRoutes } from './auth/routes';
import { bookingRoutes } from './bookings/routes';
import { careCertificateRoutes } from './care-certificate/routes';
import { certificateRoutes } from './certificates/routes';
import { complianceRoutes } from './compliance/routes';
import { contentRoutes } from './content/routes';
import { courseRoutes } from './courses/routes';
import { dashboardRoutes } from './dashboards/routes';
import { dataProtectionRoutes } from './data-protection/routes';
import { designerRoutes } from './designer/routes';
import { documentRoutes } from './documents/routes';
import { entityRoutes } from './entities/routes';
import { graphqlRoutes } from './graphql/routes';
import { h5pRoutes } from './h5ps/routes';
import { helpRoutes } from './help/routes';
import type { App } from './http/app-types';
import { authenticationPlugin } from './http/authenticate';
import type { Deps } from './http/context';
import { cookieName } from './http/cookies';
import { corsPluginOptions } from './http/cors';
import { errorHandlerReportingTo } from './http/error-handler';
import { notFound } from './http/errors';
import { healthRoutes } from './http/health';
import { inputGuardPlugin } from './http/input-guard';
import { serializeRequest } from './http/log-redaction';
import { metricsPlugin } from './http/metrics';
import { createOpenApiTransform, createOpenApiTransformObject } from './http/openapi/transform';
import { readCachePlugin } from './http/read-cache';
import { securityHeadersPlugin } from './http/security-headers';
import { importerRoutes } from './importer/routes';
import { learningRoutes } from './learning/routes';
import { lessonRoutes } from './lessons/routes';
import { mailRoutes } from './mail/routes';
import { matrixRoutes } from './matrix/routes';
import { messagingRoutes } from './messaging/routes';
import { notificationRoutes } from './notifications/routes';
import { offlineRoutes } from './offline/routes';
import { packageApiRoutes, packageFileRoutes } from './packages/routes';
import { pathwayRoutes } from './pathways/routes';
import { permissionRoutes } from './permissions/routes';
import { presetRoutes } from './presets/routes';
import { pushRoutes } from './push/routes';
import { quizRoutes } from './quizzes/routes';
import { realtimeRoutes } from './realtime/routes';
import { registrationRoutes } from './registration/routes';
import { ascWdsRoutes } from './reports/asc-wds-routes';
import { inspectionPackRoutes } from './reports/inspection-pack-routes';
import { reportRoutes } from './reports/routes';
import { resultRoutes } from './results/routes';
import { roleRoutes } from './roles/routes';
import { signupLinkRoutes } from './signup-links/routes';
import { starterMatrixRoutes } from './starter-matrix/routes';
import { reportServerError } from './system/error-reporting';
import { systemRoutes } from './system/routes';
import { tagRoutes } from './tags/routes';
import { taskRoutes } from './tasks/routes';
import { tokenRoutes } from './tokens/routes';
import { topicRoutes } from './topics/routes';
import { userRoutes } from './users/routes';
import { WEB_DIST } from './web-dist';
import { webhookRoutes } from './webhooks/routes';
import { fileRoutes } from './whitelabel/file-routes';
import { whitelabelRoutes } from './whitelabel/routes';

declare module 'fastify' {
  interface FastifyInstance {
    routeList: { method: string; url: string }[];
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Serve the built web app (web/dist) and fall back to index.html for client routes. */
  serveWeb?: boolean;
  /** The built web app's folder (web/dist); tests point it elsewhere. */
  webRoot?: string;
}

/** buildApp(deps): plugins, then each capability's routes (ARCHITECTURE layout). */
export async function buildApp(deps: Deps, options: BuildOptions = {}) {
  const app = Fastify({
    // Tokens in addresses (reset, verify, feeds, package launches) never reach the log (http/log-redaction.ts).
    logger: options.logger
      ? { ...(options.logger as object), serializers: { req: serializeRequest } }
      : false,
    // Only configured proxies are believed (TRUST_PROXY): otherwise any X-Forwarded-For would pick the address the
    // login throttle counts against.
    trustProxy: deps.config.trustProxy,
    bodyLimit: 2 * 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>() as unknown as App;

  // Every registered route, so the tenancy suite can prove it covers them all.
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  app.decorate('routeList', routes);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const errorHandler = errorHandlerReportingTo(reportServerError);
  app.setErrorHandler(errorHandler);

  // First: every answer carries the security headers, including errors raised by later hooks (401, 419, 404).
  await app.register(securityHeadersPlugin, {
    appUrl: deps.config.appUrl,
    corsOrigins: deps.config.corsOrigins,
    packageOrigin: deps.config.packageOrigin,
    helpdeskFrameAncestors: deps.config.helpdeskFrameAncestors,
    sentryBrowserDsn: deps.config.sentryBrowserDsn,
    analytics: deps.config.analytics,
  });

  // Issue 35 §5: every request counted from here on (only with METRICS_TOKEN; /metrics is a 404 without it).
  await app.register(metricsPlugin, { token: deps.config.metricsToken, probes: deps.probes });

  // The package origin (issue 11 finding 1) serves package files and nothing else: not the app, not the API.
  const packageHost = deps.config.packageOrigin ? new URL(deps.config.packageOrigin).host : null;
  if (packageHost)
    app.addHook('onRequest', async (request) => {
      if (request.host.toLowerCase() === packageHost && !request.url.startsWith('/packages/'))
        throw notFound();
    });

  await app.register(fastifyCookie);
  // Issue 35 §5: /health/live and /health/ready for supervisors and load balancers (no session, no version).
  await app.register(healthRoutes, { readiness: deps.probes.readiness });
  // Same-origin by default; a separate web host (CORS_ORIGINS) with credentials, the mobile shell without (cors.ts).
  await app.register(fastifyCors, corsPluginOptions(deps.config));
  await app.register(fastifyMultipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 4, fields: 60 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: `${PRODUCT_NAME} API`,
        version: `${API_VERSION.major}.${API_VERSION.minor}.${API_VERSION.patch}`,
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: cookieName(deps.config, SESSION_COOKIE) },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    // Summaries, tags, security and examples for every route (http/openapi/), over the zod schemas' conversion.
    transform: createOpenApiTransform(),
    transformObject: createOpenApiTransformObject(),
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });
  // Before authentication: NUL characters and over-deep bodies never reach a query (issue 10 §5).
  await app.register(inputGuardPlugin);
  await app.register(authenticationPlugin, deps);
  await app.register(passwordGatePlugin);
  await app.register(readCachePlugin, deps);

  // Web-session routes answer at the root (Sanctum style) and under /api, so both client setups work.
  await app.register(authWebRoutes);
  await app.register(authWebRoutes, { prefix: '/api' });
  await app.register(registrationRoutes);
  await app.register(registrationRoutes, { prefix: '/api' });
  await app.register(
    async (api: App) => {
      await api.register(systemRoutes);
      await api.register(authRoutes);
      await api.register(entityRoutes);
      await api.register(userRoutes);
      await api.register(roleRoutes);
      await api.register(tagRoutes);
      await api.register(permissionRoutes);
      await api.register(whitelabelRoutes);
      await api.register(fileRoutes);
      await api.register(mailRoutes);
      await api.register(courseRoutes);
      await api.register(contentRoutes);
      await api.register(lessonRoutes);
      await api.register(topicRoutes);
      await api.register(quizRoutes);
      await api.register(h5pRoutes);
      await api.register(learningRoutes);
      await api.register(certificateRoutes);
      await api.register(dataProtectionRoutes);
      await api.register(packageApiRoutes);
      await api.register(presetRoutes);
      await api.register(resultRoutes);
      await api.register(matrixRoutes);
      await api.register(inspectionPackRoutes);
      await api.register(ascWdsRoutes);
      await api.register(realtimeRoutes);
      await api.register(reportRoutes);
      await api.register(complianceRoutes);
      await api.register(starterMatrixRoutes);
      await api.register(activityRoutes);
      await api.register(auditRoutes);
      await api.register(dashboardRoutes);
      await api.register(messagingRoutes);
      await api.register(bookingRoutes);
      await api.register(careCertificateRoutes);
      await api.register(pathwayRoutes);
      await api.register(documentRoutes);
      await api.register(designerRoutes);
      await api.register(notificationRoutes);
      await api.register(helpRoutes);
      await api.register(tokenRoutes);
      await api.register(webhookRoutes);
      await api.register(importerRoutes);
      await api.register(taskRoutes);
      await api.register(signupLinkRoutes);
      await api.register(offlineRoutes);
      await api.register(pushRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(graphqlRoutes);
  // Uploaded SCORM / H5P files: a separate path outside /api (issue 4 item 5).
  await app.register(packageFileRoutes);

  const webRoot = options.webRoot ?? WEB_DIST;
  const serveWeb = options.serveWeb && existsSync(path.join(webRoot, 'index.html'));
  if (serveWeb) await app.register(fastifyStatic, { root: webRoot, wildcard: false, index: false });
  app.setNotFoundHandler((request, reply) => {
    // /packages/ holds package files only: anything else there is a 404, never the app's page under that address.
    const isPage =
      request.method === 'GET' &&
      !['/api/', '/graphql', '/packages/'].some((prefix) => request.url.startsWith(prefix));
    if (serveWeb && isPage) {
      // Client-side routes (spec 1 §2): the app decides, including its own /404 page.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
    }
    return errorHandler(notFound(), request, reply);
  });

  return app;
}

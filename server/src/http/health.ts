import type { FastifyReply } from 'fastify';
import type { App } from './app-types';
import type { Readiness } from './probes';

/**
 * Issue 35 §5: the operator's health endpoints, outside /api, open to anyone (no session) and saying nothing but ok or
 * not ok per check: no version, host, engine or error text.
 *
 * - GET /health/live: 200 while the process runs and answers HTTP. It touches nothing else (no database), so a
 *   database outage never makes a supervisor restart healthy processes.
 * - GET /health/ready: 200 when every readiness check passes (bootstrap.ts registers them: the database answers, its
 *   migrations are all applied, this process's job worker runs); else 503 naming the checks that fail. Load balancers
 *   route by it. Each check is bounded (http/probes.ts), so a hung database answers 503, not a hung probe.
 *
 * Probes are frequent: their requests are logged only at warn and above, and no caller is looked up (config.probe).
 */
export async function healthRoutes(app: App, options: { readiness: Readiness }) {
  const probe = { config: { auth: false, probe: true }, logLevel: 'warn', schema: { hide: true } } as const;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get('/health/live', probe, async (_request, reply) => {
    noStore(reply);
    return { status: 'ok' };
  });

  app.get('/health/ready', probe, async (_request, reply) => {
    noStore(reply);
    const { ready, checks } = await options.readiness.evaluate();
    if (ready) return { status: 'ok', checks };
    const failing = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    return reply
      .status(503)
      .send({ status: 'not ready', message: `Not ready: ${failing.join(', ')}.`, checks });
  });
}

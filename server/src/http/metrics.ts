import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUse } from '../db/connect';
import type { QueueDepth } from '../jobs/queries';
import { notFound, unauthenticated } from './errors';
import type { Probes } from './probes';

/**
 * Issue 35 §5: Prometheus metrics at GET /metrics, for the operator's scraper only. Nothing is exposed by default:
 * without METRICS_TOKEN the address is a 404 like any unknown one (and no metric is even collected); with it, a scrape
 * must send `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time) or gets 401.
 *
 * Requests are labelled by route pattern (`/api/users/:id`, never the address asked for: no ids, tokens or query in a
 * label, and a bounded number of series), method and status. The rest is read when scraped: the database pool, the
 * job queue's backlog, this process's websockets. Jobs are counted as this process runs them (jobs/queue.ts
 * observeJobs). prom-client's default metrics cover the process (CPU, memory, event loop lag, GC, handles).
 *
 * Each app has its own registry, so several apps in one process (the test suites) never share or clash.
 */

const PREFIX = 'carecompliance_';
/** Requests that matched no route (unknown addresses, the web app's client routes): one label, not their addresses. */
const UNMATCHED = 'unmatched';

export interface MetricsOptions {
  /** METRICS_TOKEN; undefined: /metrics is a 404 and nothing is collected. */
  token: string | undefined;
  probes: Probes;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant time whatever the lengths: both sides are hashed to 32 bytes first. */
function bearerMatches(request: FastifyRequest, expected: Buffer): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), expected);
}

export const metricsPlugin = fp(async (app: FastifyInstance, options: MetricsOptions) => {
  const route = {
    config: { auth: false as const, probe: true as const },
    logLevel: 'warn' as const,
    schema: { hide: true },
  };
  if (!options.token) {
    app.get('/metrics', route, async () => {
      throw notFound();
    });
    return;
  }
  const expected = digest(options.token);
  const registry = createRegistry(app, options.probes);

  app.get('/metrics', route, async (request, reply) => {
    if (!bearerMatches(request, expected)) {
      reply.header('www-authenticate', 'Bearer');
      throw unauthenticated();
    }
    const body = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
  });
});

function createRegistry(app: FastifyInstance, probes: Probes): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requestLabels = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: requestLabels,
    registers: [registry],
  });
  const duration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Time to answer an HTTP request, by method, route pattern and status.',
    labelNames: requestLabels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? UNMATCHED,
      status: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
  });

  // The pools, where there are (PostgreSQL, by DATABASE_URL or embedded); PGlite has a single connection.
  poolGauges(registry, 'db_pool', 'Database pool', 'DATABASE_POOL_SIZE', probes.poolUse);
  poolGauges(
    registry,
    'db_sign_in_pool',
    "The sign-in lane's pool",
    'DATABASE_SIGN_IN_POOL_SIZE',
    probes.signInPoolUse,
  );

  // The backlog: one query per scrape, shared by the three gauges (a registry collects its metrics side by side).
  // Kinds seen once stay at 0 rather than vanish when their backlog empties.
  const kinds = new Set<string>();
  let inFlight: Promise<Map<string, QueueDepth> | null> | null = null;
  const readDepth = () => {
    inFlight ??= probes
      .queueDepth()
      .then((rows) => {
        for (const row of rows) kinds.add(row.kind);
        return new Map(rows.map((row) => [row.kind, row]));
      })
      .catch(() => null)
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
  const byKind = (pick: (row: QueueDepth | undefined) => number) =>
    async function collect(this: Gauge<'kind'>) {
      const depth = await readDepth();
      this.reset();
      if (depth) for (const kind of kinds) this.set({ kind }, pick(depth.get(kind)));
    };
  new Gauge({
    name: `${PREFIX}jobs_queued`,
    help: 'Jobs due to run and not yet claimed (the queue backlog), by kind.',
    labelNames: ['kind'],
    registers: [registry],
    collect: byKind((row) => row?.due ?? 0),
  });
  new Gauge({
    name: `${PREFIX}jobs_running`,
    help: 'Jobs claimed by a worker of any process, by kind.',
    labelNames: ['kind'],
    registers: [registry],
    collect: byKind((row) => row?.running ?? 0),
  });
  new Gauge({
    name: `${PREFIX}jobs_depth_scrape_ok`,
    help: '1 when the job queue could be read for this scrape, 0 when not (the database did not answer).',
    registers: [registry],
    async collect() {
      this.set((await readDepth()) ? 1 : 0);
    },
  });

  const jobLabels = ['kind', 'outcome'] as const;
  const jobRuns = new Histogram({
    name: `${PREFIX}job_duration_seconds`,
    help: 'Time a job ran in this process, by kind and outcome (ran, failed).',
    labelNames: jobLabels,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600],
    registers: [registry],
  });
  const jobWaits = new Histogram({
    name: `${PREFIX}job_wait_seconds`,
    help: 'Time from when a job was due to when this process started it, by kind.',
    labelNames: ['kind'],
    buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
    registers: [registry],
  });
  const unobserve = probes.observeJobs((job) => {
    jobRuns.observe({ kind: job.kind, outcome: job.outcome }, job.runSeconds);
    jobWaits.observe({ kind: job.kind }, job.waitSeconds);
  });
  app.addHook('onClose', async () => {
    unobserve();
  });

  new Gauge({
    name: `${PREFIX}websocket_connections`,
    help: 'Websockets this process holds open (the live matrix).',
    registers: [registry],
    collect() {
      this.set(probes.websockets());
    },
  });

  return registry;
}

/** A pool's connections (total open, idle among them, requests waiting) and its size, read when scraped. */
function poolGauges(
  registry: Registry,
  name: string,
  what: string,
  setting: string,
  use: () => PoolUse | null,
): void {
  if (!use()) return;
  new Gauge({
    name: `${PREFIX}${name}_connections`,
    help: `${what} connections: total open, idle among them, and requests waiting for one.`,
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const now = use();
      if (!now) return;
      this.set({ state: 'total' }, now.total);
      this.set({ state: 'idle' }, now.idle);
      this.set({ state: 'waiting' }, now.waiting);
    },
  });
  new Gauge({
    name: `${PREFIX}${name}_max_connections`,
    help: `The most connections the pool opens (${setting}).`,
    registers: [registry],
    collect() {
      this.set(use()?.max ?? 0);
    },
  });
}

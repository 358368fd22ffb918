import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { enqueue, PermanentJobError, registerJob, runDueJobs } from '../jobs/queue';

/**
 * Issue 35 §5: Prometheus metrics at /metrics, exposed only with METRICS_TOKEN and only to its bearer: requests by
 * route pattern (never an id), the database pool, the job queue's backlog and its jobs' latency by kind, websockets,
 * and the process's default metrics.
 */
const TOKEN = 'metrics-token-0123456789abcdef';
let off: Harness;
let h: Harness;
beforeAll(async () => {
  [off, h] = await Promise.all([createHarness(), createHarness({ metricsToken: TOKEN })]);
});
afterAll(async () => Promise.all([off?.close(), h?.close()]));

const scrape = (app: Harness['app'], authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('without METRICS_TOKEN', () => {
  it('is a 404 like any unknown address, token or not', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`, 'Bearer ']) {
      const res = await scrape(off.app, authorization);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('carecompliance_');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('with METRICS_TOKEN', () => {
  it('answers 401 without the token or with a wrong one', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const res = await scrape(h.app, authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('carecompliance_');
    }
  });

  it('counts requests by route pattern and status, never by the address asked for', async () => {
    const user = await buildUser(h.db, { superAdmin: true });
    const headers = await bearer(h.db, user.id);
    expect((await h.app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers })).statusCode).toBe(
      200,
    );
    expect((await h.app.inject({ method: 'GET', url: '/api/no-such-thing/987654' })).statusCode).toBe(404);

    const res = await scrape(h.app, `Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const text = res.body;
    expect(
      sample(text, 'carecompliance_http_requests_total{method="GET",route="/api/users/:id",status="200"}'),
    ).toBe(1);
    expect(
      sample(
        text,
        'carecompliance_http_request_duration_seconds_count{method="GET",route="/api/users/:id",status="200"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'carecompliance_http_requests_total{method="GET",route="unmatched",status="404"}'),
    ).toBe(1);
    // No id or raw address in any label.
    expect(text).not.toContain(`/api/users/${user.id}`);
    expect(text).not.toContain('987654');
    // The scrapes themselves (401s above) are requests too.
    expect(
      sample(text, 'carecompliance_http_requests_total{method="GET",route="/metrics",status="401"}'),
    ).toBeGreaterThanOrEqual(6);

    // The process (prom-client's defaults), the websockets, and the pool where there is one.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'carecompliance_websocket_connections')).toBe(0);
    if (h.deps.engine === 'postgres') {
      expect(sample(text, 'carecompliance_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'carecompliance_db_pool_connections{state="waiting"}')).toBe(0);
      expect(sample(text, 'carecompliance_db_pool_max_connections')).toBe(h.deps.config.databasePoolSize);
      expect(sample(text, 'carecompliance_db_sign_in_pool_connections{state="waiting"}')).toBe(0);
      expect(sample(text, 'carecompliance_db_sign_in_pool_max_connections')).toBe(
        h.deps.config.databaseSignInPoolSize,
      );
    } else {
      expect(text).not.toContain('carecompliance_db_pool_connections');
      expect(text).not.toContain('carecompliance_db_sign_in_pool_connections');
    }
  });

  it("shows the queue's backlog by kind, and each job's run and wait by kind and outcome once it ran", async () => {
    const suffix = Math.random().toString(36).slice(2, 8);
    const works = `test-metrics-works-${suffix}`;
    const fails = `test-metrics-fails-${suffix}`;
    registerJob(works, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    registerJob(fails, async () => {
      throw new PermanentJobError('no');
    });
    const now = new Date();
    await enqueue(h.db, works, {}, { runAt: new Date(now.getTime() - 5000) });
    await enqueue(h.db, works, {}, { runAt: new Date(now.getTime() - 5000) });
    await enqueue(h.db, fails, {}, { runAt: now });

    const waiting = (await scrape(h.app, `Bearer ${TOKEN}`)).body;
    expect(sample(waiting, `carecompliance_jobs_queued{kind="${works}"}`)).toBe(2);
    expect(sample(waiting, `carecompliance_jobs_queued{kind="${fails}"}`)).toBe(1);
    expect(sample(waiting, `carecompliance_jobs_running{kind="${works}"}`)).toBe(0);
    expect(sample(waiting, 'carecompliance_jobs_depth_scrape_ok')).toBe(1);
    expect(waiting).not.toContain(`carecompliance_job_duration_seconds_count{kind="${works}"`);

    await runDueJobs(h.deps, now);

    const ran = (await scrape(h.app, `Bearer ${TOKEN}`)).body;
    // The backlog emptied: its kinds stay, at 0.
    expect(sample(ran, `carecompliance_jobs_queued{kind="${works}"}`)).toBe(0);
    expect(sample(ran, `carecompliance_jobs_queued{kind="${fails}"}`)).toBe(0);
    expect(sample(ran, `carecompliance_job_duration_seconds_count{kind="${works}",outcome="ran"}`)).toBe(2);
    expect(
      sample(ran, `carecompliance_job_duration_seconds_sum{kind="${works}",outcome="ran"}`),
    ).toBeGreaterThanOrEqual(0.04);
    expect(sample(ran, `carecompliance_job_duration_seconds_count{kind="${fails}",outcome="failed"}`)).toBe(
      1,
    );
    // Due 5 s before the worker's clock: each waited about 5 s.
    expect(sample(ran, `carecompliance_job_wait_seconds_count{kind="${works}"}`)).toBe(2);
    expect(sample(ran, `carecompliance_job_wait_seconds_sum{kind="${works}"}`)).toBeCloseTo(10, 0);
    expect(sample(ran, `carecompliance_job_wait_seconds_bucket{le="2.5",kind="${works}"}`)).toBe(0);
    expect(sample(ran, `carecompliance_job_wait_seconds_bucket{le="10",kind="${works}"}`)).toBe(2);
  });
});

import { buildApp } from './app';
import { purgeExpiredCredentials, sessionLifetimeOf } from './auth/queries';
import { purgeExpiredRegistrations } from './auth/registration';
import { purgeStaleThrottles } from './auth/throttle';
import { openDeps } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemoIfEmpty } from './db/demo/seed';
import { StartupError } from './db/embedded/errors';
import { guardStartupSignals } from './db/embedded/processes';
import { registerAllJobs, startWorker } from './jobs';
import { closeSocketsOfEnded } from './realtime/socket-registry';

/**
 * Expired sessions and device tokens (and this process's sockets that still used them), ended throttle windows and
 * unconfirmed sign-ups: at start and hourly.
 */
async function sweepAuthRows(deps: Awaited<ReturnType<typeof openDeps>>): Promise<void> {
  const now = deps.clock();
  const lifetimes = { session: sessionLifetimeOf(deps.config), tokenDays: deps.config.tokenLifetimeDays };
  closeSocketsOfEnded(await purgeExpiredCredentials(deps.db, now, lifetimes));
  await purgeStaleThrottles(deps.db, now);
  await purgeExpiredRegistrations(deps.db, now);
}

/** Process entry: config -> database -> migrate -> (demo seed) -> listen (ARCHITECTURE layout). */
async function main() {
  const started = performance.now();
  const releaseStartupSignals = guardStartupSignals(); // Ctrl-C during start-up stops the embedded engine too
  const config = loadConfig();
  const deps = await openDeps(config);
  if (deps.database.note) console.log(`database: ${deps.database.note}`);
  const seeded = config.seedDemo ? await seedDemoIfEmpty(deps.db) : false;
  await sweepAuthRows(deps);

  const app = await buildApp(deps, {
    serveWeb: true,
    logger: {
      level: config.logLevel,
      ...(config.env === 'development' && process.stdout.isTTY
        ? { transport: { target: 'pino-pretty' } }
        : {}),
    },
  });
  await app.listen({ port: config.port, host: config.host });
  // The durable job queue's worker (scheduled reports, …): several processes may run one on the same database.
  registerAllJobs();
  const worker = startWorker(deps, { log: app.log });

  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const lines = [
    '',
    `  CareCompliance is running at ${config.appUrl}  (ready in ${seconds}s, database: ${deps.database.where})`,
    `  API docs: ${config.appUrl}/api/docs`,
    ...(config.seedDemo
      ? [
          `  Demo logins${seeded ? ' (demo organisation created)' : ''}, password ${DEMO_PASSWORD}:`,
          ...DEMO_LOGINS.map((l) => `    ${l.email.padEnd(22)} ${l.label}`),
        ]
      : []),
    ...(config.packageOrigin
      ? []
      : [
          '  Note: no PACKAGE_ORIGIN: uploaded packages run in an opaque sandbox, and packages whose frames talk to',
          '  each other will not play. Set PACKAGE_ORIGIN to a host of its own (README, "Package content").',
        ]),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  const sweep = setInterval(() => void sweepAuthRows(deps).catch(() => {}), 60 * 60_000);
  sweep.unref();

  // Graceful shutdown: stop accepting, finish in-flight requests, then close the database.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(sweep);
    await worker.stop();
    await app.close();
    await deps.close();
    process.exit(0);
  };
  releaseStartupSignals();
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  // A wrong setting is the operator's to fix: say which, in one line each, without a stack trace.
  console.error(error instanceof ConfigError || error instanceof StartupError ? error.message : error);
  process.exit(1);
});

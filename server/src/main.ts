import { buildApp } from './app';
import { purgeExpiredCredentials, sessionLifetimeOf } from './auth/queries';
import { purgeStaleThrottles } from './auth/throttle';
import { openDeps, registerBackupJobs, startJobWorker } from './bootstrap';
import { ConfigError, loadConfig } from './config';
import { StartupError } from './db/embedded/errors';
import { guardStartupSignals } from './db/embedded/processes';
import { DEMO_LOGINS, DEMO_PASSWORD, seedDemoIfEmpty } from './demo/seed';
import { accountsWithDemoPassword, firstAdminSetupLink } from './first-admin';
import { drainOnSignals } from './http/shutdown';
import { closeSocketsOfEnded, openSockets } from './realtime/socket-registry';
import { registerAllJobs } from './register-jobs';
import { purgeExpiredRegistrations } from './registration/service';
import { purgeExpiredSignups } from './signup-links/queries';
import { checkDataDir, databaseStartupError, listenStartupError } from './startup-errors';
import { StorageError } from './storage/storage';
import { initErrorReporting } from './system/error-reporting';

/**
 * Expired sessions and device tokens (and the sockets, of any process, that still used them), ended throttle windows and
 * unconfirmed sign-ups: at start and hourly.
 */
async function sweepAuthRows(deps: Awaited<ReturnType<typeof openDeps>>): Promise<void> {
  const now = deps.clock();
  const lifetimes = { session: sessionLifetimeOf(deps.config), tokenDays: deps.config.tokenLifetimeDays };
  closeSocketsOfEnded(deps.bus, await purgeExpiredCredentials(deps.db, now, lifetimes));
  await purgeStaleThrottles(deps.db, now);
  await purgeExpiredRegistrations(deps.db, now);
  await purgeExpiredSignups(deps.db, now);
}

/**
 * Issue 29 §2, in production: no account may keep the published demo password (unless SEED_DEMO=true asks for a
 * demo server), and an install without a super admin gets one through a one-time link, never a known password.
 */
async function productionAccounts(deps: Awaited<ReturnType<typeof openDeps>>): Promise<string | null> {
  if (!deps.config.seedDemo) {
    const demo = await accountsWithDemoPassword(deps.db);
    if (demo.length)
      throw new StartupError(
        `Refusing to start in production: ${demo.length} account(s) still have the published demo password (${demo.slice(0, 3).join(', ')}${demo.length > 3 ? ', …' : ''}); change or remove them, or set SEED_DEMO=true for a demo server.`,
      );
  }
  return firstAdminSetupLink(deps.db, deps.config.appUrl, deps.clock());
}

/** Process entry: config -> database -> migrate -> (demo seed) -> listen (ARCHITECTURE layout). */
async function main() {
  const started = performance.now();
  const releaseStartupSignals = guardStartupSignals(); // Ctrl-C during start-up stops the embedded engine too
  const config = loadConfig();
  await initErrorReporting(config, process.env.npm_package_version);
  if (config.s3) await (await import('./storage/s3')).checkBucket(config.s3);
  checkDataDir(config.dataDir);
  const deps = await openDeps(config).catch((error) => {
    throw databaseStartupError(error, config.databaseUrl) ?? error;
  });
  if (deps.database.note) console.log(`database: ${deps.database.note}`);
  const seeded = config.seedDemo ? await seedDemoIfEmpty(deps.db, deps.storage, deps) : false;
  const setupLink =
    config.env === 'production'
      ? await productionAccounts(deps).catch(async (error) => {
          await deps.close(); // the embedded engine stops with us
          throw error;
        })
      : null;
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
  await app.listen({ port: config.port, host: config.host }).catch(async (error) => {
    const known = listenStartupError(error, config.host, config.port);
    if (!known) throw error;
    await app.close();
    await deps.close(); // the embedded engine stops with us
    throw known;
  });
  // The durable job queue's worker (scheduled reports, …): several processes may run one on the same database.
  registerAllJobs();
  registerBackupJobs(deps);
  const worker = startJobWorker(deps, { log: app.log, reclaimAfterSeconds: config.jobReclaimAfterSeconds });

  const seconds = ((performance.now() - started) / 1000).toFixed(2);
  const lines = [
    '',
    `  CareCompliance is running at ${config.appUrl}  (ready in ${seconds}s, database: ${deps.database.where})`,
    `  API docs: ${config.appUrl}/api/docs`,
    `  Uploaded files: ${config.s3 ? `S3 bucket ${config.s3.bucket}${config.s3.prefix ? `/${config.s3.prefix}` : ''}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''}` : `${config.dataDir}/files`}`,
    ...(config.backup
      ? [`  Nightly backups: ${config.backup.dir} (the last ${config.backup.keep} kept)`]
      : []),
    ...(setupLink
      ? [
          "  First start: set the first super admin's password with this one-time link (valid 24 hours; each start",
          '  prints a new one until it is used). Then change their name and e-mail under Profile:',
          `    ${setupLink}`,
        ]
      : []),
    ...(config.env === 'production' && config.appUrl.startsWith('http://')
      ? [
          `  Warning: APP_URL is plain http in production: passwords and sessions cross the network readable, and`,
          '  cookies are not __Host- protected. Serve it over https (docs/package-content.md "Cookies and the package origin").',
        ]
      : []),
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

  // Graceful shutdown (http/shutdown.ts): drain on SIGTERM / SIGINT, bounded by SHUTDOWN_TIMEOUT_SECONDS.
  drainOnSignals({
    server: app.server,
    websockets: openSockets,
    log: app.log,
    timeoutMs: config.shutdownTimeoutSeconds * 1000,
    stopWork: async () => {
      clearInterval(sweep);
      await worker.stop();
    },
    closeApp: () => app.close(),
    closeDatabase: () => deps.close(),
  });
  releaseStartupSignals();
}

main().catch((error) => {
  // A wrong setting is the operator's to fix: say which, in one line each, without a stack trace.
  const oneLine =
    error instanceof ConfigError || error instanceof StorageError || error instanceof StartupError;
  console.error(oneLine ? error.message : error);
  process.exit(1);
});

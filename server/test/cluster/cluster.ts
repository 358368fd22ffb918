import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The machinery of the multi-process test (cluster.test.ts): server processes run from the same bundle `npm start`
 * runs, HAProxy in front of them (the configuration docs/several-processes.md "Running several processes" shows), and plain HTTP.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The haproxy binary, or a clear error: the test needs a real reverse proxy. */
export function requireHaproxy(): string {
  const binary = process.env.HAPROXY_PATH || 'haproxy';
  const probe = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0)
    throw new Error(
      `HAProxy is missing (${binary}): the multi-process test runs three servers behind a real reverse proxy. ` +
        'Install it with `apt-get install -y haproxy` (Debian), or set HAPROXY_PATH.',
    );
  return binary;
}

export { freePort } from '../ports';

/** server/dist/main.mjs, built by the same code as `npm start` (rebuilt only when a source is newer). */
export async function serverBundle(): Promise<string[]> {
  const moduleUrl = pathToFileURL(path.join(ROOT, 'scripts/bundle-server.mjs')).href;
  const { bundleServer, SERVER_NODE_FLAGS } = (await import(moduleUrl)) as {
    bundleServer(root: string): Promise<string | null>;
    SERVER_NODE_FLAGS: string[];
  };
  const bundle = await bundleServer(ROOT);
  return bundle
    ? [...SERVER_NODE_FLAGS, bundle]
    : [...SERVER_NODE_FLAGS, '--import', 'tsx', path.join(ROOT, 'server/src/main.ts')];
}

export interface ServerProcess {
  name: string;
  port: number;
  url: string;
  child: ChildProcess;
  output: () => string;
}

export function startServer(
  name: string,
  port: number,
  args: string[],
  env: NodeJS.ProcessEnv,
): ServerProcess {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { name, port, url: `http://127.0.0.1:${port}`, child, output: () => output };
}

/**
 * HAProxy in front of the servers: round robin, health checks on GET /api/check (a killed server is taken out after
 * two failed checks), a request that could not connect is sent to another server (retries + redispatch), websockets
 * pass through (HTTP mode upgrades them; `timeout tunnel` is how long an idle one may stay open), and each answer
 * says which server gave it (X-Served-By, for the test).
 */
export function haproxyConfig(listenPort: number, servers: ServerProcess[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option forwardfor',
    '  option redispatch',
    '  retries 3',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    'frontend carecompliance',
    `  bind 127.0.0.1:${listenPort}`,
    '  default_backend carecompliance_servers',
    'backend carecompliance_servers',
    '  balance roundrobin',
    '  option httpchk GET /api/check',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 2',
    '  http-response set-header X-Served-By %s',
    ...servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port} check`),
    '',
  ].join('\n');
}

export function startHaproxy(binary: string, configFile: string, config: string): ChildProcess {
  writeFileSync(configFile, config);
  const check = spawnSync(binary, ['-c', '-f', configFile], { encoding: 'utf8' });
  if (check.status !== 0)
    throw new Error(`haproxy refused its configuration:\n${check.stdout}${check.stderr}`);
  return spawn(binary, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** Polls `url` until it answers 200 (or throws after `ms`, with `why` for the message). */
export async function waitForOk(url: string, ms: number, why: () => string = () => ''): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > ms) throw new Error(`${url} did not answer within ${ms} ms\n${why()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls `check` every 20 ms until it holds; answers the milliseconds it took, or throws after `ms`. */
export async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

export async function stop(
  child: ChildProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

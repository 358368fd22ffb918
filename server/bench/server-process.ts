import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The server as the bench measures it: its own process running the same bundle as `npm start`
 * (scripts/bundle-server.mjs), so its memory is the server's alone (for PGlite, with the embedded engine) and the
 * bench's clients do not share its event loop — as a browser does not.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

export interface ServerProcess {
  baseUrl: string;
  /** Wall-clock ms from spawning the process to its "is running at" line. */
  readyMs: number;
  /** The process's resident memory now, MB (Linux /proc; 0 elsewhere). */
  rssMb(): number;
  /** The embedded PostgreSQL's processes (the server's descendants) now: their proportional set size, MB. */
  databaseMb(): number;
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

interface BundleModule {
  bundleServer(root: string): Promise<string | null>;
  SERVER_NODE_FLAGS: string[];
}

/** The bundle's path (null without esbuild) and the Node flags `npm start` runs it with. */
let bundled: Promise<{ path: string | null; flags: string[] }> | null = null;
function serverBundle(): Promise<{ path: string | null; flags: string[] }> {
  bundled ??= (async () => {
    const url = pathToFileURL(path.join(root, 'scripts/bundle-server.mjs')).href;
    const mod = (await import(url)) as BundleModule;
    return { path: await mod.bundleServer(root), flags: mod.SERVER_NODE_FLAGS };
  })();
  return bundled;
}

function residentMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** The pids of `pid`'s descendants (Linux /proc; none elsewhere). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // ended meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** Proportional set size (shared memory split among its users, so postgres's shared buffers count once), MB. */
function descendantsPssMb(pid: number | undefined): number {
  if (!pid) return 0;
  let kb = 0;
  for (const p of descendantsOf(pid)) {
    try {
      kb += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${p}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return Math.round(kb / 1024);
}

/**
 * `via: 'bare-fastify'` runs bench/bare-fastify.mjs instead (one bare route, the stack's ceiling) with the same flags.
 * `via: 'npm-start'` runs scripts/start.mjs as `npm start` does (web build check, bundle, then the server as ITS
 * child): for the cold-start figure; its rssMb() is the launcher's, not the server's.
 */
export async function startServerProcess(o: {
  dataDir: string;
  databaseUrl?: string;
  seedDemo: boolean;
  via?: 'bundle' | 'npm-start' | 'bare-fastify';
}): Promise<ServerProcess> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // A production server refuses the suites' fast hashing (inherited from vitest's env); the bench measures real logins.
    PASSWORD_HASHING: 'standard',
    // Required in production (issue 29 §14).
    SECRETS_KEY: process.env.SECRETS_KEY || randomBytes(32).toString('base64'),
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: o.dataDir,
    SEED_DEMO: String(o.seedDemo),
    LOG_LEVEL: 'error',
  };
  if (o.databaseUrl) env.DATABASE_URL = o.databaseUrl;
  else delete env.DATABASE_URL;
  let args: string[];
  if (o.via === 'bare-fastify') {
    args = [...(await serverBundle()).flags, path.join(here, 'bare-fastify.mjs')];
  } else if (o.via === 'npm-start') {
    args = [path.join(root, 'scripts/start.mjs')];
    // Without a built web app, start.mjs would build it first: a first-run cost, not the cold start.
    if (!existsSync(path.join(root, 'web/dist/index.html'))) env.SKIP_WEB_BUILD = 'true';
  } else {
    const bundle = await serverBundle();
    args = bundle.path
      ? [...bundle.flags, bundle.path]
      : [...bundle.flags, '--import', 'tsx', path.join(root, 'server/src/main.ts')];
  }
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let readyMs = 0;
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 180_000);
    const onExit = (code: number | null) => reject(new Error(`the server exited ${code}: ${out}`));
    child.stdout?.on('data', (d) => {
      out += d;
      if (out.includes('is running at')) {
        readyMs = Math.round(performance.now() - started);
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      }
    });
    child.stderr?.on('data', (d) => {
      out += d;
    });
    child.on('exit', onExit);
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    readyMs,
    rssMb: () => residentMb(child.pid),
    databaseMb: () => descendantsPssMb(child.pid),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

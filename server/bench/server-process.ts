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

/** Each process's children, by parent pid (Linux /proc; empty elsewhere). */
function childrenByParent(): Map<number, number[]> {
  const parents = new Map<number, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return parents;
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
  return parents;
}

/** The pids of `pid`'s descendants (Linux /proc; none elsewhere). */
function descendantsOf(pid: number): number[] {
  const parents = childrenByParent();
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
  // BENCH_SERVER_NODE_FLAGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): node flags for the measured server only;
  // NODE_OPTIONS refuses --cpu-prof, and would profile the clients too.
  const profiling = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  if (o.via !== 'npm-start') args = [...profiling, ...args];
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

/** The process's peak resident memory so far (VmHWM, kept by the kernel for the process's whole life), MB. */
function peakResidentMb(pid: number): number {
  try {
    const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Of `pid`'s descendants naming `script` on their command line, the deepest: `npm run` starts a shell, the shell
 * `tsx`, and tsx runs the script in a node process of its own, its child, which is the one doing the work.
 */
function scriptProcess(pid: number, script: string): number | null {
  const parents = childrenByParent();
  let found: number | null = null;
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      if (commandLine(c).includes(script)) found = c;
      walk(c);
    }
  };
  walk(pid);
  return found;
}

export interface CommandRun {
  /** Wall-clock ms from spawning `npm run …` to its exit: what the operator waits. */
  ms: number;
  /** The peak resident memory of the process running `script` (scriptProcess), MB. */
  peakMb: number;
  output: string;
}

/**
 * `npm run <command> -- <args>` from the repository's root, as an operator types it (the backup and restore
 * commands, issue 36 §2), in `env`. Its memory is read like the server's but from the kernel's own peak (VmHWM) of
 * the process that runs `script`, so a peak between two reads counts too. Rejects with its output when it exits
 * non-zero.
 */
export async function runNpmCommand(o: {
  command: string;
  args: string[];
  script: string;
  env: NodeJS.ProcessEnv;
}): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn('npm', ['run', o.command, '--', ...o.args], {
    cwd: root,
    env: o.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  let peakMb = 0;
  let worker: number | null = null;
  let ticks = 0;
  // The deepest process is looked for every 100 ms (a walk of /proc) until the command ends, as a shallower one is
  // found first; its peak is read every 20 ms, and as the kernel keeps it, a read near the end holds all before it.
  const read = () => {
    if (child.pid && ticks++ % 5 === 0) worker = scriptProcess(child.pid, o.script) ?? worker;
    if (worker) peakMb = Math.max(peakMb, peakResidentMb(worker));
  };
  const timer = setInterval(read, 20);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    if (code !== 0) throw new Error(`npm run ${o.command} exited ${code}: ${output.trim()}`);
    return { ms: Math.round(performance.now() - started), peakMb, output };
  } finally {
    clearInterval(timer);
  }
}

import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './cluster/cluster';

/**
 * Test programs that run as processes of their own (test/embedded/hold-folder.ts), bundled once per run like the server
 * (scripts/bundle-server.mjs): a start through tsx compiles every module it imports again, about 3 CPU-seconds against
 * 0.6, and the embedded engine's tests start the holder about twenty times. Each run builds into a folder of its own,
 * since the two server lanes of `npm test` run side by side. Falls back to tsx without esbuild.
 */
export async function bundleTestPrograms(entries: Record<string, string>) {
  const sources = Object.fromEntries(
    Object.entries(entries).map(([name, file]) => [name, path.join(ROOT, file)]),
  );
  const tsx = (name: string) => ['--import', 'tsx', sources[name] as string];
  let esbuild: typeof import('esbuild');
  try {
    esbuild = await import('esbuild');
  } catch {
    return { programs: Object.fromEntries(Object.keys(entries).map((n) => [n, tsx(n)])), remove: () => {} };
  }
  const { serverExternals } = (await import(
    pathToFileURL(path.join(ROOT, 'scripts/bundle-server.mjs')).href
  )) as { serverExternals(root: string): string[] };
  const external = serverExternals(ROOT);
  // Inside server/ so the bundle resolves the packages (and the engine's binaries) as the sources do.
  const outdir = path.join(ROOT, `server/dist/test-programs-${process.pid}`);
  mkdirSync(outdir, { recursive: true });
  await esbuild.build({
    entryPoints: sources,
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external,
    logLevel: 'warning',
  });
  return {
    programs: Object.fromEntries(Object.keys(entries).map((n) => [n, [path.join(outdir, `${n}.mjs`)]])),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

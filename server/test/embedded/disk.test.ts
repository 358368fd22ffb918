import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../bench/server-process';
import { holdFolder, stopHolder } from './holder';

/**
 * Issue 12 §1 on a real small file system: a tmpfs mounted by the test (root only; where mounting is not
 * permitted the cases are skipped and say why). A full disk must fail writes in the envelope while reads go on,
 * and a start on a full disk says "disk full"; a read-only folder is one line.
 */
function tryMount(): string | null {
  const mountPoint = mkdtempSync(path.join(tmpdir(), 'cc-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m,mode=0755', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
    return mountPoint;
  } catch {
    rmSync(mountPoint, { recursive: true, force: true });
    return null;
  }
}

const probe = tryMount();
const canMount = probe !== null;
if (probe) {
  execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
}
if (!canMount) console.warn('disk.test.ts: mounting a tmpfs is not permitted here (needs root): skipped.');

const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) {
    execFileSync('umount', ['-l', m]);
    rmSync(m, { recursive: true, force: true });
  }
});

function smallDisk(): string {
  const m = tryMount() as string;
  mounts.push(m);
  return m;
}

/** Writes a file until the file system says ENOSPC. */
function fillDisk(dir: string) {
  const fd = openSync(path.join(dir, 'filler'), 'w');
  const block = Buffer.alloc(1024 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

async function json(res: Response) {
  return (await res.json()) as Record<string, unknown>;
}

describe.skipIf(!canMount)('a full disk', () => {
  it('fails writes with a clear error in the envelope, keeps serving reads, and a start says "disk full"', async () => {
    const dataDir = path.join(smallDisk(), 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const server = await startServerProcess({ dataDir, seedDemo: true });
    try {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: 'admin@demo.test',
          password: 'demo-Password1',
          device_name: 'disk test',
        }),
      });
      const token = ((await json(login)).data as { token: string }).token;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const entities = await json(await fetch(`${server.baseUrl}/api/entities?page=1`, { headers }));
      const slug = (entities.data as { slug: string }[])[0]?.slug;

      fillDisk(path.dirname(dataDir));
      let failed: Response | null = null;
      for (let i = 0; i < 3000 && !failed; i++) {
        const res = await fetch(`${server.baseUrl}/api/entities/${slug}/tags`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `Tag number ${i} with a longer name` }),
        });
        if (res.status !== 201) failed = res;
        else await res.arrayBuffer();
      }
      expect(failed?.status).toBe(507);
      expect(await json(failed as Response)).toEqual({
        message: "The server's disk is full, so nothing was saved. Please tell your administrator.",
        error: 'Insufficient Storage',
      });
      const read = await fetch(`${server.baseUrl}/api/entities?page=1`, { headers });
      expect(read.status).toBe(200);
    } finally {
      await server.stop();
    }
    const again = startServerProcess({ dataDir, seedDemo: true });
    await expect(again).rejects.toThrow(/The disk is full: \d+ kB free for the data folder/);
  }, 240_000);
});

describe.skipIf(!canMount)('a read-only data folder', () => {
  it('stops the start with one line', async () => {
    const mount = smallDisk();
    const dataDir = path.join(mount, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    const first = holdFolder(dataDir);
    expect(await first.first).toBe(`ready embedded postgres in ${dataDir}`);
    await stopHolder(first);
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    const h = holdFolder(dataDir);
    expect(await h.first).toBe(
      `failed The data folder ${dataDir} is read-only (EROFS): make it writable or set DATA_DIR to another folder.`,
    );
    await h.exited;
  }, 120_000);
});

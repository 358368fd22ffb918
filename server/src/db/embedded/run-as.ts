import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Whom postgres runs as: ourselves, or (when we are root, which PostgreSQL refuses) the `postgres` system user. */
export type RunAs = { uid: number; gid: number } | null;

/** The uid/gid of a system user from /etc/passwd, or null when there is no such user (or no /etc/passwd). */
function systemUser(name: string): { uid: number; gid: number } | null {
  let passwd: string;
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    return null;
  }
  for (const line of passwd.split('\n')) {
    const [user, , uid, gid] = line.split(':');
    if (user === name && uid !== undefined && gid !== undefined)
      return { uid: Number(uid), gid: Number(gid) };
  }
  return null;
}

/**
 * Root (CI, containers) runs postgres as the `postgres` user, which must be able to walk down to its binaries and the
 * data folder; anyone else runs it as themselves. Returns the reason when it cannot run at all.
 */
export function choosePostgresUser(
  dataDir: string,
  binDir: string,
): { runAs: RunAs } | { unusable: string; blocked?: string } {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { runAs: null };
  const user = systemUser('postgres');
  if (!user)
    return { unusable: 'running as root and there is no "postgres" system user to run PostgreSQL as' };
  // It must reach the binaries (node_modules) as well as the data folder: a checkout under /root is closed to it.
  const blocked = firstClosedAncestor(binDir, user) ?? firstClosedAncestor(dataDir, user);
  if (blocked) return { unusable: `the "postgres" system user cannot enter ${blocked}`, blocked };
  return { runAs: user };
}

/** The first existing folder on the way to `dir` that `user` may not enter (no x bit for it), or null. */
function firstClosedAncestor(dir: string, user: { uid: number; gid: number }): string | null {
  const parts: string[] = [];
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    parts.unshift(d);
    if (path.dirname(d) === d) break;
  }
  for (const d of parts) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(d);
    } catch {
      return null; // not created yet: we create it and hand it over
    }
    const bit = st.uid === user.uid ? 0o100 : st.gid === user.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) return d;
  }
  return null;
}

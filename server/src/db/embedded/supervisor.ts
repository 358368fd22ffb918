import { statfsSync } from 'node:fs';
import { diskFullIn } from './errors';
import { sleep } from './processes';

/**
 * Issue 30 §2: a full disk through a checkpoint. PostgreSQL PANICs when it cannot make a new WAL segment, restarts
 * itself, and its crash recovery fails the same way ("could not write to file pg_wal/xlogtemp…: No space left on
 * device"), so the postmaster shuts down ("shutting down due to startup process failure"). The server stays up and
 * waits: it starts the postmaster again once the data folder has room for a WAL segment and then some, and keeps
 * trying (a start that fails is retried) until it runs or the server stops. Meanwhile requests fail in the envelope
 * (a write 507 while the disk is full, else 503, http/error-handler.ts) and the pool reconnects to the same socket.
 */

/** A WAL segment (PostgreSQL's default 16 MB): with less free, PostgreSQL cannot make its next one. */
export const WAL_SEGMENT_BYTES = 16 * 1024 * 1024;
/** Free space before a start is tried again: a WAL segment for the end of recovery, and room for the writes after. */
export const RESTART_FREE_BYTES = 24 * 1024 * 1024;
const MAX_DELAY_MS = 1000;

export interface Postmaster {
  ended: Promise<unknown>;
  stop(): Promise<void>;
}

/** Free bytes for an unprivileged user on the file system holding `dir`; Infinity when it cannot be read. */
export function freeBytes(dir: string): number {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export function superviseCluster(
  first: Postmaster,
  o: {
    dataDir: string;
    /** Starts the postmaster again; resolves once it accepts connections, rejects when it could not start. */
    start(): Promise<Postmaster>;
    /** The last lines of PostgreSQL's log, to say why it stopped. */
    logTail(lines?: number): string;
    log?: (line: string) => void;
    free?: () => number;
  },
): { stop(): Promise<void> } {
  const log = o.log ?? ((line: string) => console.error(line));
  const free = o.free ?? (() => freeBytes(o.dataDir));
  let current = first;
  let stopping = false;
  let recovering: Promise<void> = Promise.resolve();

  const watch = (postmaster: Postmaster) => {
    void postmaster.ended.then(() => {
      if (!stopping && postmaster === current) recovering = recover();
    });
  };

  async function recover() {
    const since = Date.now();
    const full = diskFullIn(o.logTail()) || free() < WAL_SEGMENT_BYTES;
    const mb = Math.round(RESTART_FREE_BYTES / 1024 / 1024);
    log(
      full
        ? `database: the embedded PostgreSQL stopped: the disk is full (${o.dataDir}). Writes answer 507 and reads 503 meanwhile; it is started again once ${mb} MB are free.`
        : `database: the embedded PostgreSQL stopped (${o.logTail(1) || 'no message'}); starting it again, requests answer 503 meanwhile.`,
    );
    let delay = 100;
    let failures = 0;
    while (!stopping) {
      if (free() >= RESTART_FREE_BYTES) {
        try {
          const postmaster = await o.start();
          if (stopping) {
            await postmaster.stop();
            return;
          }
          current = postmaster;
          watch(postmaster);
          log(
            `database: the embedded PostgreSQL runs again (${((Date.now() - since) / 1000).toFixed(1)} s after it stopped).`,
          );
          return;
        } catch (error) {
          failures += 1;
          if (failures === 1)
            log(
              `database: the embedded PostgreSQL could not start again (${error instanceof Error ? error.message : String(error)}); still trying.`,
            );
        }
      }
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }

  watch(first);
  return {
    async stop() {
      stopping = true;
      await recovering;
      await current.stop();
    },
  };
}

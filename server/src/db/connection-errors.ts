/**
 * Issue 30 §1: is this error a lost or refused database connection (so the request may simply be tried again), rather
 * than a fault of the request or of the code?
 *
 * - PostgreSQL ended the session: 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown
 *   (another backend crashed and the server restarts), 57P03 cannot_connect_now (starting up or in recovery),
 *   53300 too_many_connections, and class 08 (connection exception).
 * - pg's own words for a connection that went away under it or was never made.
 * - The socket to the database: refused, reset, timed out, unreachable, or the embedded engine's unix socket missing
 *   while it restarts (ENOENT on connect; a missing file elsewhere is not this).
 */
export function isLostConnection(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, syscall, message } = error as { code?: unknown; syscall?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') return true;
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    if (SOCKET_CODES.has(code) && (syscall === undefined || SOCKET_CALLS.has(String(syscall)))) return true;
    if (code === 'ENOENT' && syscall === 'connect') return true;
  }
  return typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m));
}

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);
const SOCKET_CALLS = new Set(['connect', 'read', 'write', 'writev']);
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * Issue 30 §2: is the database's disk full? PostgreSQL says so itself (53100 disk_full) while it runs; when a full
 * disk has stopped it (no WAL segment could be made: a PANIC, then a crash recovery that fails the same way) or while
 * it recovers, a request meets only a lost connection, and the embedded engine's folder tells (connect.ts registers
 * the check). Such a write answers 507, not a retryable 503.
 */
export function isDiskFull(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code } = error as { code?: unknown };
  if (code === '53100' || code === 'ENOSPC') return true;
  return diskFullCheck !== null && isLostConnection(error) && diskFullCheck();
}

let diskFullCheck: (() => boolean) | null = null;

/** The embedded engine's check of its folder's free space, for isDiskFull; null when it closes. */
export function setDiskFullCheck(check: (() => boolean) | null): void {
  diskFullCheck = check;
}

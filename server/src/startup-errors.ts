import { makeWritableDataFolder } from './db/embedded/data-folder';
import { StartupError } from './db/embedded/errors';

/**
 * Issue 30 §6: the start-up failures an operator fixes in the settings say so in one line, without a stack trace
 * (main.ts prints a StartupError's message and exits 1). Anything not recognised here keeps its stack: that is ours.
 */

/**
 * DATA_DIR must be a folder this process can write in (made here when it does not exist yet): a file there, a kernel
 * file system (/proc) or a read-only folder fails every upload, or the embedded database's start (issue 30 §6, §10).
 */
export function checkDataDir(dataDir: string): void {
  makeWritableDataFolder(dataDir);
}

/** "host:port/database" of a DATABASE_URL, never its password. */
function describeUrl(databaseUrl: string): { where: string; host: string; database: string; user: string } {
  try {
    const url = new URL(databaseUrl);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username);
    return {
      where: `${host}:${url.port || '5432'}/${database}`,
      host,
      database,
      user: decodeURIComponent(url.username),
    };
  } catch {
    return { where: 'DATABASE_URL', host: '', database: '', user: '' };
  }
}

/** The one line for a database that cannot be reached or entered at start (DATABASE_URL), or null. */
export function databaseStartupError(error: unknown, databaseUrl: string | undefined): StartupError | null {
  if (!databaseUrl) return null;
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const { where, host, database, user } = describeUrl(databaseUrl);
  const line = (text: string) =>
    new StartupError(`Cannot open the database ${where} (DATABASE_URL): ${text}`);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return line(`the host name ${host} is not known; check the host in DATABASE_URL.`);
    case 'ECONNREFUSED':
      return line('nothing answers at that address; is PostgreSQL running there, on that port?');
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return line(`the host cannot be reached (${code}); check the address and the network.`);
    case '3D000':
      return line(
        `the database ${database} does not exist; create it (createdb ${database}) or fix its name.`,
      );
    case '28000':
    case '28P01':
      return line(`PostgreSQL refused the login of ${user || 'this user'} (${message}).`);
    case '57P03':
      return line('PostgreSQL is starting up or recovering; try again in a moment.');
    default:
      return null;
  }
}

/** The one line for a port or address the server cannot listen on (PORT, HOST), or null. */
export function listenStartupError(error: unknown, host: string, port: number): StartupError | null {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return new StartupError(
        `Port ${port} on ${host} is already in use (PORT): stop the other program or set PORT to a free port.`,
      );
    case 'EACCES':
      return new StartupError(`Port ${port} needs privileges this user lacks (PORT): use a port above 1023.`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAFNOSUPPORT':
    case 'EINVAL':
      return new StartupError(
        `HOST=${host} is not an address of this machine to listen on: use 0.0.0.0 (every address), 127.0.0.1 or one of its own.`,
      );
    default:
      return null;
  }
}

/**
 * The browser files that run a second time on a PostgreSQL server (DATABASE_URL), after the whole suite ran on the
 * embedded PostgreSQL `npm start` uses (issue 27). The embedded engine is the same PostgreSQL, so what a second run
 * adds is the DATABASE_URL deployment: an external server and its pool, the cache bus over LISTEN/NOTIFY, and a
 * different major version. These files lean on it hardest: the matrix streams from a cursor over the socket, the
 * importer and tasks run through the job queue and its row locks, the compliance and report pages read the
 * heaviest aggregate queries. Every other file's database behaviour is proven on PostgreSQL by the server suite.
 */
export const POSTGRES_FILES = [
  'matrix.test.mjs',
  'importer.test.mjs',
  'tasks.test.mjs',
  'compliance.test.mjs',
  'reports.test.mjs',
];

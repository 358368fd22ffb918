/**
 * The browser files that run a second time on a PostgreSQL server (DATABASE_URL), after the whole suite ran on the
 * embedded PostgreSQL `npm start` uses (issue 27). The embedded engine is the same PostgreSQL, so what a second run
 * adds is the DATABASE_URL deployment: an external server and its pool, and the cache bus over LISTEN/NOTIFY. These
 * two lean on it hardest: the matrix streams from a cursor over the socket, and the importer runs through the job
 * queue, its row locks and the tasks bell. The compliance, reports and tasks pages ran here too; their queries, the
 * queue's claims and the cache bus are proven on PostgreSQL by the server suite (compliance, reports, jobs and
 * cluster tests), and their pages by the whole suite, so they no longer run twice (each browser file costs one to
 * three CPU-minutes of Chromium on CI's two cores).
 */
export const POSTGRES_FILES = ['matrix.test.mjs', 'importer.test.mjs'];

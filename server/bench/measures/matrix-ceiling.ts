import { withSession } from '../../src/backup/session';
import { subtreeIds } from '../../src/entities/tree';
import type { DatabaseContext } from '../run';

/**
 * The database's ceiling for the matrix (issue 12 §2, issue 36 §1): ONE statement reading the same people and cells
 * the matrix measure streams (compliance type all, the bench organisation's tree: the people whose primary
 * organisation is in it, as matrix/queries.ts userWhere), `user_requirements FULL JOIN latest_results` as the matrix
 * joins them (a requirement with or without a result, a result without a requirement), each cell with its status
 * code (matrix/queries.ts statusCodeSql: the entity's warning horizon) and its wire ints (type, result, completed
 * and expiry days, result count), plus one line for each person with no cell (the matrix sends every person in
 * scope), written out with `COPY … TO STDOUT` (PGlite: COPY to its blob) and read to the end by this process.
 * It leaves out what only the matrix does beyond reading and coding the cells: names once a person, the due-by day
 * of a requirement in its grace period, the tallies, the block framing and the socket.
 *
 * Figures: matrix_one_statement_ms (best of 3 after a warm run, the matrix's statement settings: jit off, work_mem
 * 32MB), matrix_one_statement_users and matrix_one_statement_cells, counted from the warm run's own output (the
 * people's ids, the lines with a course). run.ts prints them beside matrix_users / matrix_cells and fails the run
 * when they differ, and prints matrix_vs_one_statement_ratio. In this process, before the server starts.
 */
export const name = 'matrix one-statement ceiling';
export const needs = 'database';

export function ceilingStatement(entityIds: number[], now: Date): string {
  const at = `'${now.toISOString()}'::timestamptz`;
  const ids = `ARRAY[${entityIds.map((id) => Math.trunc(id)).join(',')}]::int[]`;
  const day = (col: string) => `((${col} AT TIME ZONE 'UTC')::date - DATE '1970-01-01')`;
  return `COPY (
    WITH bu AS MATERIALIZED (
      SELECT u.id, ${at} + make_interval(days => e.expiry_warning) AS warn_at
        FROM users u JOIN entities e ON e.id = u.primary_entity_id
       WHERE u.primary_entity_id = ANY(${ids})
    ),
    c0 AS (
      SELECT coalesce(r.user_id, l.user_id) AS user_id, coalesce(r.course_id, l.course_id) AS course_id,
             coalesce(r.type, 'none') AS ctype, l.result_id, l.completed_at, l.expires_at, l.result_count, l.passed,
             l.type
        FROM (SELECT x.user_id, x.course_id, x.type FROM user_requirements x WHERE x.user_id IN (SELECT id FROM bu)) r
        FULL JOIN (SELECT l.* FROM latest_results l WHERE l.user_id IN (SELECT id FROM bu)) l
          ON l.user_id = r.user_id AND l.course_id = r.course_id
    )
    SELECT bu.id, c0.course_id,
           CASE c0.ctype WHEN 'primary' THEN 1 WHEN 'secondary' THEN 2 ELSE 0 END,
           CASE WHEN c0.course_id IS NULL THEN NULL
                WHEN c0.passed IS NOT TRUE THEN 3
                WHEN c0.expires_at <= ${at} THEN 2
                WHEN c0.type = 'exempt' THEN 4
                WHEN c0.expires_at IS NULL THEN 0
                WHEN c0.expires_at <= bu.warn_at THEN 1
                ELSE 0 END,
           c0.result_id, ${day('c0.completed_at')}, ${day('c0.expires_at')}, coalesce(c0.result_count, 0)
      FROM bu LEFT JOIN c0 ON c0.user_id = bu.id
  )`;
}

export async function run(ctx: DatabaseContext): Promise<Record<string, number>> {
  const entityIds = (await subtreeIds(ctx.deps.db, ctx.rootEntityId)).sort((a, b) => a - b);
  const statement = ceilingStatement(entityIds, new Date());
  return withSession(ctx.deps.database.session, ctx.deps.db, async (session) => {
    await session.query('SET jit = off').catch(() => {}); // PGlite has no JIT
    await session.query(`SET work_mem = '32MB'`);
    /** One COPY read to its end: ms, lines, bytes; `count` also counts its people and cells (the warm run). */
    const once = async (count: boolean) => {
      const t = performance.now();
      const stream = await session.copyOut(statement);
      let lines = 0;
      let bytes = 0;
      const people = new Set<number>();
      let cells = 0;
      let rest = '';
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
        if (!count) continue;
        const text = rest + chunk.toString('utf8');
        const rows = text.split('\n');
        rest = rows.pop() ?? '';
        for (const row of rows) {
          const tab = row.indexOf('\t');
          people.add(Number(row.slice(0, tab)));
          if (!row.startsWith('\\N', tab + 1)) cells++;
        }
      }
      return { ms: performance.now() - t, lines, bytes, users: people.size, cells };
    };
    const counted = await once(true);
    const runs = [await once(false), await once(false), await once(false)];
    // PGlite's one connection is the app's too: the settings end with the measure.
    await session.query('RESET jit').catch(() => {});
    await session.query('RESET work_mem');
    for (const r of runs)
      if (r.lines !== counted.lines) throw new Error(`ceiling: ${r.lines} lines, then ${counted.lines}`);
    const best = Math.min(...runs.map((r) => r.ms));
    return {
      matrix_one_statement_ms: Math.round(best),
      matrix_one_statement_users: counted.users,
      matrix_one_statement_cells: counted.cells,
      matrix_one_statement_mb: Math.round(counted.bytes / 1048576),
    };
  });
}

import { subtreeIds } from '../../src/entities/tree';
import { matrixBlock } from '../../src/matrix/queries';
import { parseFilters } from '../../src/matrix/service';
import type { DatabaseContext } from '../run';

/**
 * The database's ceiling for the matrix (issue 12 §2): ONE statement reading and encoding the same cells the matrix
 * measure streams (compliance type all, the whole bench organisation): the block query of matrix/queries.ts over
 * every user at once, with its own settings (jit off, work_mem). run.ts prints matrix_complete_ms next to it and the
 * ratio (target: within 2x on PostgreSQL). Timed after one warm run, in this process before the server starts.
 */
export const name = 'matrix one-statement ceiling';
export const needs = 'database';

export async function run(ctx: DatabaseContext): Promise<Record<string, number>> {
  const entityIds = (await subtreeIds(ctx.deps.db, ctx.rootEntityId)).sort((a, b) => a - b);
  const scope = { entityIds, filters: parseFilters({ compliance_type: 'all' }), now: new Date() };
  const once = async () => {
    const t = performance.now();
    const row = await matrixBlock(ctx.deps.db, scope, 0, 1_000_000_000, null);
    return { ms: performance.now() - t, users: row.n, bytes: row.cells.length + row.users.length };
  };
  await once();
  const runs = [await once(), await once()].sort((a, b) => a.ms - b.ms);
  const best = runs[0] as { ms: number; users: number; bytes: number };
  return {
    matrix_one_statement_ms: Math.round(best.ms),
    matrix_one_statement_users: best.users,
  };
}

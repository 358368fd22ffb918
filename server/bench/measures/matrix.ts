import WebSocket from 'ws';
import type { BenchContext } from '../run';

/**
 * Bench measure (issue 5 item 6, brief E): the matrix over a real websocket (mobile mode: bearer token in the first
 * message), compliance type 'all' (the largest matrix: required cells plus courses with a result only):
 * - matrix_first_block_ms: subscribe sent → first matrix_cells message received (target 300 ms);
 * - matrix_complete_ms: subscribe sent → progress 1 (target 3 s PostgreSQL, 6 s PGlite);
 * - matrix_users, matrix_cells: the people (rows) and cells received, all of the bench organisation's tree (the
 *   manager's scope); run.ts holds the ceiling (matrix-ceiling.ts) to these counts; matrix_peak_rss_mb: the server process's peak RSS (target < 512 MB);
 *   matrix_start_rss_mb: its RSS when the measure starts, so the growth during the measure is peak − start.
 * The exports are measures of their own (matrix-xlsx.ts, matrix-pdf.ts), each on a freshly started server.
 */
export const name = 'matrix';
export const needs = 'server';

function matrixOverSocket(ctx: BenchContext, filters: Record<string, unknown>) {
  return new Promise<{ firstBlockMs: number; users: number; cells: number; bytes: number }>(
    (resolve, reject) => {
      const ws = new WebSocket(`${ctx.baseUrl.replace('http', 'ws')}/api/ws`);
      let t0 = 0;
      let firstBlockMs = -1;
      let users = 0;
      let cells = 0;
      let bytes = 0;
      ws.on('open', () => {
        ws.send(JSON.stringify({ type: 'auth', token: ctx.token }));
      });
      ws.on('message', (raw: Buffer) => {
        bytes += raw.length;
        // Only the small messages are parsed; a cells block is counted from its first array cheaply.
        const text = raw.toString();
        if (text.startsWith('{"type":"fetch_data"') && text.includes('"kind":"matrix_cells"')) {
          if (firstBlockMs < 0) firstBlockMs = performance.now() - t0;
          const data = JSON.parse(text).data as number[][];
          cells += data[0]?.length ?? 0;
          return;
        }
        // A users block (UsersWire: ids first); a block of ~500 people, parsed whatever its size.
        if (text.startsWith('{"type":"fetch_data"') && text.includes('"kind":"users"')) {
          const data = JSON.parse(text).data as unknown[][];
          users += data[0]?.length ?? 0;
          return;
        }
        if (text.length > 100_000) return;
        const m = JSON.parse(text);
        if (m.type === 'authenticated') {
          t0 = performance.now();
          ws.send(JSON.stringify({ type: 'subscribe', channel: 'matrix', id: 'bench', filters }));
        } else if (m.type === 'error') {
          reject(new Error(m.message));
          ws.close();
        } else if (m.type === 'progress' && m.progress >= 1) {
          ws.close();
          resolve({ firstBlockMs: Math.round(firstBlockMs), users, cells, bytes });
        }
      });
      ws.on('error', reject);
    },
  );
}

export async function run(ctx: BenchContext): Promise<Record<string, number>> {
  const filters = { compliance_type: 'all' };
  await matrixOverSocket(ctx, { compliance_type: 'primary', users: [1] }); // warm the connection and plans
  const m = await ctx.sample(() => matrixOverSocket(ctx, filters));
  const primary = await ctx.sample(() => matrixOverSocket(ctx, { compliance_type: 'primary' }));
  return {
    matrix_first_block_ms: m.value.firstBlockMs,
    matrix_complete_ms: m.ms,
    matrix_users: m.value.users,
    matrix_cells: m.value.cells,
    matrix_mb_on_wire: Math.round(m.value.bytes / 1048576),
    matrix_peak_rss_mb: m.peakMb,
    matrix_start_rss_mb: m.startMb,
    matrix_primary_first_block_ms: primary.value.firstBlockMs,
    matrix_primary_complete_ms: primary.ms,
  };
}

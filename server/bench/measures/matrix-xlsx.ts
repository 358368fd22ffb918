import type { BenchContext } from '../run';
import { downloadMatrix } from './matrix-download';

/**
 * Bench measure: the matrix as XLSX (POST /api/reports/matrix directFormat file, compliance type all, the body
 * read and discarded as it streams) on a freshly started server: matrix_xlsx_ms and the server's peak RSS
 * (targets 5 s, 512 MB); matrix_xlsx_start_rss_mb is its RSS when the export starts.
 */
export const name = 'matrix XLSX';
export const needs = 'server';

export async function run(ctx: BenchContext): Promise<Record<string, number>> {
  const m = await ctx.sample(() => downloadMatrix(ctx, 'xlsx'));
  return {
    matrix_xlsx_ms: m.ms,
    matrix_xlsx_mb: Math.round(m.value / 1048576),
    matrix_xlsx_peak_rss_mb: m.peakMb,
    matrix_xlsx_start_rss_mb: m.startMb,
  };
}

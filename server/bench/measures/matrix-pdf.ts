import type { BenchContext } from '../run';
import { downloadMatrix } from './matrix-download';

/**
 * Bench measure: the matrix as PDF (POST /api/reports/matrix directFormat file, compliance type all, the body
 * read and discarded as it streams) on a freshly started server: matrix_pdf_ms and the server's peak RSS
 * (targets 15 s, 256 MB); matrix_pdf_start_rss_mb is its RSS when the export starts.
 */
export const name = 'matrix PDF';
export const needs = 'server';

export async function run(ctx: BenchContext): Promise<Record<string, number>> {
  const m = await ctx.sample(() => downloadMatrix(ctx, 'pdf'));
  return {
    matrix_pdf_ms: m.ms,
    matrix_pdf_mb: Math.round(m.value / 1048576),
    matrix_pdf_peak_rss_mb: m.peakMb,
    matrix_pdf_start_rss_mb: m.startMb,
  };
}

import type { BenchContext } from '../run';
import { BENCH_MANAGER_PASSWORD } from '../seed';
import { loginOnce, loginsDuring } from './api-reads';
import { downloadMatrix } from './matrix-download';

/**
 * Bench measure: the matrix as XLSX (POST /api/reports/matrix directFormat file, compliance type all, the body
 * read and discarded as it streams) on a freshly started server: matrix_xlsx_ms and the server's peak RSS
 * (targets 5 s, 512 MB); matrix_xlsx_start_rss_mb is its RSS when the export starts; matrix_xlsx_login_max_ms: the
 * slowest of the fresh logins (one a second) made while it runs (issue 12 §1: within 1 s).
 */
export const name = 'matrix XLSX';
export const needs = 'server';

export async function run(ctx: BenchContext): Promise<Record<string, number>> {
  const credentials = {
    email: 'bench-manager@bench.test',
    password: BENCH_MANAGER_PASSWORD,
    device_name: 'bench',
  };
  const login = () => loginOnce(ctx.baseUrl, credentials);
  await login(); // the first login loads the breached-password list: not what a login under load costs
  const probed = await loginsDuring(
    ctx.sample(() => downloadMatrix(ctx, 'xlsx')),
    login,
  );
  const m = probed.value;
  return {
    matrix_xlsx_login_max_ms: probed.maxMs,
    matrix_xlsx_ms: m.ms,
    matrix_xlsx_mb: Math.round(m.value / 1048576),
    matrix_xlsx_peak_rss_mb: m.peakMb,
    matrix_xlsx_start_rss_mb: m.startMb,
  };
}

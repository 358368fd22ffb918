import type { BenchContext } from '../run';

/** POST /api/reports/matrix as a file (compliance type all); the body is read and discarded as it streams. Bytes. */
export async function downloadMatrix(ctx: BenchContext, format: 'xlsx' | 'pdf') {
  const res = await fetch(`${ctx.baseUrl}/api/reports/matrix`, {
    method: 'POST',
    headers: { ...ctx.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ directFormat: 'file', format, compliance_type: 'all' }),
  });
  if (!res.ok || !res.body) throw new Error(`${format}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
  return bytes;
}

import type { Readable } from 'node:stream';
import { ReportsPerm, ResultsPerm, reportFileName } from '@cc/contracts';
import yazl from 'yazl';
import { certificateFileName, trainingCertificate } from '../certificates/service';
import { entityScope } from '../entities/scope';
import { authorize, type Ctx, can } from '../http/context';
import { notFound } from '../http/errors';
import { certificateResults } from './queries';

/**
 * POST /results/certificate/download-multiple (7): a zip of the certificates of these results, each drawn by the
 * certificates capability (same branding, same checks). Any id that is missing, outside the caller's scope or not a
 * passed, approved result answers 404 (as for one certificate). Suppressed certificates are left out for callers
 * without 124; when nothing is left the answer is 204 (spec 2 §4 "Export or download answering 204 yields an empty
 * result"). Entries are rendered one at a time as the zip is read (addReadStreamLazy), so memory stays flat.
 */
export async function certificatesZip(
  ctx: Ctx,
  resultIds: number[],
): Promise<{ filename: string; stream: Readable } | null> {
  const ids = [...new Set(resultIds)];
  const scope = await entityScope(ctx);
  const rows = await certificateResults(
    ctx.db,
    ids,
    scope.accessible === 'all' ? null : [...scope.accessible],
  );
  if (rows.length !== ids.length || rows.some((r) => !r.passed || r.status !== 'approved')) throw notFound();
  const actor = authorize(ctx, [ReportsPerm.userCertificates]);
  const allowed = can(actor, [ResultsPerm.suppressCertificate])
    ? rows
    : rows.filter((r) => !r.certificate_suppressed);
  if (allowed.length === 0) return null;

  // Named as a single download is (certificateFileName), made unique within the zip.
  const zip = new yazl.ZipFile();
  const used = new Map<string, number>();
  for (const row of allowed) {
    const filename = certificateFileName(row);
    const n = used.get(filename) ?? 0;
    used.set(filename, n + 1);
    const unique = n === 0 ? filename : filename.replace(/\.pdf$/, `-${n + 1}.pdf`);
    zip.addReadStreamLazy(unique, { compress: false }, (cb) => {
      trainingCertificate(ctx, row.user_uuid, { result_id: row.id }).then(
        (c) => cb(null, c.stream),
        (err) => cb(err, undefined as never),
      );
    });
  }
  zip.end();
  return {
    filename: reportFileName('certificates', actor.name, ctx.clock(), 'zip'),
    stream: zip.outputStream as unknown as Readable,
  };
}

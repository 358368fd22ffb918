import { MatrixMessages, MatrixReportBody } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import {
  matrixFile,
  matrixJson,
  parseReportRequest,
  registerMatrixJobs,
  requestEmailedMatrix,
} from './report';

/** spec 2 §7 POST /reports/matrix: directFormat json or file (format pdf | xlsx), or emailFormat. */
export async function matrixRoutes(app: App) {
  registerMatrixJobs();
  app.post(
    '/reports/matrix',
    { config: { readOnly: true }, schema: { tags: ['reports'], body: MatrixReportBody } },
    async (r, reply) => {
      // view: the page's search, "Show" filter and sort, which the file follows (issue 33 §5).
      const { filters, view } = parseReportRequest(r.body);
      if (r.body.emailFormat) {
        await requestEmailedMatrix(r.ctx, filters, r.body.emailFormat, view);
        return reply.status(202).send(done(MatrixMessages.emailQueued));
      }
      if (r.body.directFormat === 'file' && r.body.format) {
        const abort = new AbortController();
        // A client that goes away stops the export (the database stops being read).
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const file = await matrixFile(r.ctx, filters, r.body.format, abort.signal, view);
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      }
      return ok(await matrixJson(r.ctx, filters));
    },
  );
}

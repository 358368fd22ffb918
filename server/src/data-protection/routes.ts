import {
  DataProtectionMessages,
  EraseBody,
  LeavingDateBody,
  RetentionBody,
  SlugParams,
  UserRefParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import {
  erasePerson,
  exportPersonalData,
  exportPersonalDataPdf,
  getRetention,
  saveLeavingDate,
  saveRetention,
  userDataProtection,
} from './service';

/** Issue 35 §4 (docs/data-protection.md): subject access export, leaving date, erasure, the retention period. */
export async function dataProtectionRoutes(app: App) {
  const tags = ['data-protection'];
  app.get('/users/:id/data-protection', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await userDataProtection(r.ctx, r.params.id)),
  );
  // The export is a download: the JSON itself (not the envelope), as a file, never cached.
  app.get('/users/:id/personal-data', { schema: { tags, params: UserRefParams } }, async (r, reply) => {
    const { data, filename } = await exportPersonalData(r.ctx, r.params.id);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(JSON.stringify(data, null, 2));
  });
  app.get('/users/:id/personal-data.pdf', { schema: { tags, params: UserRefParams } }, async (r, reply) => {
    const { pdf, filename } = await exportPersonalDataPdf(r.ctx, r.params.id);
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(pdf);
  });
  app.put(
    '/users/:id/leaving-date',
    { schema: { tags, params: UserRefParams, body: LeavingDateBody } },
    async (r) =>
      ok(await saveLeavingDate(r.ctx, r.params.id, r.body), DataProtectionMessages.leavingDateSaved),
  );
  app.post('/users/:id/erase', { schema: { tags, params: UserRefParams, body: EraseBody } }, async (r) =>
    ok(await erasePerson(r.ctx, r.params.id, r.body), DataProtectionMessages.erased),
  );
  app.get('/entities/:slug/data-protection', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await getRetention(r.ctx, r.params.slug)),
  );
  app.put(
    '/entities/:slug/data-protection',
    { schema: { tags, params: SlugParams, body: RetentionBody } },
    async (r) => ok(await saveRetention(r.ctx, r.params.slug, r.body), DataProtectionMessages.retentionSaved),
  );
}

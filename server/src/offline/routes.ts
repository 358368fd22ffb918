import { CreateOfflineDownloadBody, OfflineMessages, SyncOfflineAttemptBody } from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { createOfflineDownload, syncOfflineAttempt } from './service';

/**
 * Offline learning (issue 19). Not in the spec (the client it was written from had no offline mode): both routes act
 * for the caller only, on their own learning. POST /offline/downloads gives a copy to take away; POST
 * /offline/attempts brings an attempt back, idempotent by the device's client_uuid (201 the first time, 200 with the
 * same outcome after).
 */
export async function offlineRoutes(app: App): Promise<void> {
  const tags = ['offline'];
  app.post('/offline/downloads', { schema: { tags, body: CreateOfflineDownloadBody } }, async (r, reply) =>
    reply
      .status(201)
      .send(ok(await createOfflineDownload(r.ctx, r.body.content_id), OfflineMessages.downloaded)),
  );
  app.post('/offline/attempts', { schema: { tags, body: SyncOfflineAttemptBody } }, async (r, reply) => {
    const { outcome, created } = await syncOfflineAttempt(r.ctx, r.body);
    return reply
      .status(created ? 201 : 200)
      .send(ok(outcome, created ? OfflineMessages.synced : OfflineMessages.alreadySynced));
  });
}

import {
  BookingsMessages,
  DelegateSettingsUpdate,
  SlugParams,
  TrainingProviderSettingsUpdate,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import {
  getDelegateSettings,
  getTrainingProviderSettings,
  updateDelegateSettings,
  updateTrainingProviderSettings,
} from './settings';

/** /entities/{slug}/training-provider-settings (110) and /entities/{slug}/delegate-settings (9 or 11). HTTP only. */
export async function settingsRoutes(app: App) {
  const tags = ['bookings'];
  app.get('/entities/:slug/training-provider-settings', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await getTrainingProviderSettings(r.ctx, r.params.slug)),
  );
  app.patch(
    '/entities/:slug/training-provider-settings',
    { schema: { tags, params: SlugParams, body: TrainingProviderSettingsUpdate } },
    async (r) =>
      ok(
        await updateTrainingProviderSettings(r.ctx, r.params.slug, r.body),
        BookingsMessages.settingsUpdated,
      ),
  );
  app.get('/entities/:slug/delegate-settings', { schema: { tags, params: SlugParams } }, async (r) =>
    ok(await getDelegateSettings(r.ctx, r.params.slug)),
  );
  app.patch(
    '/entities/:slug/delegate-settings',
    { schema: { tags, params: SlugParams, body: DelegateSettingsUpdate } },
    async (r) =>
      ok(await updateDelegateSettings(r.ctx, r.params.slug, r.body), BookingsMessages.settingsUpdated),
  );
}

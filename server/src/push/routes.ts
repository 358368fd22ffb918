import { PushDeviceParams, PushMessages, RegisterPushDeviceBody } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok } from '../http/envelope';
import { listPushDevices, registerPushDevice, removePushDevice } from './service';

/** Push notifications (issue 19; contracts push.ts): the caller's phones. HTTP only, rules in service.ts. */
export async function pushRoutes(app: App): Promise<void> {
  const tags = ['push'];
  app.get('/push-devices', { schema: { tags } }, async (r) => ok(await listPushDevices(r.ctx)));
  app.post('/push-devices', { schema: { tags, body: RegisterPushDeviceBody } }, async (r, reply) =>
    reply.status(201).send(ok(await registerPushDevice(r.ctx, r.body), PushMessages.registered)),
  );
  app.delete('/push-devices/:id', { schema: { tags, params: PushDeviceParams } }, async (r) => {
    await removePushDevice(r.ctx, r.params.id);
    return done(PushMessages.removed);
  });
}

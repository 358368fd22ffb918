import { PUSH_PLATFORMS, type PushDevice, PushDeviceParams, RegisterPushDeviceBody } from '@cc/contracts';
import { actorOf } from '../http/context';
import { listPushDevices, registerPushDevice, removePushDevice } from '../push/service';
import { builder } from './builder';
import { parseInput } from './input';

/**
 * Push notification devices (issue 19; contracts push.ts) over GraphQL: query `pushDevices`, mutations
 * `registerPushDevice` (POST /push-devices) and `removePushDevice` (DELETE /push-devices/{id}). Each parses its input
 * with the REST route's schema and calls the same service.
 */
const PushDeviceObject = builder.objectRef<PushDevice>('PushDevice').implement({
  description: "One of the caller's phones registered for push notifications (the token is never shown).",
  fields: (t) => ({
    id: t.exposeInt('id'),
    platform: t.exposeString('platform', { description: PUSH_PLATFORMS.join(', ') }),
    device_name: t.exposeString('device_name'),
    current: t.exposeBoolean('current', { description: 'Registered by the token making this call.' }),
    created_at: t.exposeString('created_at'),
    updated_at: t.exposeString('updated_at'),
  }),
});

builder.queryField('pushDevices', (t) =>
  t.field({
    type: [PushDeviceObject],
    description: "GET /api/push-devices: the caller's phones registered for push notifications.",
    resolve: (_root, _args, ctx) => listPushDevices(ctx),
  }),
);

builder.mutationField('registerPushDevice', (t) =>
  t.field({
    type: PushDeviceObject,
    description: "POST /api/push-devices: this phone receives the caller's reminders and messages by push.",
    args: {
      token: t.arg.string({ required: true }),
      platform: t.arg.string({ required: true, description: PUSH_PLATFORMS.join(', ') }),
      device_name: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) => {
      actorOf(ctx);
      return registerPushDevice(ctx, parseInput(RegisterPushDeviceBody, args));
    },
  }),
);

builder.mutationField('removePushDevice', (t) =>
  t.field({
    type: 'Boolean',
    description: "DELETE /api/push-devices/{id}: one of the caller's phones stops receiving pushes.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      actorOf(ctx);
      await removePushDevice(ctx, parseInput(PushDeviceParams, { id }).id);
      return true;
    },
  }),
);

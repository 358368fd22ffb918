import { z } from 'zod';

/**
 * Push notifications of the mobile shell (issue 19; beyond the spec). A phone registers its platform token after
 * sign-in and is removed at logout; reminders and messages then go to it by push, e-mail being the fallback
 * (the delivery ledger, notifications.ts, records both):
 * - POST /push-devices {token, platform, device_name}: registers the caller's phone (a token already known moves
 *   to the caller: one phone, one registration);
 * - GET /push-devices: the caller's phones; DELETE /push-devices/{id}: removes one of them.
 */
export const PUSH_PLATFORMS = ['android', 'ios'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

export const RegisterPushDeviceBody = z.object({
  token: z
    .string({ error: 'The push token is required.' })
    .trim()
    .min(1, 'The push token is required.')
    .max(4096, 'The push token must be at most 4096 characters.'),
  platform: z.enum(PUSH_PLATFORMS, { error: 'The platform must be android or ios.' }),
  device_name: z
    .string({ error: 'The device name is required.' })
    .trim()
    .min(1, 'The device name is required.')
    .max(255, 'The device name must be at most 255 characters.'),
});
export type RegisterPushDeviceBody = z.infer<typeof RegisterPushDeviceBody>;

export const PushDeviceParams = z.object({
  id: z.coerce
    .number({ error: 'The device id must be a number.' })
    .int()
    .positive('The device id must be a number.'),
});

/** One registered phone as its owner sees it (the token itself is never sent back). */
export const PushDevice = z.object({
  id: z.number(),
  platform: z.enum(PUSH_PLATFORMS),
  device_name: z.string(),
  /** This phone was registered by the token making the call (the app shows "this device"). */
  current: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PushDevice = z.infer<typeof PushDevice>;

export const PushMessages = {
  registered: 'This device will receive notifications.',
  removed: 'This device will no longer receive notifications.',
} as const;

/** Why an e-mail went instead of a push (the ledger's fallback), in the words a manager reads. */
export const PUSH_FALLBACK_REASONS = ['push_not_configured', 'no_device', 'push_failed'] as const;
export type PushFallbackReason = (typeof PUSH_FALLBACK_REASONS)[number];
export const PUSH_FALLBACK_TEXT: Record<PushFallbackReason, string> = {
  push_not_configured: 'push notifications are not set up',
  no_device: 'no phone is registered for notifications',
  push_failed: 'the push to every phone failed',
};

import type { PushFallbackReason } from '@cc/contracts';
import type { PushSettings } from '../config';
import type { Db } from '../db/connect';
import { insertNotifications, type NewNotification } from '../notifications/queries';
import { sendApns } from './apns';
import { sendFcm } from './fcm';
import type { PushMessage, PushOutcome } from './outcome';
import { deleteDeadDevice, devicesToPush, hasDevice } from './queries';

/**
 * Pushes one notification to every phone of its recipient and records each attempt in the delivery ledger
 * (channel 'push', one row per phone and attempt: 'sent', or 'failed' with the reason). A phone whose token the
 * platform declares dead is removed. The answer tells the caller whether the e-mail is still needed, and if so why
 * (the ledger's fallback): push not set up for the recipient's phones, no phone, or every push failed.
 */
export type PushResult = { delivered: true } | { delivered: false; fallback: PushFallbackReason };

/** The ledger fields a push row shares with its notification. */
export type PushSubject = Pick<
  NewNotification,
  'kind' | 'subject_key' | 'occasion' | 'user_id' | 'entity_id' | 'course_id' | 'expires_at'
> &
  PushMessage;

export function pushPlatforms(settings: PushSettings): ('android' | 'ios')[] {
  return [...(settings.fcm ? (['android'] as const) : []), ...(settings.apns ? (['ios'] as const) : [])];
}

export const pushConfigured = (settings: PushSettings) => pushPlatforms(settings).length > 0;

function sendTo(settings: PushSettings, platform: 'android' | 'ios', token: string, m: PushMessage) {
  if (platform === 'android' && settings.fcm) return sendFcm(settings.fcm, token, m);
  if (platform === 'ios' && settings.apns) return sendApns(settings.apns, token, m);
  return Promise.resolve<PushOutcome>({
    ok: false,
    dead: false,
    reason: 'Push is not set up for this phone.',
  });
}

export async function pushToUser(
  deps: { db: Db; config: { push: PushSettings } },
  subject: PushSubject,
  attempt: number,
  now: Date,
): Promise<PushResult> {
  const platforms = pushPlatforms(deps.config.push);
  const devices = await devicesToPush(deps.db, subject.user_id, platforms);
  if (devices.length === 0) {
    if (platforms.length === 0) return { delivered: false, fallback: 'push_not_configured' };
    // A phone on a platform this server cannot push to counts as push not being set up, not as "no phone".
    const phone = await hasDevice(deps.db, subject.user_id);
    return { delivered: false, fallback: phone ? 'push_not_configured' : 'no_device' };
  }
  const message = { title: subject.title, body: subject.body, link: subject.link };
  const outcomes = await Promise.all(
    devices.map((d) => sendTo(deps.config.push, d.platform, d.token, message)),
  );
  const rows: NewNotification[] = devices.map((d, i) => {
    const o = outcomes[i] as PushOutcome;
    return {
      kind: subject.kind,
      subject_key: subject.subject_key,
      occasion: subject.occasion,
      user_id: subject.user_id,
      entity_id: subject.entity_id,
      course_id: subject.course_id,
      expires_at: subject.expires_at,
      title: subject.title,
      body: subject.body,
      link: subject.link,
      channel: 'push',
      state: o.ok ? 'sent' : 'failed',
      delivery_key: `device:${d.id}@${attempt}`,
      push_device_id: o.ok || !o.dead ? d.id : null,
      device_name: d.device_name,
      attempts: 1,
      last_error: o.ok ? null : o.reason,
      sent_at: o.ok ? now : null,
      created_at: now,
    };
  });
  for (const [i, d] of devices.entries()) {
    const o = outcomes[i] as PushOutcome;
    if (!o.ok && o.dead) await deleteDeadDevice(deps.db, d.id, d.token);
  }
  await insertNotifications(deps.db, rows);
  return outcomes.some((o) => o.ok) ? { delivered: true } : { delivered: false, fallback: 'push_failed' };
}

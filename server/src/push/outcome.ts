/**
 * What one push to one phone came to. `dead`: the platform says the token will never work again (FCM
 * UNREGISTERED, APNs 410), so the phone's registration is removed. `reason` is in plain words for the ledger.
 */
export type PushOutcome = { ok: true } | { ok: false; dead: boolean; reason: string };

/** What a push says: the notification's title and text, and the app path a tap opens. */
export interface PushMessage {
  title: string;
  body: string;
  link: string;
}

/** How long a push service may take before the attempt counts as failed. */
export const PUSH_TIMEOUT_MS = 15_000;

export const failed = (reason: string, dead = false): PushOutcome => ({ ok: false, dead, reason });

export function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}

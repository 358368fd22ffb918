import { describeDelivery } from '@cc/contracts';
import { describe, expect, it } from 'vitest';

/** The ledger's states in the words a manager reads on a user's page (DeliveryLedgerCard). */
const time = (iso: string) => iso.slice(11, 16);
const row = { channel: 'email' as const, attempts: 0, next_attempt_at: null, last_error: null };

describe('describeDelivery', () => {
  it('says when a held e-mail goes, and why it waits', () => {
    expect(describeDelivery({ ...row, state: 'held', next_attempt_at: '2030-01-16T07:00:00Z' }, time)).toBe(
      'Held until 07:00 (quiet hours)',
    );
  });

  it('counts failed attempts and gives the last error', () => {
    expect(
      describeDelivery(
        { ...row, state: 'pending', attempts: 2, next_attempt_at: '2030-01-16T09:04:00Z', last_error: 'x' },
        time,
      ),
    ).toBe('Retrying at 09:04 (2 failed attempts)');
    expect(
      describeDelivery(
        { ...row, state: 'failed', attempts: 5, last_error: 'The mail server did not answer.' },
        time,
      ),
    ).toBe('Failed after 5 attempts: The mail server did not answer.');
  });

  it('tells an in-app delivery from an e-mail sent, and read from dismissed', () => {
    expect(describeDelivery({ ...row, state: 'sent' }, time)).toBe('Sent');
    expect(describeDelivery({ ...row, channel: 'in_app', state: 'sent' }, time)).toBe(
      'Delivered, not read yet',
    );
    expect(describeDelivery({ ...row, channel: 'in_app', state: 'read' }, time)).toBe('Read');
    expect(describeDelivery({ ...row, channel: 'in_app', state: 'dismissed' }, time)).toBe('Dismissed');
    expect(describeDelivery({ ...row, state: 'pending' }, time)).toBe('Queued');
  });

  it('says which phone a push went to, why it failed, and why an e-mail went instead', () => {
    const push = { ...row, channel: 'push' as const, device_name: 'Google Pixel 8' };
    expect(describeDelivery({ ...push, state: 'sent' }, time)).toBe('Pushed to Google Pixel 8');
    expect(
      describeDelivery(
        { ...push, state: 'failed', attempts: 1, last_error: 'Firebase could not be reached.' },
        time,
      ),
    ).toBe('Push to Google Pixel 8 failed: Firebase could not be reached.');
    expect(describeDelivery({ ...row, state: 'sent', fallback: 'push_failed' }, time)).toBe(
      'Sent instead of a push: the push to every phone failed',
    );
    expect(describeDelivery({ ...row, state: 'sent', fallback: 'no_device' }, time)).toBe(
      'Sent instead of a push: no phone is registered for notifications',
    );
    expect(describeDelivery({ ...row, state: 'skipped' }, time)).toBe(
      'Not sent: the push notification reached the phone',
    );
  });
});

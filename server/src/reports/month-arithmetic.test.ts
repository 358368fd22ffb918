import { plusMonths } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { passwordChangeRequired } from '../auth/actor';
import { periodWindow } from './lists-service';

describe('month arithmetic: the lists\' "last month" window, password expiry', () => {
  it('goes back one calendar month, clamped at the month end (31 March: from the last day of February)', () => {
    const now = new Date('2027-03-31T10:00:00Z');
    expect(periodWindow({ period: 'last_month' }, now).from?.toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(periodWindow({ period: 'last_month' }, new Date('2028-03-30T10:00:00Z')).from?.toISOString()).toBe(
      '2028-02-29T10:00:00.000Z',
    );
    expect(periodWindow({ period: 'last_month' }, new Date('2027-01-15T10:00:00Z')).from?.toISOString()).toBe(
      '2026-12-15T10:00:00.000Z',
    );
  });

  it('a password changed on 31 August expires with a 6-month rule on the last day of February', () => {
    const user = {
      password_change_required: false,
      password_changed_at: new Date('2026-08-31T08:00:00Z'),
      created_at: new Date('2026-01-01T00:00:00Z'),
    };
    expect(passwordChangeRequired(user, 6, new Date('2027-02-28T07:59:59Z'))).toBe(false);
    expect(passwordChangeRequired(user, 6, new Date('2027-02-28T08:00:00Z'))).toBe(true);
  });

  it('plusMonths keeps the day where the month has it and clamps it where not', () => {
    expect(plusMonths(new Date('2027-01-31T00:00:00Z'), 1).toISOString()).toBe('2027-02-28T00:00:00.000Z');
    expect(plusMonths(new Date('2026-08-31T08:00:00Z'), 6).toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(plusMonths(new Date('2027-05-17T00:00:00Z'), -12).toISOString()).toBe('2026-05-17T00:00:00.000Z');
  });
});

import { formatDate, formatDateTime, setDateFormat } from '@cc/contracts';
import { afterEach, describe, expect, it } from 'vitest';

describe('one date format', () => {
  afterEach(() => setDateFormat(null));

  it('shows DD/MM/YYYY by default, calendar days as that day, instants in UK time', () => {
    expect(formatDate('2026-11-25')).toBe('25/11/2026');
    expect(formatDate('2026-06-30T23:30:00Z')).toBe('01/07/2026');
    expect(formatDateTime('2026-06-30T23:30:00Z')).toBe('01/07/2026 00:30');
    expect(formatDateTime('2026-01-15T09:05:00Z')).toBe('15/01/2026 09:05');
  });

  it("follows the organisation's format and falls back for no date", () => {
    setDateFormat('MM/DD/YYYY');
    expect(formatDate('2026-01-02')).toBe('01/02/2026');
    setDateFormat('YYYY-MM-DD');
    expect(formatDate(new Date('2026-01-02T12:00:00Z'))).toBe('2026-01-02');
    expect(formatDate(null, undefined, '—')).toBe('—');
    expect(formatDate('not a date', undefined, 'Never')).toBe('Never');
  });
});

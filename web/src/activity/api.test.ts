import { describe, expect, it } from 'vitest';
import { deviceLabel, metricRanges } from './api';
import { bucketLabel } from './SignInChart';

describe('metricRanges', () => {
  it('counts from today in the UK: today by hour, 7 and 30 days by day, 12 months by month', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in the UK (BST).
    const ranges = metricRanges(new Date('2026-06-30T23:30:00Z'));
    expect(ranges).toEqual([
      { key: 'today', fromDate: '2026-07-01', toDate: '2026-07-01', period: 'h' },
      { key: '7d', fromDate: '2026-06-25', toDate: '2026-07-01', period: 'd' },
      { key: '30d', fromDate: '2026-06-02', toDate: '2026-07-01', period: 'd' },
      { key: '12m', fromDate: '2025-08-01', toDate: '2026-07-01', period: 'm' },
    ]);
  });
});

describe('bucketLabel and deviceLabel', () => {
  it('reads buckets and devices as people do', () => {
    expect(bucketLabel('2026-07-01T09:00', 'h')).toBe('09:00');
    expect(bucketLabel('2026-07-01T00:00', 'd')).toBe('01/07/2026');
    expect(bucketLabel('2026-06-29T00:00', 'w')).toBe('Week of 29/06/2026');
    expect(bucketLabel('2026-07-01T00:00', 'm')).toBe('Jul 2026');
    expect(deviceLabel('Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36', 'web')).toBe(
      'Chrome on Windows',
    );
    expect(deviceLabel('node', 'mobile')).toBe('Mobile app');
    expect(deviceLabel(null, 'web')).toBe('—');
  });
});

import { describe, expect, it } from 'vitest';
import { boundDeviceTime, decideOfflineOutcome } from './rules';

const t = (iso: string) => new Date(iso);
const download = t('2026-03-01T09:00:00Z');
const sync = t('2026-03-05T09:00:00Z');

describe('boundDeviceTime', () => {
  it('keeps a device time inside the window and clamps one outside it (or not a date) to the window', () => {
    expect(boundDeviceTime(t('2026-03-02T10:00:00Z'), download, sync)).toEqual(t('2026-03-02T10:00:00Z'));
    expect(boundDeviceTime(t('2020-01-01T00:00:00Z'), download, sync)).toEqual(download);
    expect(boundDeviceTime(t('2030-01-01T00:00:00Z'), download, sync)).toEqual(sync);
    expect(boundDeviceTime(new Date(Number.NaN), download, sync)).toEqual(download);
  });
});

describe('decideOfflineOutcome', () => {
  const done = t('2026-03-03T10:00:00Z');
  it('never counts an unfinished or failed attempt, whatever is on record', () => {
    expect(
      decideOfflineOutcome({ offline: { status: 'incomplete', completedAt: null }, recordedPass: null }),
    ).toEqual({ counts: false, rule: 'offline_incomplete' });
    expect(
      decideOfflineOutcome({ offline: { status: 'passed', completedAt: null }, recordedPass: null }).rule,
    ).toBe('offline_incomplete');
    expect(
      decideOfflineOutcome({ offline: { status: 'failed', completedAt: done }, recordedPass: null }),
    ).toEqual({
      counts: false,
      rule: 'offline_failed',
    });
  });
  it('records a SCORM fail as a failed result, as the online runtime does', () => {
    expect(
      decideOfflineOutcome({
        offline: { status: 'failed', completedAt: done },
        recordedPass: { completedAt: done },
        failIsResult: true,
      }),
    ).toEqual({ counts: true, rule: 'failed_result' });
  });
  it('counts a pass (or a completion) when none is on record', () => {
    expect(
      decideOfflineOutcome({ offline: { status: 'passed', completedAt: done }, recordedPass: null }),
    ).toEqual({
      counts: true,
      rule: 'only_pass',
    });
    expect(
      decideOfflineOutcome({ offline: { status: 'completed', completedAt: done }, recordedPass: null })
        .counts,
    ).toBe(true);
  });
  it('between two passes the later counts; on a tie the pass on record stays', () => {
    const earlier = { completedAt: t('2026-03-02T10:00:00Z') };
    const later = { completedAt: t('2026-03-04T10:00:00Z') };
    expect(
      decideOfflineOutcome({ offline: { status: 'passed', completedAt: done }, recordedPass: earlier }),
    ).toEqual({
      counts: true,
      rule: 'later_pass_counts',
    });
    expect(
      decideOfflineOutcome({ offline: { status: 'passed', completedAt: done }, recordedPass: later }),
    ).toEqual({
      counts: false,
      rule: 'earlier_pass_kept',
    });
    expect(
      decideOfflineOutcome({
        offline: { status: 'passed', completedAt: done },
        recordedPass: { completedAt: done },
      }).counts,
    ).toBe(false);
  });
});

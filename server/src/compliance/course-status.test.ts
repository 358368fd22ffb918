import { courseStatus, courseStatusText, newStarterDueBy, requirementDueBy } from '@cc/contracts';
import { describe, expect, it } from 'vitest';

/** Issue 28 item 5: the one status of a person x course (contracts course-status.ts), case by case. */
const NOW = new Date('2026-06-15T12:00:00Z');
const day = (n: number) => new Date(NOW.getTime() + n * 86_400_000);
const base = { required: true, warningDays: 30, now: NOW };
const pass = (expiresAt: Date | null, exempt = false) => ({ passed: true, exempt, expiresAt });

describe('courseStatus', () => {
  it.each([
    ['never done, no due date: missing, out of date', { latest: null }, 'missing', true, 'Never done'],
    [
      'failed, no due date: missing, "Not passed"',
      { latest: { passed: false, exempt: false, expiresAt: null } },
      'missing',
      true,
      'Not passed',
    ],
    [
      'never done, new starter: due by the end of the period',
      { latest: null, dueBy: day(20) },
      'due',
      false,
      'Due by 05/07/2026',
    ],
    ['never done, due date passed: missing', { latest: null, dueBy: day(-1) }, 'missing', true, 'Never done'],
    ['in date', { latest: pass(day(200)) }, 'in_date', false, 'In date until 01/01/2027'],
    ['no expiry', { latest: pass(null) }, 'in_date', false, 'In date (does not expire)'],
    ['expiring', { latest: pass(day(10)) }, 'expiring', false, 'Expires on 25/06/2026'],
    ['expired', { latest: pass(day(-3)) }, 'expired', true, 'Expired on 12/06/2026'],
    [
      'expired but a new starter: still expired',
      { latest: pass(day(-3)), dueBy: day(20) },
      'expired',
      true,
      'Expired on 12/06/2026',
    ],
    ['exempt for good', { latest: pass(null, true) }, 'exempt', false, 'Exempt'],
    [
      'exempt until a date (exemptUntil)',
      { latest: pass(null, true), exemptUntil: day(10) },
      'exempt',
      false,
      'Exempt until 25/06/2026',
    ],
    [
      // Issue 28 §6: an ended exemption counts for nothing: what counts is the person's other results.
      'exemption ended (exemptUntil), nothing else: never done',
      { latest: pass(null, true), exemptUntil: day(-1) },
      'missing',
      true,
      'Never done',
    ],
    [
      'exemption ended, an older pass in date: in date',
      { latest: { ...pass(day(-1), true), afterEnd: pass(day(200)) } },
      'in_date',
      false,
      'In date until 01/01/2027',
    ],
    [
      'exemption ended, an older pass expired: expired',
      { latest: { ...pass(day(-1), true), afterEnd: pass(day(-3)) } },
      'expired',
      true,
      'Expired on 12/06/2026',
    ],
    [
      'never done, record awaiting approval',
      { latest: null, pending: true },
      'pending',
      false,
      'Awaiting approval',
    ],
    [
      'expired, record awaiting approval',
      { latest: pass(day(-3)), pending: true },
      'pending',
      false,
      'Awaiting approval',
    ],
    [
      'in date and a renewal awaiting approval: in date',
      { latest: pass(day(200)), pending: true },
      'in_date',
      false,
      'In date until 01/01/2027',
    ],
    ['not required', { required: false, latest: pass(day(200)) }, 'not_required', false, 'Not required'],
  ] as const)('%s', (_name, facts, status, outOfDate, words) => {
    const s = courseStatus({ ...base, ...facts });
    expect({ status: s.status, outOfDate: s.outOfDate, words: courseStatusText(s, 'DD/MM/YYYY') }).toEqual({
      status,
      outOfDate,
      words,
    });
  });

  it('keeps the cell (matrix) status beside it: due and pending count as what the record says', () => {
    expect(courseStatus({ ...base, latest: null, dueBy: day(5) }).cell).toBe('missing');
    expect(courseStatus({ ...base, latest: pass(day(-3)), pending: true }).cell).toBe('expired');
    expect(courseStatus({ ...base, latest: pass(day(10)), cell: 'in_date' }).status).toBe('in_date');
  });

  it('a new starter is due by their start plus the new-starter period, and not after it', () => {
    expect(newStarterDueBy(day(-10), 90, NOW)).toBe(day(80).toISOString());
    expect(newStarterDueBy(day(-100), 90, NOW)).toBeNull();
  });

  it('a new requirement is due by its creation plus its grace period: due before, missing or expired after', () => {
    // Issue 33 §4: a course required from 10 days ago with 30 days to do it is due by day 20.
    const before = courseStatus({ ...base, latest: null, requirementDueAt: day(20) });
    expect(before).toMatchObject({
      status: 'due',
      outOfDate: false,
      cell: 'missing',
      date: day(20).toISOString(),
    });
    expect(courseStatusText(before)).toBe('Due by 05/07/2026');
    const after = courseStatus({ ...base, now: day(21), latest: null, requirementDueAt: day(20) });
    expect(after).toMatchObject({ status: 'missing', outOfDate: true });
    // An expired pass is out of date whatever the requirement's grace: the person had done it.
    expect(courseStatus({ ...base, latest: pass(day(-3)), requirementDueAt: day(20) }).status).toBe(
      'expired',
    );
    // The later of the new-starter period and the requirement's due date.
    expect(courseStatus({ ...base, latest: null, dueBy: day(5), requirementDueAt: day(20) }).date).toBe(
      day(20).toISOString(),
    );
    expect(courseStatus({ ...base, latest: null, dueBy: day(40), requirementDueAt: day(20) }).date).toBe(
      day(40).toISOString(),
    );
    expect(requirementDueBy(day(5), day(20), NOW)).toBe(day(20).toISOString());
    expect(requirementDueBy(null, day(20), NOW)).toBe(day(20).toISOString());
    expect(requirementDueBy(day(-5), day(-1), NOW)).toBeNull();
    expect(requirementDueBy(null, null, NOW)).toBeNull();
  });
});

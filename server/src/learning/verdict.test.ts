import { describe, expect, it } from 'vitest';
import { H5P_PASS_MARK, judgeOutcome, verdictFlag } from './verdict';

describe('judgeOutcome: one rule for every verdict', () => {
  it('an explicit verdict counts, whatever the score', () => {
    expect(judgeOutcome({ success: true }, 80)).toBe('passed');
    expect(judgeOutcome({ success: true, score: 10 }, 80)).toBe('passed');
    expect(judgeOutcome({ success: false }, 80)).toBe('failed');
    expect(judgeOutcome({ success: false, score: 100 }, 80)).toBe('failed');
  });

  it('a score without a verdict is judged against the pass mark (reaching it passes)', () => {
    expect(judgeOutcome({ score: 80 }, 80)).toBe('passed');
    expect(judgeOutcome({ score: 79.99 }, 80)).toBe('failed');
    expect(judgeOutcome({ success: null, score: 0 }, 80)).toBe('failed');
    expect(judgeOutcome({ score: 0 }, 0)).toBe('passed');
  });

  it('no score and no verdict is never a pass', () => {
    expect(judgeOutcome({}, 0)).toBe('unjudged');
    expect(judgeOutcome({ success: null, score: null }, 0)).toBe('unjudged');
    expect(judgeOutcome({ score: Number.NaN }, 0)).toBe('unjudged');
  });

  it('judges H5P items against full marks (H5P’s own convention for a question without a pass percentage)', () => {
    expect(H5P_PASS_MARK).toBe(100);
    expect(judgeOutcome({ score: 100 }, H5P_PASS_MARK)).toBe('passed');
    expect(judgeOutcome({ score: 75 }, H5P_PASS_MARK)).toBe('failed');
  });

  it('stores the verdict as true, false or null', () => {
    expect(verdictFlag('passed')).toBe(true);
    expect(verdictFlag('failed')).toBe(false);
    expect(verdictFlag('unjudged')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { H5P_PASS_MARK, h5pMustBePassed, judgeOutcome, verdictFlag } from './verdict';

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

describe('h5pMustBePassed: a graded H5P task completes its topic only by a pass', () => {
  it('reads the machine name of the main library, with or without its version', () => {
    expect(h5pMustBePassed('H5P.MultiChoice 1.16')).toBe(true);
    expect(h5pMustBePassed('H5P.Blanks')).toBe(true);
    expect(h5pMustBePassed('H5P.DragQuestion 1.14')).toBe(true);
    expect(h5pMustBePassed('H5P.TrueFalse 1.8')).toBe(true);
  });

  it('an item with nothing to pass (or no package) is completed by hand', () => {
    expect(h5pMustBePassed('H5P.Accordion 1.0')).toBe(false);
    expect(h5pMustBePassed('H5P.MultiChoiceX 1.0')).toBe(false);
    expect(h5pMustBePassed(null)).toBe(false);
    expect(h5pMustBePassed('')).toBe(false);
  });
});

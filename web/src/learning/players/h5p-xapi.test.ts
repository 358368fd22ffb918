import { describe, expect, it } from 'vitest';
import { h5pOutcomeOf, type XapiStatement } from './h5p-xapi';

const CID = 'abc-123';
const statement = (
  verb: string,
  result: XapiStatement['result'],
  extensions: Record<string, unknown> = {},
) => ({
  verb: { id: `http://adlnet.gov/expapi/verbs/${verb}` },
  object: { definition: { extensions: { 'http://h5p.org/x-api/h5p-local-content-id': CID, ...extensions } } },
  result,
});

describe('h5pOutcomeOf', () => {
  it('reads a completed statement: scaled score, success, completion', () => {
    expect(
      h5pOutcomeOf(
        statement('completed', { score: { scaled: 0.8, raw: 4, max: 5 }, success: true, completion: true }),
        CID,
      ),
    ).toEqual({ score_scaled: 0.8, success: true, completion: true });
  });

  it('derives the scaled score from raw/max and invents neither success nor completion (H5P.Blanks, H5P.DragText)', () => {
    expect(h5pOutcomeOf(statement('answered', { score: { raw: 1, max: 4 } }), CID)).toEqual({
      score_scaled: 0.25,
      success: null,
      completion: null,
    });
    // Fill in the blanks answered with 0 %: a score of 0 and no verdict, sent as such (the server judges it).
    expect(
      h5pOutcomeOf(statement('answered', { score: { min: 0, raw: 0, max: 4, scaled: 0 } }), CID),
    ).toEqual({ score_scaled: 0, success: null, completion: null });
    expect(h5pOutcomeOf(statement('completed', { score: { raw: 3, max: 3 } }), CID)).toEqual({
      score_scaled: 1,
      success: null,
      completion: true,
    });
  });

  it('keeps a failure', () => {
    expect(
      h5pOutcomeOf(statement('completed', { score: { scaled: 0.2 }, success: false }), CID)?.success,
    ).toBe(false);
  });

  it('ignores other verbs, other items, sub-content and statements without a result', () => {
    expect(h5pOutcomeOf(statement('interacted', { completion: true }), CID)).toBeNull();
    expect(h5pOutcomeOf(statement('completed', { success: true }), 'other')).toBeNull();
    expect(
      h5pOutcomeOf(
        statement('answered', { success: true }, { 'http://h5p.org/x-api/h5p-subContentId': 'q1' }),
        CID,
      ),
    ).toBeNull();
    expect(h5pOutcomeOf({ verb: { id: 'http://adlnet.gov/expapi/verbs/completed' } }, CID)).toBeNull();
    expect(h5pOutcomeOf(undefined, CID)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { arrayTextToJson } from './queries';

describe('arrayTextToJson', () => {
  it("turns int arrays' text into JSON arrays of ints and nulls", () => {
    expect(arrayTextToJson('{1,NULL,3},{},{-20321,NULL}')).toBe('[[1,null,3],[],[-20321,null]]');
    expect(JSON.parse(arrayTextToJson('{NULL},{12345678}'))).toEqual([[null], [12345678]]);
  });

  it('gives the same text as replacing each brace and NULL', () => {
    const columns = Array.from(
      { length: 12 },
      (_, c) =>
        `{${Array.from({ length: 500 }, (_, i) => ((i + c) % 7 === 0 ? 'NULL' : String(((i * 7919) % 100000) - 50))).join(',')}}`,
    );
    const text = columns.join(',');
    const expected = `[${text.replace(/\{/g, '[').replace(/\}/g, ']').replace(/NULL/g, 'null')}]`;
    expect(arrayTextToJson(text)).toBe(expected);
  });
});

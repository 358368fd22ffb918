import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NULL_INT, parseIntColumns } from './int-columns';

describe('parseIntColumns', () => {
  it('reads what JSON.parse reads, null as NULL_INT', () => {
    const column = fc.array(fc.option(fc.integer({ min: -2147483647, max: 2147483647 }), { nil: null }), {
      maxLength: 3000,
    });
    fc.assert(
      fc.property(fc.array(column, { maxLength: 9 }), (columns) => {
        const parsed = parseIntColumns(JSON.stringify(columns));
        expect(parsed.map((c) => Array.from(c))).toEqual(columns.map((c) => c.map((v) => v ?? NULL_INT)));
      }),
    );
  });

  it('reads the empty block and refuses a truncated one', () => {
    expect(parseIntColumns('[[],[],[]]').map((c) => c.length)).toEqual([0, 0, 0]);
    expect(() => parseIntColumns('[[1,2],[3')).toThrow(/unbalanced/);
  });
});

/** The stand-in for null in parsed int columns (the wire's ints are ids, codes, counts and day numbers). */
export const NULL_INT = -2147483648;

/**
 * Parses the cells wire's text ('[[1,2],[3,null],…]': columns of ints or null, see packages/contracts/src/matrix.ts)
 * into one Int32Array per column, null as NULL_INT. The exports read ~1.5M cells: JSON.parse would build eight JS
 * arrays per block that outlive V8's young generation and pile up as old-space garbage (the PDF's server grew by
 * ~280 MB); typed arrays live outside the JS heap and are freed with their block.
 */
export function parseIntColumns(text: string): Int32Array[] {
  const columns: Int32Array[] = [];
  let values = new Int32Array(1024);
  let length = 0;
  let depth = 0;
  let i = 0;
  const push = (v: number) => {
    if (length === values.length) {
      const grown = new Int32Array(values.length * 2);
      grown.set(values);
      values = grown;
    }
    values[length++] = v;
  };
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === 91 /* [ */) {
      depth++;
      if (depth === 2) length = 0;
      i++;
    } else if (ch === 93 /* ] */) {
      if (depth === 2) columns.push(values.slice(0, length));
      depth--;
      i++;
    } else if (ch === 110 /* n(ull) */) {
      push(NULL_INT);
      i += 4;
    } else if (ch === 45 /* - */ || (ch >= 48 && ch <= 57)) {
      const negative = ch === 45;
      if (negative) i++;
      let n = 0;
      for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) n = n * 10 + (c - 48);
      push(negative ? -n : n);
    } else {
      i++; // ',' and whitespace
    }
  }
  if (depth !== 0) throw new Error('parseIntColumns: unbalanced brackets');
  return columns;
}

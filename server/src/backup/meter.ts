import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';

/**
 * A pass-through that counts the bytes and the lines (COPY text has one line per row) of what crosses it and hashes
 * them (SHA-256): the backup records the figures, the restore checks them.
 */
export function meter() {
  const hash = createHash('sha256');
  const counted = { bytes: 0, lines: 0 };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      hash.update(chunk);
      counted.bytes += chunk.length;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) counted.lines += 1;
      next(null, chunk);
    },
  });
  return { stream, counted, digest: () => hash.digest('hex') };
}

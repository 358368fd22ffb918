import type { ByteRange } from '../storage/storage';

/**
 * One `Range: bytes=…` of RFC 9110 §14.1.2 against a file of `size` bytes: `start-end`, `start-` or `-suffix`.
 * Null when the header is not one single byte range (the whole file is sent, as the RFC allows); 'unsatisfiable'
 * when it starts past the end (416).
 */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (!from && !to) return null;
  if (size === 0) return 'unsatisfiable';
  if (!from) {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to ? Math.min(Number(to), size - 1) : size - 1;
  if (to && Number(to) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

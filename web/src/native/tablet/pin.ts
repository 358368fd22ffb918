/**
 * Tablet PINs (shared-tablet mode): 4 to 6 digits, kept only as a salted PBKDF2-SHA-256 hash. The iteration count
 * (OWASP's figure for PBKDF2-SHA-256) travels with each record so a later build can raise it.
 */
export const PIN_PATTERN = /^\d{4,6}$/;
export const PIN_ATTEMPTS = 5;
export const PBKDF2_ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

export interface PinRecord {
  salt: string;
  hash: string;
  iterations: number;
}

export function isValidPin(pin: string): boolean {
  return PIN_PATTERN.test(pin);
}

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function derive(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(pin), 'PBKDF2', false, [
    'deriveBits',
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPin(pin: string, iterations = PBKDF2_ITERATIONS): Promise<PinRecord> {
  if (!isValidPin(pin)) throw new Error('A tablet PIN is 4 to 6 digits');
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return { salt: toBase64(salt), hash: toBase64(await derive(pin, salt, iterations)), iterations };
}

/** Compares every byte whatever the first difference, so timing tells nothing about the stored hash. */
export async function pinMatches(pin: string, record: PinRecord): Promise<boolean> {
  if (!isValidPin(pin)) return false;
  const expected = fromBase64(record.hash);
  const actual = await derive(pin, fromBase64(record.salt), record.iterations);
  let difference = expected.length ^ actual.length;
  for (let i = 0; i < expected.length; i++) difference |= (expected[i] ?? 0) ^ (actual[i] ?? 0);
  return difference === 0;
}

/**
 * Package limits (issue 4 item 5). Read from the environment at call time so an operator can change them without a
 * code change (and a test can lower them):
 * - PACKAGE_MAX_BYTES: the uploaded file (compressed), default 200 MB;
 * - PACKAGE_MAX_UNCOMPRESSED_BYTES: the sum of the entries once extracted, default 1 GB;
 * - PACKAGE_MAX_ENTRIES: files and folders in the zip, default 10 000;
 * - PACKAGE_MAX_RATIO: uncompressed / compressed per entry (for entries over 1 MB), default 100 (zip bombs).
 */
export interface PackageLimits {
  maxBytes: number;
  maxUncompressedBytes: number;
  maxEntries: number;
  maxRatio: number;
}

const MB = 1024 * 1024;

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

export function packageLimits(env: NodeJS.ProcessEnv = process.env): PackageLimits {
  return {
    maxBytes: positive(env.PACKAGE_MAX_BYTES, 200 * MB),
    maxUncompressedBytes: positive(env.PACKAGE_MAX_UNCOMPRESSED_BYTES, 1024 * MB),
    maxEntries: positive(env.PACKAGE_MAX_ENTRIES, 10_000),
    maxRatio: positive(env.PACKAGE_MAX_RATIO, 100),
  };
}

/** Entries smaller than this are not ratio-checked (small text files compress well and are harmless). */
export const RATIO_CHECK_FROM_BYTES = MB;

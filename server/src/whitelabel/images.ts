/**
 * Image uploads are identified by their bytes, never by the name or the Content-Type the client sent: a file
 * called logo.png holding SVG or HTML could carry script. Only raster formats a browser renders inertly are
 * accepted (PNG, JPEG, GIF, WebP, ICO); SVG is refused on purpose.
 */
export interface ImageKind {
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp' | 'image/x-icon';
  ext: 'png' | 'jpg' | 'gif' | 'webp' | 'ico';
}

const startsWith = (bytes: Buffer, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function detectImage(bytes: Buffer): ImageKind | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')))
    return { mime: 'image/gif', ext: 'gif' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8))
    return { mime: 'image/webp', ext: 'webp' };
  // ICO: reserved 0, type 1, then at least one image entry.
  if (
    startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) &&
    bytes.length >= 6 &&
    (bytes[4] ?? 0) + (bytes[5] ?? 0) > 0
  )
    return { mime: 'image/x-icon', ext: 'ico' };
  return null;
}

/** Content types the file route may answer with; anything else is served as an opaque download type. */
export const SERVABLE_IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
]);

/** A filename safe inside a quoted Content-Disposition value (no quotes, slashes, control or non-ASCII chars). */
export function safeFilename(name: string, fallbackExt: string): string {
  const base = name
    .replace(/^.*[\\/]/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return base || `file.${fallbackExt}`;
}

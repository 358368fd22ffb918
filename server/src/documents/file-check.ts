import { DOCUMENT_MAX_BYTES, DOCUMENT_MIME_TYPES, DocumentMessages as M } from '@cc/contracts';
import { invalidField } from '../http/errors';
import { detectEvidence, type EvidenceUpload } from '../results/evidence';
import { safeFilename } from '../whitelabel/images';

/**
 * What an uploaded document is, decided by its bytes (never its name or the browser's claim): the evidence checker's
 * PDF, PNG and JPEG (results/evidence.ts, the one upload checker) plus WebP and the office formats of
 * DOCUMENT_MIME_TYPES. Office files are containers: OOXML and OpenDocument are ZIP archives told apart by the part
 * names they must hold (stored uncompressed in the archive's headers); the old Word and Excel formats are OLE2
 * compound files told apart by their stream names (UTF-16 in the directory). Anything else is refused, so an HTML
 * file renamed .pdf never gets in.
 */
export type DocumentMime = keyof typeof DOCUMENT_MIME_TYPES;
export interface DocumentKind {
  mime: DocumentMime;
  ext: string;
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const has = (b: Buffer, name: string, encoding: BufferEncoding = 'latin1') =>
  b.includes(Buffer.from(name, encoding));

function zipKind(b: Buffer): DocumentKind | null {
  // OpenDocument: the first entry is the uncompressed "mimetype" file naming the type.
  if (b.subarray(30, 38).toString('latin1') === 'mimetype') {
    return b.subarray(38, 38 + 39).toString('latin1') === 'application/vnd.oasis.opendocument.text'
      ? { mime: 'application/vnd.oasis.opendocument.text', ext: 'odt' }
      : null;
  }
  if (!has(b, '[Content_Types].xml')) return null;
  if (has(b, 'word/document.xml'))
    return { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx' };
  if (has(b, 'xl/workbook.xml'))
    return { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx' };
  if (has(b, 'ppt/presentation.xml'))
    return { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx' };
  return null;
}

function oleKind(b: Buffer): DocumentKind | null {
  if (has(b, 'WordDocument', 'utf16le')) return { mime: 'application/msword', ext: 'doc' };
  if (has(b, 'Workbook', 'utf16le') || has(b, 'Book', 'utf16le'))
    return { mime: 'application/vnd.ms-excel', ext: 'xls' };
  return null;
}

/** The document's kind by its bytes, or null when it is not one of DOCUMENT_MIME_TYPES. */
export function detectDocument(bytes: Buffer): DocumentKind | null {
  const evidence = detectEvidence(bytes);
  if (evidence) return { mime: evidence.mime, ext: evidence.ext };
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return { mime: 'image/webp', ext: 'webp' };
  if (bytes.subarray(0, 4).equals(ZIP)) return zipKind(bytes);
  if (bytes.subarray(0, 8).equals(OLE2)) return oleKind(bytes);
  return null;
}

/** Checks the upload: 422 on `file` when missing, too big or not a document. Returns its kind. */
export function checkDocumentFile(upload: EvidenceUpload | null): DocumentKind {
  if (!upload) throw invalidField('file', M.fileMissing);
  if (upload.truncated || upload.bytes.length > DOCUMENT_MAX_BYTES)
    throw invalidField('file', M.fileTooLarge);
  const kind = detectDocument(upload.bytes);
  if (!kind) throw invalidField('file', M.fileType);
  return kind;
}

/** The stored name: the uploaded name made safe, with the extension of what the bytes are. */
export function documentFilename(name: string, kind: DocumentKind): string {
  const base = safeFilename(name, kind.ext).replace(/\.[A-Za-z0-9]{1,8}$/, '');
  return `${base || 'document'}.${kind.ext}`;
}

/** How /document/{id} shows a type: in the page, or as a download for the person's own application. */
export const displayOf = (mime: string): 'inline' | 'download' =>
  DOCUMENT_MIME_TYPES[mime as DocumentMime] ?? 'download';

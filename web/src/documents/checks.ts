import { CheckQuestion, DOCUMENT_MAX_BYTES, DocumentMessages } from '@cc/contracts';
import type { FieldErrors } from '../entities/shared';

/**
 * The upload form's checks, run before anything is sent so a person is told at once (the server checks the same
 * again by the file's bytes: these only save a wasted upload of a 25 MB file of the wrong kind).
 */

/** The file picker's filter: the types of contracts DOCUMENT_MIME_TYPES, with their extensions for old browsers. */
export const DOCUMENT_ACCEPT = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  '.pdf',
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.docx',
  '.xlsx',
  '.pptx',
  '.doc',
  '.xls',
  '.odt',
].join(',');

type Kind = 'pdf' | 'png' | 'jpeg' | 'webp' | 'zip-office' | 'ole-office';

/** Each extension and the signature its bytes must start with (office XML and ODF files are ZIP archives). */
const KIND_BY_EXTENSION: Record<string, Kind> = {
  pdf: 'pdf',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  webp: 'webp',
  docx: 'zip-office',
  xlsx: 'zip-office',
  pptx: 'zip-office',
  odt: 'zip-office',
  doc: 'ole-office',
  xls: 'ole-office',
};

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((b, i) => bytes[at + i] === b);

/** What the first bytes say the file is (null: none of the kinds taken). */
export function kindOfBytes(bytes: Uint8Array): Kind | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // %PDF-
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp'; // RIFF....WEBP
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return 'zip-office'; // PK\3\4
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole-office';
  return null;
}

const extensionOf = (name: string) => name.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1] ?? '';

async function headOf(file: Blob): Promise<Uint8Array> {
  const head = file.slice(0, 16);
  // Blob#arrayBuffer is missing on some old engines; FileReader is everywhere.
  if (typeof head.arrayBuffer === 'function') return new Uint8Array(await head.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(head);
  });
}

/**
 * The file's problem in the contract's words, or null when it may be sent: chosen, at most 25 MB, a PDF, office
 * file or image by its name AND its first bytes (a renamed file is refused here as the server would refuse it).
 */
export async function checkDocumentFile(file: File | null): Promise<string | null> {
  if (!file) return DocumentMessages.fileMissing;
  if (file.size > DOCUMENT_MAX_BYTES) return DocumentMessages.fileTooLarge;
  const expected = KIND_BY_EXTENSION[extensionOf(file.name)];
  if (!expected) return DocumentMessages.fileType;
  const actual = kindOfBytes(await headOf(file));
  return actual === expected ? null : DocumentMessages.fileType;
}

/** "2.4 MB", "310 KB": the size shown beside a chosen file and in the history. */
export function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

// --- The check question -----------------------------------------------------------------------------------------

/** The check question as the form holds it: optional, 2–6 answers, one marked right (null until chosen). */
export interface QuestionDraft {
  enabled: boolean;
  question: string;
  options: string[];
  correct: number | null;
}

export const EMPTY_QUESTION: QuestionDraft = {
  enabled: false,
  question: '',
  options: ['', ''],
  correct: null,
};
export const MAX_OPTIONS = 6;
export const MIN_OPTIONS = 2;

export function draftOf(q: CheckQuestion | null | undefined): QuestionDraft {
  return q
    ? { enabled: true, question: q.question, options: [...q.options], correct: q.correct }
    : EMPTY_QUESTION;
}

/**
 * The draft as the contract's CheckQuestion, or its field errors: `question`, `options.N` (an empty answer) and
 * `correct` (none chosen). A switched-off question is `null` (the document has none).
 */
export function questionOf(
  draft: QuestionDraft,
): { ok: true; value: CheckQuestion | null } | { ok: false; errors: FieldErrors } {
  if (!draft.enabled) return { ok: true, value: null };
  const errors: FieldErrors = {};
  const parsed = CheckQuestion.safeParse({
    question: draft.question,
    options: draft.options,
    correct: draft.correct ?? -1,
  });
  if (parsed.success) return { ok: true, value: parsed.data };
  for (const issue of parsed.error.issues) {
    const key =
      issue.path[0] === 'options' && issue.path.length > 1
        ? `options.${String(issue.path[1])}`
        : String(issue.path[0] ?? 'question');
    errors[key] = [key === 'correct' ? 'Choose the right answer.' : issue.message];
  }
  return { ok: false, errors };
}

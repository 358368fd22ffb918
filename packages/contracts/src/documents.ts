import { z } from 'zod';
import { EntityRef, PersonRef } from './bookings';
import { PageQuery } from './common';

/**
 * Documents and libraries (issue 17; spec 2 §1, §2, §7; permission category "libraries", ids 134–136 are ours).
 *
 * Model:
 * - A **library** belongs to an organisation and is visible to it and its children.
 * - A **document** (PDF, office file or image; checked by its bytes like every upload; stored through the storage
 *   interface) sits in a library and has **versions**; the latest version is current. `/document/{id}` shows the
 *   current version: PDFs and images inline in a sandboxed frame served with `Content-Security-Policy: sandbox` and
 *   `nosniff` (never as HTML from the app's origin), office files as a download.
 * - **Read and acknowledge**: each document is backed by a course (courses.kind 'document'), so it is required
 *   for job roles exactly like a course (compliance rules: Mandatory or Required) and appears as a matrix column,
 *   in the compliance report, in the learner's to-do list and in the inspection pack (policy receipts). A person
 *   acknowledges the current version (typed name, date, version), after opening it and, if the document has a
 *   check question, answering it right; that records a result of type `document` on the backing course that never
 *   expires by itself. A new version expires every earlier acknowledgement's result at once, with its "what
 *   changed" note: people are asked again. Only the related work is gated (a pathway step, the matrix cell).
 *
 * Who may do what (a super admin passes every check; "in scope" = the library's organisation is the actor's, an
 * ancestor of it (shared down), or, with acting-as/deep scope, below it; out of scope = 404):
 * - everyone: open and acknowledge documents required of them, and any document in a library they can see.
 * - `view` (134): list libraries and their documents.
 * - `manage` (135): create, rename and delete libraries; upload documents and new versions; edit titles and the
 *   check question; set the roles that must read a document.
 * - `acknowledgements` (136): see who has and has not acknowledged a document.
 */
export const LibraryPerm = { view: 134, manage: 135, acknowledgements: 136 } as const;

/** What a document may be, by its bytes (the upload check), and how /document/{id} shows it. */
export const DOCUMENT_MIME_TYPES = {
  'application/pdf': 'inline',
  'image/png': 'inline',
  'image/jpeg': 'inline',
  'image/webp': 'inline',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'download',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'download',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'download',
  'application/msword': 'download',
  'application/vnd.ms-excel': 'download',
  'application/vnd.oasis.opendocument.text': 'download',
} as const;
export const DOCUMENT_MAX_BYTES = 25 * 1024 * 1024;

export const DOCUMENT_STATUSES = ['not_required', 'to_read', 'acknowledged', 'new_version'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const DocumentMessages = {
  libraryCreated: 'Library created.',
  libraryUpdated: 'Library updated.',
  libraryDeleted: 'Library deleted.',
  documentCreated: 'Document added.',
  documentUpdated: 'Document updated.',
  documentDeleted: 'Document deleted.',
  versionAdded: 'New version published: staff will be asked to read it again.',
  acknowledged: 'Thank you: your acknowledgement is recorded.',
  requirementsSaved: 'Saved: these job roles must read this document.',
  reminded: (n: number) =>
    n === 0
      ? 'Nobody to remind: everyone has read it, or was reminded today.'
      : `Reminder sent to ${n} ${n === 1 ? 'person' : 'people'} who have not read it.`,
  // Refusals.
  libraryNotEmpty: 'This library still has documents: delete or move them first.',
  fileType: 'Upload a PDF, an office document or an image.',
  fileTooLarge: 'The file is larger than 25 MB.',
  fileMissing: 'Choose a file.',
  openFirst: 'Open the document before acknowledging it.',
  wrongAnswer: 'That is not the right answer: read the document again.',
  alreadyAcknowledged: 'You have already acknowledged this version.',
  nameMismatch: 'Type your name as it appears on your account.',
  newerVersion: 'A newer version has been published: open it and read it before acknowledging.',
  chooseAnswer: 'Choose an answer.',
} as const;

const text = (max: number) => z.string().trim().max(max);
const id = z.number().int().positive().max(2147483647);

export const CheckQuestion = z
  .object({
    question: text(500).min(1, 'Enter the question.'),
    options: z.array(text(200).min(1, 'Enter the answer.')).min(2, 'Give at least two answers.').max(6),
    correct: z.number().int().min(0),
  })
  .refine((q) => q.correct < q.options.length, { path: ['correct'], message: 'Choose the right answer.' });
export type CheckQuestion = z.infer<typeof CheckQuestion>;

// --- Libraries --------------------------------------------------------------------------------------------------

export const CreateLibraryBody = z.object({
  /** The owning organisation's slug (default: the actor's, or the acting-as one). */
  entity: z.string().max(120).optional(),
  name: text(200).min(1, 'Enter a name.'),
  description: text(2000).nullish(),
});
export const UpdateLibraryBody = z.object({
  name: text(200).min(1, 'Enter a name.').optional(),
  description: text(2000).nullish(),
});
export const LibraryListQuery = PageQuery.extend({ entity: z.string().max(120).optional() });

export const LibraryView = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  entity: EntityRef,
  document_count: z.number(),
  updated_at: z.string(),
  can: z.object({ manage: z.boolean() }),
});
export type LibraryView = z.infer<typeof LibraryView>;

// --- Documents --------------------------------------------------------------------------------------------------

/** Multipart fields of POST /libraries/{id}/documents (with `file`). */
export const CreateDocumentFields = z.object({
  title: text(200).min(1, 'Enter a title.'),
  description: text(2000).nullish(),
  /** JSON of CheckQuestion, optional. */
  check_question: z.string().max(5000).nullish(),
});
export const UpdateDocumentBody = z.object({
  title: text(200).min(1, 'Enter a title.').optional(),
  description: text(2000).nullish(),
  check_question: CheckQuestion.nullish(),
});
/** Multipart fields of POST /documents/{id}/versions (with `file`). */
export const AddVersionFields = z.object({ change_note: text(2000).min(1, 'Say what changed.') });
export const AcknowledgeBody = z.object({
  typed_name: text(200).min(1, 'Type your name.'),
  /** The chosen option's index, when the document has a check question. */
  answer: z.number().int().min(0).max(5).nullish(),
  /** The version read (refused with 409 when a newer one was published meanwhile). */
  version: z.number().int().positive(),
});
/** PUT /documents/{id}/requirements: which job roles of an organisation must read it, and how. */
export const DocumentRequirementsBody = z.object({
  entity: z.string().max(120),
  role_ids: z.array(id).max(500),
  type: z.enum(['primary', 'secondary']).default('primary'),
  /** Days a newly required role has to read it (issue 33 §4); default: the organisation's new_requirement_days. */
  grace_days: z
    .number()
    .int('The days to read it must be a whole number between 0 and 365.')
    .min(0, 'The days to read it must be a whole number between 0 and 365.')
    .max(365, 'The days to read it must be a whole number between 0 and 365.')
    .optional(),
});
/** POST /documents/{id}/remind's data: how many people were reminded now (those reminded today already are not). */
export const RemindResult = z.object({ reminded: z.number() });
export type RemindResult = z.infer<typeof RemindResult>;
export const DocumentListQuery = PageQuery.extend({});
/** GET /documents/{id}/versions/{number}/file. */
export const DocumentVersionParams = z.object({
  id: z.coerce.number().int().positive(),
  number: z.coerce.number().int().positive(),
});
export const AcknowledgementListQuery = PageQuery.extend({
  status: z.enum(['acknowledged', 'outstanding']).optional(),
  entity: z.string().max(120).optional(),
});

export const DocumentVersionView = z.object({
  id: z.number(),
  number: z.number(),
  change_note: z.string().nullable(),
  file_name: z.string(),
  mime_type: z.string(),
  size_bytes: z.number(),
  /** 'inline': shown in the page; 'download': opened by the person's own application. */
  display: z.enum(['inline', 'download']),
  /** Same-origin path of the file (served with CSP sandbox, nosniff; inline or as an attachment). */
  file_url: z.string(),
  created_by: PersonRef.nullable(),
  created_at: z.string(),
});
export type DocumentVersionView = z.infer<typeof DocumentVersionView>;

export const DocumentSummary = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  library: z.object({ id: z.number(), name: z.string() }),
  entity: EntityRef,
  /** The backing course (matrix column, compliance rules, the `document` result). */
  course_id: z.number(),
  version: z.number(),
  updated_at: z.string(),
  /** The caller's own state for this document. */
  my_status: z.enum(DOCUMENT_STATUSES),
});
export type DocumentSummary = z.infer<typeof DocumentSummary>;

export const DocumentView = DocumentSummary.extend({
  current: DocumentVersionView,
  versions: z.array(DocumentVersionView),
  /** The question without its answer (the answer is checked on the server). */
  check_question: z.object({ question: z.string(), options: z.array(z.string()) }).nullable(),
  my_acknowledgement: z
    .object({ version: z.number(), typed_name: z.string(), acknowledged_at: z.string() })
    .nullable(),
  /** Job roles that must read it (through compliance rules on the backing course). */
  required_for: z.array(
    z.object({
      entity: EntityRef,
      role: z.object({ id: z.number(), name: z.string() }),
      type: z.enum(['primary', 'secondary']),
    }),
  ),
  can: z.object({ manage: z.boolean(), acknowledgements: z.boolean() }),
});
export type DocumentView = z.infer<typeof DocumentView>;

/** Full fields for managers (check question with its answer). */
export const DocumentAdminView = DocumentView.extend({ check_question_full: CheckQuestion.nullable() });

export const AcknowledgementRow = z.object({
  user: PersonRef,
  entity: EntityRef,
  role: z.string().nullable(),
  /** Latest acknowledgement, of any version. */
  acknowledged_version: z.number().nullable(),
  acknowledged_at: z.string().nullable(),
  current: z.boolean(),
});
export type AcknowledgementRow = z.infer<typeof AcknowledgementRow>;

/** A required document in the learner's to-do list (GET /documents/mine). */
export const MyDocument = z.object({
  id: z.number(),
  title: z.string(),
  version: z.number(),
  status: z.enum(DOCUMENT_STATUSES),
  change_note: z.string().nullable(),
  type: z.enum(['primary', 'secondary']),
});
export type MyDocument = z.infer<typeof MyDocument>;

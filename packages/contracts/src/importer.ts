import { z } from 'zod';
import { PageQuery, queryBool } from './common';

/**
 * The importer (issue 18; permissions 99 importer logs, 100 resolve importer logs; route /importer/logs).
 *
 * An import is a CSV of people (`users`) or of training records (`training`). Every import is first a **plan**:
 * each row is classified create / update / unchanged or has errors, keyed on a stable id (the employee number when
 * given, else the e-mail address), so the same file twice changes nothing. Applying runs as a background job in
 * batches; an applied import can be undone as a whole.
 *
 * Who may do what (a super admin passes every check; out of scope = 404):
 * - 99: see the logs, plan, apply and undo imports made in their scope; people rows also need 3 (add user) to create
 *   and 18 (update user) to change a person (4 / 5 to change a job role / user type), training rows need 26 (add
 *   record). A user type may only be given when its permissions are all held by the importer.
 * - 100: resolve a row error with a note.
 */
export const ImporterPerm = { logs: 99, resolve: 100 } as const;

export const IMPORT_KINDS = ['users', 'training'] as const;
export const ImportKind = z.enum(IMPORT_KINDS);
export type ImportKind = z.infer<typeof ImportKind>;
export const IMPORT_STATUSES = [
  'planning',
  'planned',
  'applying',
  'applied',
  'failed',
  'undoing',
  'undone',
] as const;
export const ImportStatus = z.enum(IMPORT_STATUSES);
export type ImportStatus = z.infer<typeof ImportStatus>;
export const IMPORT_ACTIONS = ['create', 'update', 'unchanged'] as const;
export const ImportAction = z.enum(IMPORT_ACTIONS);
export type ImportAction = z.infer<typeof ImportAction>;

/** The CSV columns of each kind, in template order (docs/importing.md). */
export const IMPORT_COLUMNS = {
  users: ['name', 'email', 'employee_number', 'organisation', 'job_role', 'user_type', 'start_date'],
  training: [
    'email',
    'employee_number',
    'course',
    'completed_date',
    'expiry_date',
    'certificate_number',
    'provider',
    'notes',
  ],
} as const satisfies Record<ImportKind, readonly string[]>;

/** Largest CSV accepted (bytes). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

export const ImporterMessages = {
  planned: 'The file has been checked. Review the plan, then apply it.',
  planning: 'The file is being checked. This page updates when the plan is ready.',
  applying: 'The import is being applied.',
  undoing: 'The import is being undone.',
  resolved: 'The error has been marked as resolved.',
  notPlanned: 'Only a planned import that has not been applied can be applied.',
  notUndoable: 'Only an applied import can be undone.',
  alreadyResolved: 'This error has already been resolved.',
  fileRequired: 'Choose a CSV file to upload.',
  fileTooBig: 'The file is larger than 50 MB.',
  notCsv: 'The file could not be read as CSV.',
  noRows: 'The file has no rows under its header.',
} as const;

export const ImportUuidParams = z.object({ uuid: z.string().uuid() });
export const ImportErrorParams = z.object({
  uuid: z.string().uuid(),
  id: z.coerce.number().int().positive(),
});

export const ImportListQuery = PageQuery.extend({
  kind: ImportKind.optional(),
  status: ImportStatus.optional(),
  /** Only runs with errors not yet resolved. */
  unresolved: queryBool.optional(),
});
export type ImportListQuery = z.infer<typeof ImportListQuery>;

export const ImportRowsQuery = PageQuery.extend({ action: ImportAction.optional() });
export type ImportRowsQuery = z.infer<typeof ImportRowsQuery>;

export const ImportErrorsQuery = PageQuery.extend({ unresolved: queryBool.optional() });
export type ImportErrorsQuery = z.infer<typeof ImportErrorsQuery>;

export const ResolveImportErrorBody = z.object({
  note: z.string().trim().min(1, 'Enter a note saying how the error was resolved.').max(2000),
});
export type ResolveImportErrorBody = z.infer<typeof ResolveImportErrorBody>;

/** The multipart fields of POST /importer/imports (the file is the part `file`). */
export const PlanImportFields = z.object({ kind: ImportKind });

const PersonRef = z.object({ id: z.number(), name: z.string() });

export const ImportView = z.object({
  uuid: z.string(),
  kind: ImportKind,
  file_name: z.string(),
  status: ImportStatus,
  failure: z.string().nullable(),
  counts: z.object({
    rows: z.number(),
    create: z.number(),
    update: z.number(),
    unchanged: z.number(),
    errors: z.number(),
    unresolved_errors: z.number(),
    created: z.number(),
    updated: z.number(),
    kept: z.number(),
  }),
  progress: z.object({ done: z.number(), total: z.number().nullable() }).nullable(),
  created_by: PersonRef.nullable(),
  entity: z.object({ id: z.number(), name: z.string() }),
  created_at: z.string(),
  planned_at: z.string().nullable(),
  applied_at: z.string().nullable(),
  undone_at: z.string().nullable(),
  /** Planning plus applying, in milliseconds. */
  duration_ms: z.number().nullable(),
});
export type ImportView = z.infer<typeof ImportView>;

export const ImportRowView = z.object({
  row_number: z.number(),
  action: ImportAction,
  /** What the row is about, in words (a person's name and e-mail, or the person and course). */
  label: z.string(),
  values: z.record(z.string(), z.string().nullable()),
  changes: z
    .record(z.string(), z.object({ from: z.string().nullable(), to: z.string().nullable() }))
    .nullable(),
});
export type ImportRowView = z.infer<typeof ImportRowView>;

export const ImportErrorView = z.object({
  id: z.number(),
  row_number: z.number(),
  column: z.string(),
  message: z.string(),
  values: z.record(z.string(), z.string()),
  resolved_at: z.string().nullable(),
  resolved_by: PersonRef.nullable(),
  note: z.string().nullable(),
});
export type ImportErrorView = z.infer<typeof ImportErrorView>;

/** The preview: counts (in ImportView) and the first rows of each action. */
export const ImportPreview = z.object({
  import: ImportView,
  rows: z.object({
    create: z.array(ImportRowView),
    update: z.array(ImportRowView),
    unchanged: z.array(ImportRowView),
  }),
  errors: z.array(ImportErrorView),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

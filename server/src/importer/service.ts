import { Readable } from 'node:stream';
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_BYTES,
  type ImportErrorsQuery,
  type ImportErrorView,
  ImporterPerm,
  type ImportKind,
  type ImportListQuery,
  type ImportPreview,
  type ImportRowsQuery,
  type ImportRowView,
  type ImportView,
  ImporterMessages as M,
  Perm,
  PlanImportFields,
  ResolveImportErrorBody,
  ResultsPerm,
} from '@cc/contracts';
import type { FastifyRequest } from 'fastify';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { conflict, forbidden, invalidField, notFound, parseInput } from '../http/errors';
import { assertCleanInput } from '../http/input-guard';
import { enqueue } from '../jobs/queue';
import { newKey } from '../storage/storage';
import { failTask, startTask } from '../tasks/service';
import { csvLine } from './csv';
import { HeaderError, planFile } from './plan';
import {
  type ErrorRow,
  errorSelect,
  findImport,
  type ImportRow,
  importJobAlive,
  listErrors,
  listImports,
  listPlanRows,
  lockImportForPhase,
} from './queries';

/**
 * The importer's service (contracts importer.ts): plan (upload), apply, undo, the logs, errors and their resolution.
 * REST (routes.ts) and GraphQL (graphql/importer.ts) call these. Order of checks: the import in scope (404), the
 * permission (403), the input (422), the state (409).
 */

/** Files up to this size are planned in the request (the answer carries the plan); bigger ones by a job. */
export const INLINE_PLAN_BYTES = 256 * 1024;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** What a kind needs besides 99: people rows need add (3) or change (18) people; training rows need 26. */
export function assertKindPermission(ctx: Ctx, kind: ImportKind) {
  const actor = authorize(ctx, [ImporterPerm.logs]);
  const ok =
    kind === 'users'
      ? can(actor, [Perm.addUser, Perm.updateUser], 'any')
      : can(actor, [ResultsPerm.addRecord]);
  if (!ok) throw forbidden();
  return actor;
}

export function presentImport(r: ImportRow): ImportView {
  const busy = r.status === 'planning' || r.status === 'applying' || r.status === 'undoing';
  return {
    uuid: r.uuid,
    kind: r.kind,
    file_name: r.file_name,
    status: r.status,
    failure: r.failure,
    counts: {
      rows: r.total_rows,
      create: r.create_count,
      update: r.update_count,
      unchanged: r.unchanged_count,
      errors: r.error_count,
      unresolved_errors: Number(r.unresolved_errors ?? 0),
      created: r.created_count,
      updated: r.updated_count,
      kept: r.kept_count,
    },
    progress:
      busy && r.progress_done !== null ? { done: r.progress_done, total: r.progress_total ?? null } : null,
    created_by: r.created_by !== null ? { id: r.created_by, name: r.created_by_name ?? '' } : null,
    entity: { id: r.entity_id, name: r.entity_name },
    created_at: new Date(r.created_at).toISOString(),
    planned_at: iso(r.planned_at),
    applied_at: iso(r.applied_at),
    undone_at: iso(r.undone_at),
    duration_ms: r.plan_ms === null && r.apply_ms === null ? null : (r.plan_ms ?? 0) + (r.apply_ms ?? 0),
  };
}

/** The header cells in the file's order (then any other key), as jsonb keeps object keys sorted its own way. */
function ordered(headers: string[], values: Record<string, unknown>): string[] {
  return [...headers, ...Object.keys(values).filter((k) => !headers.includes(k))];
}
const inOrder = <T>(headers: string[], values: Record<string, T>) =>
  Object.fromEntries(ordered(headers, values).map((k) => [k, values[k] ?? ('' as T)]));

function presentError(r: ErrorRow, headers: string[]): ImportErrorView {
  return {
    id: r.id,
    row_number: r.row_number,
    column: r.column_name,
    message: r.message,
    values: inOrder(headers, r.row_values),
    resolved_at: iso(r.resolved_at),
    resolved_by: r.resolved_by !== null ? { id: r.resolved_by, name: r.resolved_by_name ?? '' } : null,
    note: r.resolution_note,
  };
}

function presentRow(
  r: { row_number: number; action: ImportRowView['action']; data: unknown; changes: unknown },
  headers: string[],
): ImportRowView {
  const data = r.data as { label: string; values: Record<string, string> };
  return {
    row_number: r.row_number,
    action: r.action,
    label: data.label,
    values: inOrder(headers, data.values),
    changes: (r.changes as ImportRowView['changes']) ?? null,
  };
}

/** An import in the caller's scope (404 otherwise, the same as a missing one). */
export async function loadImport(ctx: Ctx, uuid: string): Promise<ImportRow> {
  actorOf(ctx);
  const row = /^[0-9a-f-]{36}$/i.test(uuid) ? await findImport(ctx.db, uuid.toLowerCase()) : undefined;
  if (!row || !inScope(await entityScope(ctx), row.entity_id)) throw notFound();
  return row;
}

async function reload(ctx: Ctx, uuid: string) {
  const row = await findImport(ctx.db, uuid);
  if (!row) throw notFound();
  return presentImport(row);
}

// ------------------------------------------------------------------------------------------------------ plan

export interface UploadedCsv {
  kind: unknown;
  fileName: string;
  storageKey: string;
  size: number;
  truncated: boolean;
}

/**
 * Reads POST /importer/imports: the `kind` field and the CSV part `file`, streamed to storage as it arrives (up to
 * 50 MB) so the request never holds the file in memory.
 */
export async function readImportUpload(ctx: Ctx, request: FastifyRequest): Promise<UploadedCsv | null> {
  // Who may upload is known before a byte of the file is read (401, then 403).
  authorize(ctx, [ImporterPerm.logs]);
  if (!request.isMultipart()) return null;
  const fields: Record<string, unknown> = {};
  let upload: UploadedCsv | null = null;
  const options = { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 10 } } as Parameters<
    FastifyRequest['parts']
  >[0];
  for await (const part of request.parts(options)) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || upload) {
        await part.toBuffer().catch(() => undefined);
        continue;
      }
      const key = newKey('imports', 'csv');
      const size = await ctx.storage.write(key, part.file, 'text/csv');
      upload = {
        kind: undefined,
        fileName: part.filename || 'import.csv',
        storageKey: key,
        size,
        truncated: part.file.truncated,
      };
    } else fields[part.fieldname] = part.value;
  }
  assertCleanInput(fields);
  if (upload) upload.kind = fields.kind;
  else if (fields.kind !== undefined)
    return { kind: fields.kind, fileName: '', storageKey: '', size: 0, truncated: false };
  return upload;
}

/**
 * POST /importer/imports (99 and the kind's permission): records the import and plans it: in the request for a
 * small file, else in a background job with a task (the answer is the import, status `planning`).
 */
export async function planImport(ctx: Ctx, upload: UploadedCsv | null): Promise<ImportView> {
  const discard = async () => {
    if (upload?.storageKey) await ctx.storage.remove(upload.storageKey).catch(() => undefined);
  };
  try {
    actorOf(ctx);
    authorize(ctx, [ImporterPerm.logs]);
    const { kind } = parseInput(PlanImportFields, { kind: upload?.kind });
    const actor = assertKindPermission(ctx, kind);
    if (!upload?.storageKey || upload.size === 0) throw invalidField('file', M.fileRequired);
    if (upload.truncated) throw invalidField('file', M.fileTooBig);
    const scope = await entityScope(ctx);
    const large = upload.size > INLINE_PLAN_BYTES;
    const imp = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('imports')
        .values({
          entity_id: scope.baseId,
          created_by: actor.userId,
          kind,
          file_name: upload.fileName.slice(0, 255),
          storage_key: upload.storageKey,
          task_id: null,
          failure: null,
          plan_ms: null,
          apply_ms: null,
          applied_by: null,
          undone_by: null,
          planned_at: null,
          applied_at: null,
          undone_at: null,
        })
        .returning(['id', 'uuid'])
        .executeTakeFirstOrThrow();
      if (large) {
        const task = await startTask(trx, {
          userId: actor.userId,
          entityId: scope.baseId,
          kind: 'import',
          title: `Checking ${upload.fileName}`,
        });
        const jobId = await enqueue(trx, 'importer.plan', { importId: row.id });
        await trx.updateTable('tasks').set({ job_id: jobId }).where('id', '=', task.id).execute();
        await trx.updateTable('imports').set({ task_id: task.id }).where('id', '=', row.id).execute();
      }
      return row;
    });
    if (!large) {
      await runPlan(ctx, imp.id);
      const done = await findImport(ctx.db, imp.uuid);
      // A file that cannot be planned at all (not CSV, a missing column) is the upload's 422; nothing is kept.
      if (done?.status === 'failed') {
        await ctx.db.deleteFrom('imports').where('id', '=', imp.id).execute();
        throw invalidField('file', done.failure ?? M.notCsv);
      }
    }
    return reload(ctx, imp.uuid);
  } catch (error) {
    await discard();
    throw error;
  }
}

/** Plans an import from its stored file (the request for small files, the job for big ones). */
export async function runPlan(ctx: Ctx, importId: number, onProgress?: (done: number) => Promise<void>) {
  const imp = await ctx.db
    .selectFrom('imports')
    .selectAll()
    .where('id', '=', importId)
    .executeTakeFirstOrThrow();
  if (imp.status !== 'planning' || !imp.storage_key) return;
  const started = Date.now();
  // A retried job starts over: what an earlier attempt wrote is dropped first.
  await ctx.db.deleteFrom('import_rows').where('import_id', '=', importId).execute();
  await ctx.db.deleteFrom('import_errors').where('import_id', '=', importId).execute();
  const file = await ctx.storage.read(imp.storage_key);
  if (!file) throw new Error('The uploaded file is missing.');
  try {
    const counts = await planFile(ctx, imp, file.body, async (c) => {
      if (onProgress) await onProgress(c.rows);
    });
    await ctx.db
      .updateTable('imports')
      .set({
        status: 'planned',
        headers: JSON.stringify(counts.headers),
        total_rows: counts.rows,
        create_count: counts.create,
        update_count: counts.update,
        unchanged_count: counts.unchanged,
        error_count: counts.errors,
        planned_at: ctx.clock(),
        plan_ms: Date.now() - started,
        updated_at: ctx.clock(),
        storage_key: null,
      })
      .where('id', '=', importId)
      .execute();
  } catch (error) {
    if (!(error instanceof HeaderError)) throw error;
    await ctx.db
      .updateTable('imports')
      .set({ status: 'failed', failure: error.message, updated_at: ctx.clock(), storage_key: null })
      .where('id', '=', importId)
      .execute();
  } finally {
    file.body.destroy();
  }
  await ctx.storage.remove(imp.storage_key).catch(() => undefined);
}

// ------------------------------------------------------------------------------------------- apply and undo

/** Where a phase may start: apply a plan; undo an applied import or a failed apply (applied_by set). */
const PHASE_FROM = { apply: ['planned'], undo: ['applied', 'failed'] } as const;
/** A phase whose job died (failed for good, or pruned) left the import here: it may be resumed or undone. */
const STALLED_FROM = { apply: ['applying'], undo: ['applying', 'undoing'] } as const;
const STALLED_TASK_ERROR = 'The import stopped before it finished.';

async function startPhase(ctx: Ctx, uuid: string, phase: 'apply' | 'undo'): Promise<ImportView> {
  const imp = await loadImport(ctx, uuid);
  const actor = assertKindPermission(ctx, imp.kind);
  const to = phase === 'apply' ? 'applying' : 'undoing';
  await ctx.db.transaction().execute(async (trx) => {
    // Issue 28 §1: an import whose job died would otherwise stay 'applying' for ever, neither appliable nor
    // undoable (409). After the row lock, the job's state is read afresh: of two clicks, the second sees the job
    // the first started, alive.
    const current = await lockImportForPhase(trx, imp.id);
    const stalled =
      (STALLED_FROM[phase] as readonly string[]).includes(current.status) &&
      !(await importJobAlive(trx, current.task_id));
    const from: string[] = [...PHASE_FROM[phase], ...(stalled ? [current.status] : [])];
    let q = trx
      .updateTable('imports')
      .set({
        status: to,
        failure: null,
        updated_at: ctx.clock(),
        ...(phase === 'apply' ? { applied_by: actor.userId } : { undone_by: actor.userId }),
      })
      .where('id', '=', imp.id)
      .where('status', 'in', from as never);
    // A failed plan has nothing to undo: only a failed apply (applied_by set) can be undone.
    if (phase === 'undo') q = q.where('applied_by', 'is not', null);
    // The guarded update decides: of two clicks at once, one moves the import on and the other gets 409.
    const moved = await q.executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw conflict(phase === 'apply' ? M.notPlanned : M.notUndoable);
    // The dead job's task ends, so the header no longer counts it; the new phase has a task of its own.
    if (stalled && current.task_id !== null)
      await failTask(trx, current.task_id, STALLED_TASK_ERROR, ctx.clock());
    const total =
      phase === 'apply' ? imp.create_count + imp.update_count : imp.created_count + imp.updated_count;
    const task = await startTask(trx, {
      userId: actor.userId,
      entityId: imp.entity_id,
      kind: 'import',
      title: `${phase === 'apply' ? 'Importing' : 'Undoing the import of'} ${imp.file_name}`,
      total,
    });
    const jobId = await enqueue(trx, `importer.${phase}`, { importId: imp.id });
    await trx.updateTable('tasks').set({ job_id: jobId }).where('id', '=', task.id).execute();
    await trx.updateTable('imports').set({ task_id: task.id }).where('id', '=', imp.id).execute();
  });
  return reload(ctx, imp.uuid);
}

/** POST /importer/imports/{uuid}/apply: a planned import, once (409 after). The job applies it in batches. */
export const applyImport = (ctx: Ctx, uuid: string) => startPhase(ctx, uuid, 'apply');

/** POST /importer/imports/{uuid}/undo: an applied (or part-applied, failed) import, once. */
export const undoImport = (ctx: Ctx, uuid: string) => startPhase(ctx, uuid, 'undo');

// ------------------------------------------------------------------------------------------------------ reads

/** GET /importer/imports (99): runs made in the caller's scope, newest first. */
export async function listImportRuns(ctx: Ctx, q: ImportListQuery) {
  authorize(ctx, [ImporterPerm.logs]);
  const scope = await entityScope(ctx);
  const { rows, total } = await listImports(
    ctx.db,
    {
      entityIds: scope.accessible === 'all' ? null : [...scope.accessible],
      kind: q.kind,
      status: q.status,
      unresolved: q.unresolved,
    },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentImport), total };
}

export const PREVIEW_ROWS = 10;

/** GET /importer/imports/{uuid} (99): the run, and the first rows of each action and the first errors. */
export async function getImport(ctx: Ctx, uuid: string): Promise<ImportPreview> {
  const imp = await loadImport(ctx, uuid);
  authorize(ctx, [ImporterPerm.logs]);
  const page = { page: 1, perPage: PREVIEW_ROWS };
  const [create, update, unchanged, errors] = await Promise.all([
    listPlanRows(ctx.db, imp.id, { action: 'create' }, page),
    listPlanRows(ctx.db, imp.id, { action: 'update' }, page),
    listPlanRows(ctx.db, imp.id, { action: 'unchanged' }, page),
    listErrors(ctx.db, imp.id, {}, page),
  ]);
  return {
    import: presentImport(imp),
    rows: {
      create: create.rows.map((r) => presentRow(r, imp.headers)),
      update: update.rows.map((r) => presentRow(r, imp.headers)),
      unchanged: unchanged.rows.map((r) => presentRow(r, imp.headers)),
    },
    errors: errors.rows.map((r) => presentError(r, imp.headers)),
  };
}

/** GET /importer/imports/{uuid}/rows (99): the plan, paged, by action. */
export async function listImportRows(ctx: Ctx, uuid: string, q: ImportRowsQuery) {
  const imp = await loadImport(ctx, uuid);
  authorize(ctx, [ImporterPerm.logs]);
  const { rows, total } = await listPlanRows(
    ctx.db,
    imp.id,
    { action: q.action },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map((r) => presentRow(r, imp.headers)), total };
}

/** GET /importer/imports/{uuid}/errors (99): the row errors, paged; `unresolved` narrows. */
export async function listImportErrors(ctx: Ctx, uuid: string, q: ImportErrorsQuery) {
  const imp = await loadImport(ctx, uuid);
  authorize(ctx, [ImporterPerm.logs]);
  const { rows, total } = await listErrors(
    ctx.db,
    imp.id,
    { unresolved: q.unresolved },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map((r) => presentError(r, imp.headers)), total };
}

/**
 * GET /importer/imports/{uuid}/errors.csv (99): row number, column, message, then the row's own cells under the
 * file's headers, read and written a page at a time.
 */
export async function errorsCsv(ctx: Ctx, uuid: string) {
  const imp = await loadImport(ctx, uuid);
  authorize(ctx, [ImporterPerm.logs]);
  const headers = ordered(imp.headers, {});
  async function* lines() {
    yield `\ufeff${csvLine(['row', 'column', 'message', ...headers])}\r\n`;
    let after = 0;
    for (;;) {
      const batch = await ctx.db
        .selectFrom('import_errors')
        .select(['id', 'row_number', 'column_name', 'message', 'row_values'])
        .where('import_id', '=', imp.id)
        .where('id', '>', after)
        .orderBy('id')
        .limit(1000)
        .execute();
      if (!batch.length) return;
      yield batch
        .map(
          (e) =>
            `${csvLine([e.row_number, e.column_name, e.message, ...headers.map((h) => e.row_values[h] ?? '')])}\r\n`,
        )
        .join('');
      after = batch[batch.length - 1]?.id ?? after;
    }
  }
  const base = imp.file_name.replace(/\.csv$/i, '').replace(/[^\w.-]+/g, '-') || 'import';
  return { body: Readable.from(lines()), filename: `${base}-errors.csv` };
}

/** POST /importer/imports/{uuid}/errors/{id}/resolve (100): a note, who and when; once (409 after). */
export async function resolveImportError(
  ctx: Ctx,
  uuid: string,
  errorId: number,
  input: unknown,
): Promise<ImportErrorView> {
  const imp = await loadImport(ctx, uuid);
  const found = await ctx.db
    .selectFrom('import_errors')
    .select('id')
    .where('id', '=', errorId)
    .where('import_id', '=', imp.id)
    .executeTakeFirst();
  if (!found) throw notFound();
  const actor = authorize(ctx, [ImporterPerm.resolve]);
  const body = parseInput(ResolveImportErrorBody, input);
  const moved = await ctx.db
    .updateTable('import_errors')
    .set({ resolved_at: ctx.clock(), resolved_by: actor.userId, resolution_note: body.note })
    .where('id', '=', errorId)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) throw conflict(M.alreadyResolved);
  const row = await errorSelect(ctx.db).where('ie.id', '=', errorId).executeTakeFirstOrThrow();
  return presentError(row, imp.headers);
}

const EXAMPLES: Record<ImportKind, string[][]> = {
  users: [
    ['Amy Carter', 'amy.carter@example.org', 'E1001', '', 'Care Assistant', '', '2024-03-04'],
    ['Ben Osei', 'ben.osei@example.org', 'E1002', '', '', '', '04/03/2024'],
  ],
  training: [
    ['amy.carter@example.org', '', 'Fire Safety', '2024-01-15', '', 'FS-2291', 'Safe Training Ltd', ''],
    ['', 'E1002', 'Moving and Handling', '12/02/2024', '12/02/2025', '', '', 'Refresher'],
  ],
};

/** GET /importer/templates/{kind}.csv (99): the header and two example rows. */
export function templateCsv(ctx: Ctx, kind: ImportKind) {
  authorize(ctx, [ImporterPerm.logs]);
  const lines = [csvLine([...IMPORT_COLUMNS[kind]]), ...EXAMPLES[kind].map((r) => csvLine(r))];
  return {
    body: `${lines.join('\r\n')}\r\n`,
    filename: `${kind === 'users' ? 'people' : 'training-records'}-template.csv`,
  };
}

import type { Readable } from 'node:stream';
import {
  type CellsWire,
  decodeCells,
  decodeUsers,
  type ExportFormat,
  MATRIX_JSON_CELL_LIMIT,
  type MatrixCell,
  type MatrixFilters,
  MatrixMessages,
  MatrixPerm,
  type MatrixResponse,
  type MatrixUser,
  MatrixView,
  type ReportPreset,
  reportFileName,
  type UsersWire,
} from '@cc/contracts';
import { loadActor } from '../auth/actor';
import { resolveActingAs } from '../entities/scope';
import { actorOf, type Ctx } from '../http/context';
import { HttpError, invalidField } from '../http/errors';
import { enqueue, type JobContext, PermanentJobError, registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { matrixPathwayAllocations } from '../pathways/matrix';
import { registerReportRenderer } from '../presets/renderers';
import { startTask, type TaskTracker, trackJobTask } from '../tasks/service';
import { dateFormatOfScope } from '../whitelabel/service';
import { matrixPdf, matrixXlsx } from './export';
import { entitiesByIds } from './queries';
import { MatrixAggregator, matrixBlocks, parseFilters, planMatrix } from './service';

/**
 * POST /reports/matrix (spec 2 §7): directFormat json → the "Matrix response" (smaller scopes; above
 * MATRIX_JSON_CELL_LIMIT cells it answers 500 with MatrixMessages.tooLarge, which the page shows as "too large");
 * directFormat file → a streamed XLSX (permission 15) or PDF (permission 14); emailFormat → a durable job e-mails
 * the file to the caller. pathway_allocations: the users' pathway allocations (pathways/matrix.ts).
 */

export const MATRIX_EMAIL_JOB = 'matrix-email';

const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
} as const;

export const permissionsFor = (format: 'pdf' | 'xlsx') => [
  MatrixPerm.report,
  format === 'pdf' ? MatrixPerm.pdf : MatrixPerm.xlsx,
];

export async function matrixJson(ctx: Ctx, filters: MatrixFilters): Promise<MatrixResponse> {
  const plan = await planMatrix(ctx, filters);
  const aggregator = new MatrixAggregator(plan);
  const users: MatrixUser[] = [];
  const cells: MatrixCell[] = [];
  const courses = [...plan.courses];
  for await (const block of matrixBlocks(ctx, plan, aggregator)) {
    const blockUsers = decodeUsers(JSON.parse(block.users) as UsersWire);
    users.push(...blockUsers);
    courses.push(...block.newCourses);
    const decoded = decodeCells(
      JSON.parse(block.cells) as CellsWire,
      new Map(blockUsers.map((u) => [u.id, u])),
    );
    if (cells.length + decoded.length > MATRIX_JSON_CELL_LIMIT)
      throw new HttpError(500, MatrixMessages.tooLarge);
    for (const c of decoded) cells.push(c);
  }
  const tally = new Map<number, [number, number]>();
  for (const c of cells) {
    // A new requirement's cell inside its grace period is left out of the score (issue 33 §4).
    if (c.type !== 'primary' || !c.counted) continue;
    const t = tally.get(c.user_id) ?? [0, 0];
    t[1]++;
    if (c.in_date_passed) t[0]++;
    tally.set(c.user_id, t);
  }
  const { scoreOf } = await import('../compliance/rules');
  return {
    breakdown: { top_level: aggregator.topLevel(), entities: aggregator.aggregates() },
    cells,
    users,
    courses,
    roles: plan.roles,
    results: cells
      .filter((c) => c.latest_result_id !== null)
      .map((c) => ({
        id: c.latest_result_id as number,
        user_id: c.user_id,
        course_id: c.course_id,
        completed: c.latest_result_completed,
        expires: c.latest_result_expires,
      })),
    primary_scores: users.map((u) => {
      const t = tally.get(u.id) ?? [0, 0];
      return { user_id: u.id, score: scoreOf(t[0], t[1]) };
    }),
    pathway_allocations: await matrixPathwayAllocations(
      ctx.db,
      users.map((u) => u.id),
      plan.filters.pathways,
      ctx.clock(),
    ),
  };
}

export interface MatrixFile {
  filename: string;
  contentType: string;
  body: Readable;
}

/**
 * The scope's real name, for the title of a file: the home(s) it was filtered to (not the group above them), else
 * the organisation the caller acts as, else their own.
 */
export async function matrixScopeName(ctx: Ctx, filters: MatrixFilters): Promise<string> {
  const actor = actorOf(ctx);
  if (filters.entities.length) {
    const names = (await entitiesByIds(ctx.db, filters.entities)).map((e) => e.name);
    if (names.length === 1) return names[0] as string;
    if (names.length > 1)
      return names.length <= 3
        ? names.join(', ')
        : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
  }
  return actor.actingAs?.name ?? actor.primaryEntity.name;
}

/**
 * The matrix as a file. `view` (the page's search, "Show" filter and sort) picks and orders its people with the
 * page's own function (contracts matrixViewRows), and the file's header names every filter (issue 33 §5).
 */
export async function matrixFile(
  ctx: Ctx,
  filters: MatrixFilters,
  format: 'pdf' | 'xlsx',
  signal?: AbortSignal,
  view?: MatrixView,
): Promise<MatrixFile> {
  const plan = await planMatrix(ctx, filters, permissionsFor(format));
  const actor = actorOf(ctx);
  const filename = reportFileName('matrix', actor.name, ctx.clock(), format);
  const options = {
    title: 'Compliance matrix',
    scopeName: await matrixScopeName(ctx, filters),
    generatedAt: ctx.clock(),
    dateFormat: await dateFormatOfScope(ctx),
    view,
  };
  const body =
    format === 'xlsx'
      ? await matrixXlsx(ctx, plan, options, signal)
      : await matrixPdf(ctx, plan, options, signal);
  return { filename, contentType: CONTENT_TYPES[format], body };
}

/** emailFormat: checks now (permissions, scope, filters), then a job renders and e-mails the file to the caller. */
export async function requestEmailedMatrix(
  ctx: Ctx,
  filters: MatrixFilters,
  format: 'pdf' | 'xlsx',
  view?: MatrixView,
) {
  await planMatrix(ctx, filters, permissionsFor(format));
  const actor = actorOf(ctx);
  // The user follows it on /tasks-in-progress: the task commits with the job (issue 18).
  await ctx.db.transaction().execute(async (trx) => {
    const jobId = await enqueue(trx, MATRIX_EMAIL_JOB, {
      user_id: actor.userId,
      acting_as: actor.actingAs?.slug ?? null,
      filters,
      format,
      view: view ?? null,
    });
    await startTask(trx, {
      userId: actor.userId,
      entityId: actor.actingAs?.id ?? actor.primaryEntity.id,
      kind: 'emailed_report',
      title: `Compliance matrix (${format.toUpperCase()}) by e-mail`,
      jobId,
    });
  });
}

export function parseReportRequest(body: {
  directFormat?: 'json' | 'file';
  format?: 'pdf' | 'xlsx';
  emailFormat?: 'pdf' | 'xlsx';
  view?: unknown;
}) {
  if (!body.emailFormat && body.directFormat === 'file' && !body.format)
    throw invalidField('format', 'Choose pdf or xlsx.');
  const view = body.view === undefined ? undefined : MatrixView.parse(body.view);
  return { filters: parseFilters(body), view };
}

type EmailedMatrixPayload = {
  user_id: number;
  acting_as: string | null;
  filters: MatrixFilters;
  format: 'pdf' | 'xlsx';
  /** The page's search, "Show" filter and sort; null (or absent, a job queued before issue 33): everyone. */
  view?: MatrixView | null;
};

async function sendEmailedMatrix(ctx: JobContext, payload: EmailedMatrixPayload) {
  await trackJobTask(ctx, (tracker) => emailMatrix(ctx, payload, tracker));
}

async function emailMatrix(ctx: JobContext, payload: EmailedMatrixPayload, tracker: TaskTracker) {
  const actor = await loadActor(ctx.db, payload.user_id, { via: 'session', sessionId: `job:${ctx.job.id}` });
  if (!actor) throw new PermanentJobError('The user no longer exists.');
  const base: Ctx = { ...ctx, actor, ip: null, userAgent: null, memo: new Map(), clock: () => ctx.now };
  try {
    if (payload.acting_as) actor.actingAs = await resolveActingAs(base, payload.acting_as, actor);
    const file = await matrixFile(
      base,
      payload.filters,
      payload.format,
      undefined,
      payload.view ?? undefined,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    // Recorded under the job's run (a retry records it once) and delivered by a job of its own (issue 30 §4).
    await ctx.db.transaction().execute((trx) =>
      recordJobMail(ctx, trx, [
        {
          to: actor.email,
          template: 'matrix_report',
          subject: 'Your compliance matrix',
          text: `Hello ${actor.name},\n\nThe compliance matrix you asked for is attached (${file.filename}).`,
          attachments: [
            { filename: file.filename, contentType: file.contentType, content: Buffer.concat(chunks) },
          ],
        },
      ]),
    );
    const stored = await tracker.storeFile(Buffer.concat(chunks), {
      filename: file.filename,
      contentType: file.contentType,
      extension: payload.format,
    });
    return { file: stored, summary: `E-mailed to ${actor.email}.` };
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) throw new PermanentJobError(error.message);
    throw error;
  }
}

/** The preset fields (spec 2 §3 "Report preset") a matrix uses; the others belong to the certificate report. */
export type MatrixPresetFields = Pick<
  ReportPreset,
  'compliance_type' | 'primary_only' | 'includeStarters' | 'new_starters_filter' | 'includeStatusTypes'
> &
  Partial<Pick<ReportPreset, 'entities' | 'roles' | 'courses' | 'users' | 'pathways'>> & { deep?: boolean };

/**
 * A matrix preset's filters, the same for POST /report and scheduled runs: primary_only narrows to Mandatory, and
 * includeStarters false leaves new starters out whatever new_starters_filter says.
 */
export function matrixFiltersOfPreset(p: MatrixPresetFields): MatrixFilters {
  return parseFilters({
    entities: p.entities ?? [],
    roles: p.roles ?? [],
    courses: p.courses ?? [],
    users: p.users ?? [],
    pathways: p.pathways ?? [],
    compliance_type: p.primary_only ? 'primary' : p.compliance_type,
    new_starters_filter: p.includeStarters ? p.new_starters_filter : 'exclude_new_starters',
    includeStatusTypes: p.includeStatusTypes,
    deep: p.deep ?? true,
  });
}

export const matrixFileFormat = (format: ExportFormat) => (format === 'PDF' ? 'pdf' : 'xlsx');

/** The preset/schedule renderer of report_type 'matrix' (server/src/presets/renderers.ts). */
export async function renderMatrixPreset(ctx: Ctx, preset: ReportPreset, format: ExportFormat) {
  return matrixFile(ctx, matrixFiltersOfPreset(preset), matrixFileFormat(format));
}

let registered = false;
export function registerMatrixJobs(): void {
  if (registered) return;
  registered = true;
  registerJob(MATRIX_EMAIL_JOB, sendEmailedMatrix as never, { maxAttempts: 3, timeoutSeconds: 900 });
  registerReportRenderer('matrix', renderMatrixPreset);
}

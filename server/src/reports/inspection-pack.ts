import { PassThrough, type Readable } from 'node:stream';
import {
  CELL_STATUS_LABELS,
  type CellStatus,
  type CellsWire,
  COURSE_STATUS_LABELS,
  type CourseStatus,
  courseStatus,
  courseStatusText,
  type DateFormat,
  decodeCells,
  decodeUsers,
  formatDate,
  formatDateTime,
  type MatrixCell,
  type MatrixCourse,
  type MatrixUser,
  ReportsPerm,
  type UsersWire,
} from '@cc/contracts';
import { sql } from 'kysely';
import PDFDocument from 'pdfkit';
import yazl from 'yazl';
import { loadActor } from '../auth/actor';
import { trainingCertificate } from '../certificates/service';
import { pendingPairs, requirementDuePairs } from '../compliance/queries';
import { scoreOf } from '../compliance/rules';
import { type PolicyReceipt, policyReceipts, RECEIPT_STATE_LABELS } from '../documents/inspection-pack';
import { assertEntityInScope, resolveActingAs } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { enqueue, type JobContext, PermanentJobError, registerJob } from '../jobs/queue';
import { matrixPdf, PDF_LEGEND } from '../matrix/export';
import { MatrixAggregator, matrixBlocks, planMatrix } from '../matrix/service';
import { fontFor, PDF_FONT, useUnicodeFonts } from '../pdf/fonts';
import { findEntityBySlug } from '../roles/queries';
import { newKey } from '../storage/storage';
import { failTask, startTask, type TaskTracker, trackJobTask } from '../tasks/service';
import { dateFormatOf } from '../whitelabel/service';
import type { PackSectionKey } from './cqc/quality-statements';
import { type PackAudit, packAuditEntries, packAuditRows } from './inspection-pack-audit';
import { nextBookedSessions } from './inspection-pack-bookings';
import {
  type PackCareCertificates,
  packCareCertificateCells,
  packCareCertificates,
} from './inspection-pack-care-certificate';
import {
  packFigures,
  packSummaryRows,
  runningExemptions,
  SUMMARY_INTRO,
  SUMMARY_TITLE,
  type SummaryRow,
} from './inspection-pack-summary';

/**
 * The inspection pack (issue 13): what an inspector asks a home for under CQC Regulation 18 (Staffing), in one
 * click. POST /entities/{slug}/inspection-pack queues a job (permission 13, the compliance report's; a home outside
 * the caller's scope is 404) and answers the pack's status; the job reads the home's matrix through the matrix service
 * (the same cells as the matrix and the compliance report), then writes to storage:
 * - the PDF: the figures and their date and time; a one-page summary against the CQC's quality statements
 *   (inspection-pack-summary.ts, issue 37 §3); the training matrix per job role (each cell its expiry date,
 *   Missing or Exempt, coloured as in the matrix); every gap (an expired or missing Mandatory or Required course) with
 *   its dated plan (overdue since its expiry; a new starter's due date at the end of their new-starter period; the
 *   next booked session of the course where there is one); new starters' progress; certificates and evidence per person;
 * - a zip: that PDF, the home's full training matrix PDF, every evidence file and every certificate, by person.
 * GET /inspection-packs/{uuid} answers its progress (0..1) and, when done, the two download links.
 */

export const INSPECTION_PACK_JOB = 'inspection-pack';

export interface InspectionPackStatus {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  entity: { slug: string; name: string };
  created_at: string;
  finished_at: string | null;
  error: string | null;
  pdf_url: string | null;
  zip_url: string | null;
}

type PackRow = {
  id: number;
  uuid: string;
  entity_id: number;
  requested_by: number;
  status: InspectionPackStatus['status'];
  progress: number;
  pdf_key: string | null;
  zip_key: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  slug: string;
  name: string;
};

function present(row: PackRow): InspectionPackStatus {
  const done = row.status === 'done';
  return {
    id: row.uuid,
    status: row.status,
    progress: Math.round(Number(row.progress) * 100) / 100,
    entity: { slug: row.slug, name: row.name },
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
    error: row.error,
    pdf_url: done && row.pdf_key ? `/api/inspection-packs/${row.uuid}/pdf` : null,
    zip_url: done && row.zip_key ? `/api/inspection-packs/${row.uuid}/zip` : null,
  };
}

async function packRow(ctx: Pick<Ctx, 'db'>, where: { id: number } | { uuid: string }) {
  let q = ctx.db
    .selectFrom('inspection_packs as p')
    .innerJoin('entities as e', 'e.id', 'p.entity_id')
    .selectAll('p')
    .select(['e.slug', 'e.name']);
  q = 'id' in where ? q.where('p.id', '=', where.id) : q.where('p.uuid', '=', where.uuid);
  return (await q.executeTakeFirst()) as PackRow | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** POST /entities/{slug}/inspection-pack: queues the pack of that home (404 outside the scope, 403 without 13). */
export async function requestInspectionPack(ctx: Ctx, slug: string): Promise<InspectionPackStatus> {
  const actor = actorOf(ctx);
  const entity = await findEntityBySlug(ctx.db, slug);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, [ReportsPerm.complianceReport]);
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('inspection_packs')
      .values({ entity_id: entity.id, requested_by: actor.userId })
      .returning('id')
      .executeTakeFirstOrThrow();
    const jobId = await enqueue(trx, INSPECTION_PACK_JOB, {
      pack_id: row.id,
      acting_as: actor.actingAs?.slug ?? null,
    });
    await startTask(trx, {
      userId: actor.userId,
      entityId: entity.id,
      kind: 'export',
      title: `Inspection pack for ${entity.name}`,
      total: 100,
      jobId,
    });
    return row.id;
  });
  return present((await packRow(ctx, { id })) as PackRow);
}

/** The pack by uuid, if the caller may see it: its home in their scope, and permission 13 (else 404 / 403). */
async function visiblePack(ctx: Ctx, uuid: string): Promise<PackRow> {
  actorOf(ctx);
  const row = UUID.test(uuid) ? await packRow(ctx, { uuid: uuid.toLowerCase() }) : undefined;
  if (!row) throw notFound();
  await assertEntityInScope(ctx, row.entity_id);
  authorize(ctx, [ReportsPerm.complianceReport]);
  return row;
}

export async function inspectionPackStatus(ctx: Ctx, uuid: string): Promise<InspectionPackStatus> {
  return present(await visiblePack(ctx, uuid));
}

/** The finished pack's PDF or zip as a stream with its file name (404 until it is done). */
export async function inspectionPackFile(ctx: Ctx, uuid: string, kind: 'pdf' | 'zip') {
  const row = await visiblePack(ctx, uuid);
  const key = kind === 'pdf' ? row.pdf_key : row.zip_key;
  if (row.status !== 'done' || !key) throw notFound();
  const file = await ctx.storage.read(key);
  if (!file) throw notFound();
  const day = formatDate(row.finished_at ?? row.created_at, 'YYYY-MM-DD');
  return {
    filename: `inspection-pack-${fileSafe(row.name)}-${day}.${kind}`,
    contentType: kind === 'pdf' ? 'application/pdf' : 'application/zip',
    stream: file.body,
  };
}

const fileSafe = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 60) || 'file';

// --- The data of a pack.

interface PackPerson extends MatrixUser {
  uuid: string;
  role: string;
  home: string;
  started: Date;
  starterUntil: Date | null;
  cells: MatrixCell[];
  score: number;
}

interface PackEvidence {
  resultId: number;
  userId: number;
  courseId: number;
  completed: Date;
  expires: Date | null;
  type: string;
  /** The result's notes: for an exemption, its reason (issue 28 item 6). */
  notes: string | null;
  file: { key: string; name: string } | null;
}

export interface PackData {
  home: { id: number; name: string };
  generatedAt: Date;
  dateFormat: DateFormat;
  preparedBy: string;
  people: PackPerson[];
  courses: Map<number, MatrixCourse>;
  evidence: PackEvidence[];
  /** The next booked session of a gap, by `<user id>:<course id>` (inspection-pack-bookings.ts). */
  booked?: Map<string, Date>;
  /** `<user id>:<course id>` of the records awaiting approval (courseStatus's `pending`). */
  pending?: Set<string>;
  /** A new requirement's due date still ahead (issue 33 §4), by `<user id>:<course id>` (courseStatus's requirementDueAt). */
  requirementDue?: Map<string, Date>;
  /** New starters' Care Certificate status (inspection-pack-care-certificate.ts). */
  careCertificates?: PackCareCertificates;
  /** Who acknowledged which version of each required document (documents/inspection-pack.ts). */
  receipts?: PolicyReceipt[];
  /** The home's audit trail of the last 12 months (inspection-pack-audit.ts), when the requester may read it. */
  audit?: PackAudit;
}

/** Reads the home's matrix (the matrix service: the same cells as the matrix and the compliance report). */
export async function gatherPack(
  ctx: Ctx,
  home: { id: number; name: string },
  progress: (p: number) => Promise<void> = async () => {},
): Promise<PackData> {
  const plan = await planMatrix(ctx, { entities: [home.id], compliance_type: 'all', deep: true }, [
    ReportsPerm.complianceReport,
  ]);
  const courses = new Map(plan.courses.map((c) => [c.id, c]));
  const roleName = new Map(plan.roles.map((r) => [r.id, r.name]));
  const homeName = new Map(plan.entities.map((e) => [e.id, e.name]));
  const users: MatrixUser[] = [];
  const cellsOf = new Map<number, MatrixCell[]>();
  let done = 0;
  for await (const block of matrixBlocks(ctx, plan, new MatrixAggregator(plan))) {
    const blockUsers = decodeUsers(JSON.parse(block.users) as UsersWire);
    for (const c of block.newCourses) courses.set(c.id, c);
    users.push(...blockUsers);
    for (const cell of decodeCells(
      JSON.parse(block.cells) as CellsWire,
      new Map(blockUsers.map((u) => [u.id, u])),
    )) {
      const list = cellsOf.get(cell.user_id) ?? [];
      list.push(cell);
      cellsOf.set(cell.user_id, list);
    }
    done += blockUsers.length;
    await progress(0.1 + 0.3 * (plan.total ? done / plan.total : 1));
  }
  const ids = users.map((u) => u.id);
  const details = ids.length
    ? (
        await sql<{ id: number; uuid: string; started: Date; starter_until: Date }>`
          SELECT u.id, u.uuid, coalesce(u.start_date::timestamptz, u.created_at) AS started,
                 coalesce(u.start_date::timestamptz, u.created_at) + make_interval(days => e.starter_period) AS starter_until
            FROM users u JOIN entities e ON e.id = u.primary_entity_id
           WHERE u.id = ANY(${sql.val(ids)}::int[])`.execute(ctx.db)
      ).rows
    : [];
  const detail = new Map(details.map((d) => [d.id, d]));
  const resultIds = [...cellsOf.values()]
    .flat()
    .map((c) => c.latest_result_id)
    .filter((id): id is number => id !== null);
  const evidence = resultIds.length
    ? (
        await sql<{
          id: number;
          user_id: number;
          course_id: number;
          completed_at: Date;
          expires_at: Date | null;
          type: string;
          notes: string | null;
          storage_key: string | null;
          original_name: string | null;
        }>`
          SELECT r.id, r.user_id, r.course_id, r.completed_at, r.expires_at, r.type, r.notes, f.storage_key,
                 f.original_name
            FROM results r LEFT JOIN files f ON f.id = r.evidence_file_id
           WHERE r.id = ANY(${sql.val(resultIds)}::int[]) AND r.passed AND r.deleted_at IS NULL
           ORDER BY r.user_id, r.completed_at`.execute(ctx.db)
      ).rows
    : [];
  const people = users
    .map((u) => {
      const cells = cellsOf.get(u.id) ?? [];
      // Scored as the matrix: a new requirement's cell inside its grace period is left out (issue 33 §4).
      const required = cells.filter((c) => c.type !== 'none' && c.counted);
      const d = detail.get(u.id);
      return {
        ...u,
        uuid: d?.uuid ?? '',
        role: u.role_id ? (roleName.get(u.role_id) ?? 'No job role') : 'No job role',
        home: homeName.get(u.primary_entity_id) ?? home.name,
        started: d ? new Date(d.started) : new Date(0),
        starterUntil: u.new_starter && d ? new Date(d.starter_until) : null,
        cells,
        score: scoreOf(required.filter((c) => c.in_date_passed).length, required.length),
      };
    })
    .sort((a, b) => a.role.localeCompare(b.role) || a.name.localeCompare(b.name));
  const booked = await nextBookedSessions(ctx.db, ids, ctx.clock());
  const pending = await pendingPairs(ctx.db, ids);
  const requirementDue = await requirementDuePairs(ctx.db, ids, ctx.clock());
  const careCertificates = await packCareCertificates(
    ctx,
    home.id,
    people.filter((p) => p.new_starter).map((p) => p.id),
  );
  const receipts = await policyReceipts(ctx.db, people);
  const audit = await packAuditEntries(ctx, home.id);
  return {
    home,
    audit,
    booked,
    pending,
    requirementDue,
    careCertificates,
    receipts,
    generatedAt: ctx.clock(),
    dateFormat: await dateFormatOf(ctx, home.id),
    preparedBy: actorOf(ctx).name,
    people,
    courses,
    evidence: evidence.map((e) => ({
      resultId: e.id,
      userId: e.user_id,
      courseId: e.course_id,
      completed: new Date(e.completed_at),
      expires: e.expires_at ? new Date(e.expires_at) : null,
      type: e.type,
      notes: e.notes,
      file: e.storage_key ? { key: e.storage_key, name: e.original_name ?? 'evidence' } : null,
    })),
  };
}

/** A gap: a Mandatory or Required course that is not compliant (expired, never done, due, awaiting approval). */
export interface PackGap {
  person: PackPerson;
  course: string;
  kind: 'Mandatory' | 'Required';
  /** The one status of the person x course (contracts courseStatus), as on every other screen. */
  status: CourseStatus;
  /** Its matrix colour. */
  cell: CellStatus;
  /** The date the plan is held to: the expiry, or a new starter's due date; null when it is due now. */
  due: Date | null;
  plan: string;
  /** The start of the person's next booked session of the course, if any. */
  booked: Date | null;
}

/** What the pack says to do about a gap, after the status in words (courseStatusText). */
const NEXT_STEP: Partial<Record<CourseStatus, string>> = {
  expired: 'renew now (book the next session).',
  missing: 'overdue, book it now (the next session).',
  due: 'the end of their new-starter period.',
  pending: 'a record was submitted; approve or reject it.',
};

export function packGaps(data: PackData, words: { primary: string; secondary: string }): PackGap[] {
  const f = data.dateFormat;
  const gaps: PackGap[] = [];
  for (const person of data.people) {
    for (const c of person.cells) {
      if (c.type === 'none') continue;
      const st = packCellStatus(data, person, c);
      if (st.compliant) continue;
      const course = data.courses.get(c.course_id)?.title ?? `Course ${c.course_id}`;
      const due = st.date ? new Date(st.date) : null;
      const newRequirement =
        st.status === 'due' &&
        st.date !== null &&
        data.requirementDue?.get(`${person.id}:${c.course_id}`)?.toISOString() === st.date;
      const step = newRequirement ? 'the date a new requirement gives to complete it.' : NEXT_STEP[st.status];
      let plan = `${courseStatusText(st, f)}: ${step ?? ''}`.trim();
      const booked = data.booked?.get(`${person.id}:${c.course_id}`) ?? null;
      if (booked) plan = `Booked on a session on ${formatDate(booked, f)}. ${plan}`;
      gaps.push({
        person,
        course,
        booked,
        kind: c.type === 'primary' ? (words.primary as 'Mandatory') : (words.secondary as 'Required'),
        status: st.status,
        cell: st.cell,
        due,
        plan,
      });
    }
  }
  // Out of date first (the oldest expiry first, never done after), then awaiting approval, then due (soonest first).
  const rank = (g: PackGap) => (g.status === 'pending' ? 1 : g.status === 'due' ? 2 : 0);
  return gaps.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.due?.getTime() ?? Number.MAX_SAFE_INTEGER) - (b.due?.getTime() ?? Number.MAX_SAFE_INTEGER) ||
      a.person.name.localeCompare(b.person.name),
  );
}

/**
 * The one status of a pack cell (contracts courseStatus over the matrix's cell status, which the matrix SQL computed
 * in bulk), with the person's new-starter due date and a record awaiting approval.
 */
export function packCellStatus(data: PackData, person: PackPerson, c: MatrixCell) {
  const passed = c.status !== 'missing';
  return courseStatus({
    required: c.type !== 'none',
    cell: c.status,
    latest:
      c.latest_result_id === null && !passed
        ? null
        : { passed, exempt: c.status === 'exempt', expiresAt: c.latest_result_expires },
    pending: data.pending?.has(`${person.id}:${c.course_id}`) ?? false,
    dueBy: person.starterUntil,
    requirementDueAt: data.requirementDue?.get(`${person.id}:${c.course_id}`) ?? null,
    warningDays: 0,
    now: data.generatedAt,
  });
}

// --- The PDF.

const COLOURS: Record<string, string> = {
  in_date: '#48bb78',
  expiring: '#ffbf00',
  expired: '#e53e3e',
  missing: '#d1d5db',
  exempt: '#93c5fd',
};

/** The declaration the reviewer signs at the end of the pack (issue 33 §6). */
export function packDeclaration(home: string, dataAsOf: string): string {
  return (
    `I have reviewed this inspection pack for ${home}. To the best of my knowledge it is a true and complete record ` +
    `of the training of the staff listed, as at ${dataAsOf}, and each gap listed has the plan shown.`
  );
}

/**
 * The pack's PDF (A4 landscape, a few pages for a home: built in memory, page numbers "n of m"). `generatedAt` is when
 * the PDF was made; `data.generatedAt` when its figures were read (every page's footer says both).
 */
export async function packPdf(
  data: PackData,
  words: { primary: string; secondary: string },
  generatedAt: Date = new Date(),
): Promise<Buffer> {
  const f = data.dateFormat;
  const doc = useUnicodeFonts(
    new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 36,
      bufferPages: true,
      info: { Title: `Inspection pack · ${data.home.name}`, CreationDate: data.generatedAt },
    }),
  );
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  const W = doc.page.width - 72;
  const bottom = () => doc.page.height - 54;
  const generated = formatDateTime(data.generatedAt, f);
  const made = formatDateTime(generatedAt < data.generatedAt ? data.generatedAt : generatedAt, f);
  const font = (bold = false) => (bold ? PDF_FONT.bold : PDF_FONT.regular);
  const heading = (text: string) => {
    if (doc.y > bottom() - 80) doc.addPage();
    doc.moveDown(0.6).font(font(true)).fontSize(14).fillColor('#111827').text(text, 36);
    doc.moveDown(0.3);
  };
  const para = (text: string, size = 9, colour = '#374151') =>
    doc.font(font()).fontSize(size).fillColor(colour).text(text, 36, undefined, { width: W });
  /** The page each section starts on (1-based), for the CQC summary page's "where the evidence is". */
  const pages = new Map<PackSectionKey, number>();
  const pageNow = () => {
    const range = doc.bufferedPageRange();
    return range.start + range.count;
  };
  const mark = (key: PackSectionKey) => pages.set(key, pageNow());

  /** A table: header repeated on each page; `fill` colours a cell (and picks black text on it). */
  const table = (
    columns: { header: string; width: number }[],
    rows: string[][],
    fill?: (row: number, col: number) => string | null,
  ) => {
    const size = 8;
    const pad = 3;
    const drawHeader = () => {
      let x = 36;
      const y = doc.y;
      doc.font(font(true)).fontSize(size).fillColor('#111827');
      const h =
        Math.max(...columns.map((c) => doc.heightOfString(c.header, { width: c.width - pad * 2 }))) + pad * 2;
      doc.rect(36, y, W, h).fill('#f3f4f6');
      for (const c of columns) {
        doc
          .font(font(true))
          .fontSize(size)
          .fillColor('#111827')
          .text(c.header, x + pad, y + pad, { width: c.width - pad * 2 });
        x += c.width;
      }
      doc.y = y + h;
    };
    drawHeader();
    rows.forEach((row, r) => {
      doc.font(font()).fontSize(size);
      const h =
        Math.max(
          ...row.map((v, i) => doc.heightOfString(v || ' ', { width: (columns[i]?.width ?? 40) - pad * 2 })),
        ) +
        pad * 2;
      if (doc.y + h > bottom()) {
        doc.addPage();
        drawHeader();
      }
      const y = doc.y;
      let x = 36;
      row.forEach((v, i) => {
        const w = columns[i]?.width ?? 40;
        const bg = fill?.(r, i);
        if (bg) doc.rect(x + 1, y + 1, w - 2, h - 2).fill(bg);
        doc
          .font(fontFor(v, 'regular') === 'Helvetica' ? font() : font())
          .fontSize(size)
          .fillColor('#111827');
        doc.text(v, x + pad, y + pad, { width: w - pad * 2 });
        x += w;
      });
      doc
        .moveTo(36, y + h)
        .lineTo(36 + W, y + h)
        .lineWidth(0.3)
        .stroke('#e5e7eb');
      doc.y = y + h;
    });
    doc.x = 36;
  };

  /**
   * The CQC summary page (issue 37 §3): a row per quality statement, with its key question, name and published words;
   * the pack's figures for it; the sections and pages where its evidence is. Drawn last, on the page kept for it after
   * the cover, so it must fit that one page: its type shrinks until it does.
   */
  const drawSummary = (rows: SummaryRow[]) => {
    type Part = {
      text: string;
      size: number;
      bold?: boolean;
      colour?: string;
      gap?: number;
      bullet?: boolean;
    };
    const pad = 5;
    const cols = [290, 260, W - 550];
    const cell = (parts: Part[], x: number, y: number, w: number, draw: boolean) => {
      let h = 0;
      for (const p of parts) {
        doc.font(font(p.bold)).fontSize(p.size);
        // A bullet hangs: its text wraps under the text, not under the bullet.
        const indent = p.bullet ? p.size * 1.1 : 0;
        const opts = { width: w - indent, lineGap: 1 };
        if (draw) {
          doc.fillColor(p.colour ?? '#111827');
          if (p.bullet) doc.text('•', x, y + h, { lineBreak: false });
          doc.text(p.text, x + indent, y + h, opts);
        }
        h += doc.heightOfString(p.text, opts) + (p.gap ?? 0);
      }
      return h;
    };
    const partsOf = (row: SummaryRow, k: number): Part[][] => [
      [
        { text: `${row.statement.keyQuestion} · quality statement`, size: 7 * k, colour: '#6b7280', gap: 1 },
        { text: row.statement.name, size: 11 * k, bold: true, gap: 3 },
        { text: `“${row.statement.statement}”`, size: 7.5 * k, colour: '#4b5563', gap: 4 },
        { text: row.why, size: 8 * k },
      ],
      row.figures.map((text) => ({ text, size: 8.5 * k, gap: 2, bullet: true })),
      row.evidence.length
        ? row.evidence.map((e) => ({ text: `${e.section}: page ${e.page}`, size: 8.5 * k, gap: 2 }))
        : [{ text: 'Not in this pack.', size: 8.5 * k, colour: '#6b7280' }],
    ];
    const headers = ['Quality statement', 'Figures from this pack', 'Where the evidence is'];
    const heightOf = (parts: Part[][]) =>
      Math.max(...parts.map((p, i) => cell(p, 0, 0, (cols[i] ?? 0) - pad * 2, false))) + pad * 2;
    doc.font(font(true)).fontSize(16).fillColor('#111827').text(SUMMARY_TITLE, 36, 36, { width: W });
    doc.moveDown(0.2);
    para(SUMMARY_INTRO);
    doc.moveDown(0.3);
    para(`Figures as at ${generated}.`, 9, '#111827');
    doc.moveDown(0.6);
    const top = doc.y;
    const note =
      'Quoted from the CQC’s pages for each statement (cqc.org.uk, Assessment: single assessment framework). ' +
      'Statements a training record does not evidence on its own are not listed.';
    const room = bottom() - top - 24;
    let k = 1;
    const total = (scale: number) =>
      heightOf([headers.map((text) => ({ text, size: 8.5 * scale, bold: true }))]) +
      rows.reduce((sum, r) => sum + heightOf(partsOf(r, scale)), 0);
    while (k > 0.6 && total(k) > room) k -= 0.05;
    const drawRow = (parts: Part[][], y: number, fill: string | null) => {
      const h = heightOf(parts);
      if (fill) doc.rect(36, y, W, h).fill(fill);
      let x = 36;
      parts.forEach((p, i) => {
        cell(p, x + pad, y + pad, (cols[i] ?? 0) - pad * 2, true);
        x += cols[i] ?? 0;
      });
      doc
        .moveTo(36, y + h)
        .lineTo(36 + W, y + h)
        .lineWidth(0.4)
        .stroke('#d1d5db');
      return y + h;
    };
    let y = drawRow(
      headers.map((text) => [{ text, size: 8.5 * k, bold: true }]),
      top,
      '#f3f4f6',
    );
    for (const row of rows) y = drawRow(partsOf(row, k), y, null);
    doc
      .font(font())
      .fontSize(7)
      .fillColor('#6b7280')
      .text(note, 36, y + 8, { width: W });
  };

  // Cover and figures.
  doc.font(font(true)).fontSize(20).fillColor('#111827').text(`Inspection pack · ${data.home.name}`, 36, 40);
  para(
    'Training and competence of staff (CQC Regulation 18, Staffing): the training matrix, every gap with its plan,',
  );
  para("new starters' progress, and the certificates and evidence held for each person.");
  doc.moveDown(0.5);
  para(`Figures as at ${generated}. Prepared by ${data.preparedBy}.`, 10, '#111827');
  mark('figures');
  const gaps = packGaps(data, words);
  // The pack's figures, counted once: the cover and the CQC summary page print from them.
  const figures = packFigures(data, gaps);
  const starters = data.people.filter((p) => p.new_starter);
  doc.moveDown(0.5);
  table(
    [
      { header: 'People', width: 110 },
      { header: 'Required courses (Mandatory and Required)', width: 200 },
      { header: 'In date (includes expiring soon and exempt)', width: 220 },
      { header: 'Score', width: 80 },
      { header: 'Gaps (expired or missing)', width: 160 },
    ],
    [
      [
        String(figures.people),
        String(figures.required),
        String(figures.compliant),
        `${figures.score}%`,
        String(figures.gaps),
      ],
    ],
  );
  doc.moveDown(0.4);
  para(`New starters: ${figures.starters}. Certificates and evidence listed: ${figures.evidence}.`);
  doc.moveDown(0.4);
  para(`Legend: ${PDF_LEGEND.map((l) => l.text).join(' · ')}.`, 8);
  doc.moveDown(0.4);
  para("Page 2 maps these figures to the CQC's quality statements that training evidences.", 9, '#111827');

  // The CQC summary page (issue 37 §3): kept for page 2, drawn at the end when every section's page is known.
  doc.addPage();
  const summaryPage = pageNow() - 1;

  // The training matrix, one table per job role.
  doc.addPage();
  doc.font(font(true)).fontSize(14).fillColor('#111827').text('Training matrix by job role', 36, 36);
  mark('matrix');
  const byRole = new Map<string, PackPerson[]>();
  for (const p of data.people) byRole.set(p.role, [...(byRole.get(p.role) ?? []), p]);
  for (const [role, people] of byRole) {
    const courseIds = [
      ...new Set(people.flatMap((p) => p.cells.filter((c) => c.type !== 'none').map((c) => c.course_id))),
    ].sort((a, b) => (data.courses.get(a)?.title ?? '').localeCompare(data.courses.get(b)?.title ?? ''));
    heading(`${role} (${people.length})`);
    if (!courseIds.length) {
      para('No course is required of this role.');
      continue;
    }
    const fixed = 150 + 40;
    const cw = Math.max(48, Math.min(110, (W - fixed) / courseIds.length));
    const perTable = Math.max(1, Math.floor((W - fixed) / cw));
    for (let i = 0; i < courseIds.length; i += perTable) {
      const ids = courseIds.slice(i, i + perTable);
      const statuses: string[][] = [];
      table(
        [
          { header: 'Name', width: 150 },
          { header: 'Score', width: 40 },
          ...ids.map((id) => ({ header: data.courses.get(id)?.title ?? '', width: cw })),
        ],
        people.map((p) => {
          const st: string[] = ['', ''];
          const row = [
            p.name,
            `${p.score}%`,
            ...ids.map((id) => {
              const c = p.cells.find((x) => x.course_id === id && x.type !== 'none');
              st.push(c?.status ?? '');
              if (!c) return '';
              if (c.status === 'missing') return CELL_STATUS_LABELS.missing;
              if (c.status === 'exempt')
                return c.latest_result_expires
                  ? `${CELL_STATUS_LABELS.exempt} until ${formatDate(c.latest_result_expires, f)}`
                  : CELL_STATUS_LABELS.exempt;
              return c.latest_result_expires ? formatDate(c.latest_result_expires, f) : 'No expiry';
            }),
          ];
          statuses.push(st);
          return row;
        }),
        (r, col) => COLOURS[statuses[r]?.[col] ?? ''] ?? null,
      );
    }
  }

  // Gaps and plans.
  doc.addPage();
  doc.font(font(true)).fontSize(14).fillColor('#111827').text('Gaps and plans', 36, 36);
  mark('gaps');
  para(
    'Each Mandatory or Required course that is expired, never done, due or awaiting approval, the most overdue first. ' +
      "The plan is dated: the expiry, or a new starter's due date, and the person's next booked session of the course " +
      'where they have one.',
  );
  doc.moveDown(0.3);
  if (!gaps.length)
    para('No gaps: everyone is in date (or exempt) for every required course.', 10, '#111827');
  else
    table(
      [
        { header: 'Person', width: 130 },
        { header: 'Job role', width: 100 },
        { header: 'Course', width: 150 },
        { header: 'Type', width: 70 },
        { header: 'Status', width: 60 },
        { header: 'Due date', width: 70 },
        { header: 'Plan', width: W - 580 },
      ],
      gaps.map((g) => [
        g.person.name,
        g.person.role,
        g.course,
        g.kind,
        COURSE_STATUS_LABELS[g.status],
        g.due ? formatDate(g.due, f) : 'Now',
        g.plan,
      ]),
      (r, col) => (col === 4 ? (COLOURS[gaps[r]?.cell ?? ''] ?? null) : null),
    );

  // New starters.
  heading("New starters' progress");
  mark('starters');
  if (!starters.length) para('No new starters at this home.');
  else
    table(
      [
        { header: 'Person', width: 140 },
        { header: 'Job role', width: 110 },
        { header: 'Started', width: 70 },
        { header: 'New starter until', width: 90 },
        { header: 'Done', width: 70 },
        { header: 'Still to do', width: W - 480 },
      ],
      starters.map((p) => {
        const req = p.cells.filter((c) => c.type !== 'none');
        const todo = req
          .filter((c) => !c.in_date_passed)
          .map((c) => data.courses.get(c.course_id)?.title ?? '')
          .join(', ');
        return [
          p.name,
          p.role,
          formatDate(p.started, f),
          p.starterUntil ? formatDate(p.starterUntil, f) : '',
          `${req.filter((c) => c.in_date_passed).length} of ${req.length} (${p.score}%)`,
          todo || 'Nothing: all done',
        ];
      }),
    );

  // New starters' Care Certificate (under the organisation's own name for it).
  if (starters.length && data.careCertificates) {
    const cc = data.careCertificates;
    heading(`${cc.label}: new starters`);
    mark('careCertificate');
    table(
      [
        { header: 'Person', width: 160 },
        { header: 'Version', width: 80 },
        { header: 'Standards approved', width: 150 },
        { header: 'Workforce data set', width: 170 },
        { header: 'Expected by', width: 80 },
        { header: 'Progress', width: W - 640 },
      ],
      starters.map((p) => [
        p.name,
        ...packCareCertificateCells(cc.byUser.get(p.id), (d) => formatDate(d, f)),
      ]),
      (r, col) => (col === 5 && cc.byUser.get(starters[r]?.id ?? 0)?.overdue ? COLOURS.expired : null),
    );
  }

  // Policy receipts: who acknowledged which version of each document they must read, and who has not.
  if (data.receipts) {
    const receipts = data.receipts;
    heading('Policy receipts');
    mark('receipts');
    if (!receipts.length) para('No documents must be read at this home.');
    else
      table(
        [
          { header: 'Document', width: 170 },
          { header: 'Person', width: 140 },
          { header: 'Job role', width: 110 },
          { header: 'Version read', width: 80 },
          { header: 'Acknowledged on', width: 90 },
          { header: 'Status', width: W - 590 },
        ],
        receipts.map((r) => [
          `${r.document} (version ${r.version})`,
          r.person,
          r.role,
          r.acknowledgedVersion === null ? '' : `Version ${r.acknowledgedVersion}`,
          r.acknowledgedAt ? formatDate(r.acknowledgedAt, f) : '',
          RECEIPT_STATE_LABELS[r.state],
        ]),
        (row, col) =>
          col === 5 && receipts[row]?.state !== 'current'
            ? (COLOURS[receipts[row]?.state === 'none' ? 'missing' : 'expired'] ?? null)
            : null,
      );
  }

  // The audit trail of the last 12 months (issue 35 §3; rows from inspection-pack-audit.ts).
  if (data.audit) {
    heading('Changes to training records (last 12 months)');
    mark('changes');
    para(
      `Who recorded, approved, changed or removed training, exemptions, requirements, roles and settings since ${formatDate(data.audit.since, f)}, newest first.` +
        (data.audit.total > data.audit.entries.length
          ? ` The latest ${data.audit.entries.length} of ${data.audit.total} changes are listed; the full history is in the app.`
          : ''),
    );
    doc.moveDown(0.3);
    if (!data.audit.entries.length) para('No changes recorded.');
    else
      table(
        [
          { header: 'When', width: 100 },
          { header: 'What happened', width: W - 190 },
          { header: 'From address', width: 90 },
        ],
        packAuditRows(data.audit, { entity: 'home', dateFormat: f }),
      );
  }

  // Certificates and evidence per person.
  doc.addPage();
  doc.font(font(true)).fontSize(14).fillColor('#111827').text('Certificates and evidence', 36, 36);
  mark('evidence');
  para(
    'The latest completion of each course per person. Certificates and evidence files are in the zip, in a folder per ' +
      'person (certificates/<person>/, evidence/<person>/).',
  );
  doc.moveDown(0.3);
  const personOf = new Map(data.people.map((p) => [p.id, p]));
  const evidenceRows = data.evidence
    .filter((e) => personOf.has(e.userId))
    .sort(
      (a, b) =>
        (personOf.get(a.userId)?.name ?? '').localeCompare(personOf.get(b.userId)?.name ?? '') ||
        (data.courses.get(a.courseId)?.title ?? '').localeCompare(data.courses.get(b.courseId)?.title ?? ''),
    );
  if (!evidenceRows.length) para('No completed training recorded yet.');
  else
    table(
      [
        { header: 'Person', width: 140 },
        { header: 'Course', width: 170 },
        { header: 'Completed', width: 70 },
        { header: 'Expires', width: 70 },
        { header: 'Certificate', width: 80 },
        { header: 'Evidence file', width: W - 530 },
      ],
      evidenceRows.map((e) => [
        personOf.get(e.userId)?.name ?? '',
        data.courses.get(e.courseId)?.title ?? '',
        formatDate(e.completed, f),
        e.expires ? formatDate(e.expires, f) : 'No expiry',
        e.type === 'exempt' ? 'Exempt' : e.type === 'document' ? 'Policy receipt' : 'In the zip',
        e.file?.name ?? '',
      ]),
    );

  // Exemptions (issue 28 item 6): who is excused from what, why, and until when (after it the course is required
  // again). Only those still running: an ended one is an expired cell, listed under the gaps.
  const exemptions = runningExemptions(evidenceRows, data.generatedAt);
  if (exemptions.length) {
    doc.moveDown(0.8);
    if (doc.y > bottom() - 60) doc.addPage();
    doc.font(font(true)).fontSize(12).fillColor('#111827').text('Exemptions', 36);
    mark('exemptions');
    para('People excused from a required course: they count as compliant until the end date.');
    doc.moveDown(0.3);
    table(
      [
        { header: 'Person', width: 140 },
        { header: 'Course', width: 170 },
        { header: 'From', width: 70 },
        { header: 'Until', width: 70 },
        { header: 'Reason', width: W - 450 },
      ],
      exemptions.map((e) => [
        personOf.get(e.userId)?.name ?? '',
        data.courses.get(e.courseId)?.title ?? '',
        formatDate(e.completed, f),
        e.expires ? formatDate(e.expires, f) : 'No end date',
        e.notes ?? 'No reason recorded',
      ]),
    );
  }

  // Sign-off (issue 33 §6): who reviewed the pack, when, the declaration, and a line to sign, on paper.
  if (doc.y > bottom() - 230) doc.addPage();
  else doc.moveDown(1.5);
  doc.font(font(true)).fontSize(14).fillColor('#111827').text('Sign-off', 36);
  mark('signOff');
  doc.moveDown(0.3);
  para(packDeclaration(data.home.name, generated), 10, '#111827');
  doc.moveDown(0.3);
  para(`Pack prepared by ${data.preparedBy}.`);
  doc.moveDown(1);
  const line = (label: string, x: number, width: number) => {
    const y = doc.y;
    doc.font(font(true)).fontSize(10).fillColor('#111827').text(label, x, y, { lineBreak: false });
    const start = x + doc.widthOfString(label) + 6;
    doc
      .moveTo(start, y + 11)
      .lineTo(x + width, y + 11)
      .lineWidth(0.6)
      .stroke('#374151');
    doc.y = y;
  };
  const half = (W - 24) / 2;
  const rowGap = 30;
  line('Reviewed by (name):', 36, half);
  line('Role:', 36 + half + 24, half);
  doc.y += rowGap;
  line('Date:', 36, half);
  doc.y += rowGap;
  line('Signature:', 36, half);
  doc.y += rowGap;
  doc.x = 36;

  // The CQC summary page, on the page kept for it after the cover.
  doc.switchToPage(summaryPage);
  drawSummary(packSummaryRows(figures, pages, data.careCertificates?.label ?? 'Care Certificate'));

  // Footer on every page: the home, when the PDF was made and when its figures were read, page n of m.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - 30;
    doc.page.margins.bottom = 0;
    doc
      .font(font())
      .fontSize(7)
      .fillColor('#6b7280')
      .text(`Inspection pack · ${data.home.name} · Generated at ${made}, data as of ${generated}`, 36, y, {
        lineBreak: false,
      });
    const label = `Page ${i + 1} of ${range.count}`;
    doc.text(label, doc.page.width - 36 - doc.widthOfString(label), y, { lineBreak: false });
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** The zip: the pack PDF, the home's training matrix PDF, the evidence files and the certificates, by person. */
export async function packZip(
  ctx: Ctx,
  data: PackData,
  pdf: Buffer,
): Promise<{ stream: Readable; files: string[] }> {
  const zip = new yazl.ZipFile();
  const files: string[] = [];
  const slugOf = fileSafe(data.home.name);
  zip.addBuffer(pdf, `inspection-pack-${slugOf}.pdf`, { compress: false });
  files.push(`inspection-pack-${slugOf}.pdf`);
  const plan = await planMatrix(ctx, { entities: [data.home.id], compliance_type: 'all', deep: true }, [
    ReportsPerm.complianceReport,
  ]);
  const matrix = await matrixPdf(ctx, plan, {
    title: 'Compliance matrix',
    scopeName: data.home.name,
    generatedAt: data.generatedAt,
    dateFormat: data.dateFormat,
  });
  const matrixBytes: Buffer[] = [];
  for await (const c of matrix) matrixBytes.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  zip.addBuffer(Buffer.concat(matrixBytes), `training-matrix-${slugOf}.pdf`, { compress: false });
  files.push(`training-matrix-${slugOf}.pdf`);
  const personOf = new Map(data.people.map((p) => [p.id, p]));
  const used = new Set<string>(files);
  const unique = (name: string) => {
    let n = 1;
    let candidate = name;
    while (used.has(candidate)) candidate = name.replace(/(\.[^.]*)?$/, (ext) => `-${++n}${ext}`);
    used.add(candidate);
    return candidate;
  };
  for (const e of data.evidence) {
    const person = personOf.get(e.userId);
    if (!person) continue;
    const folder = fileSafe(person.name);
    const course = fileSafe(data.courses.get(e.courseId)?.title ?? `course-${e.courseId}`);
    if (e.file) {
      const stored = await ctx.storage.get(e.file.key);
      if (stored) {
        const name = unique(`evidence/${folder}/${course}-${fileSafe(e.file.name)}`);
        zip.addBuffer(stored, name);
        files.push(name);
      }
    }
    // An acknowledgement has no training certificate: its receipt is in the pack (Policy receipts).
    if (e.type !== 'exempt' && e.type !== 'document') {
      try {
        const cert = await trainingCertificate(ctx, person.uuid, { result_id: e.resultId });
        const bytes: Buffer[] = [];
        for await (const c of cert.stream as Readable) bytes.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
        const name = unique(`certificates/${folder}/${course}.pdf`);
        zip.addBuffer(Buffer.concat(bytes), name, { compress: false });
        files.push(name);
      } catch {
        // No certificate for this result (suppressed, or the caller may not see certificates): listed, not zipped.
      }
    }
  }
  zip.end();
  const out = new PassThrough();
  (zip.outputStream as unknown as Readable).pipe(out);
  return { stream: out, files };
}

// --- The job.

async function setProgress(ctx: Pick<Ctx, 'db'>, id: number, progress: number) {
  await ctx.db
    .updateTable('inspection_packs')
    .set({ progress: Math.max(0, Math.min(1, progress)), status: 'running' })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

type PackPayload = { pack_id: number; acting_as: string | null };

async function runInspectionPack(job: JobContext, payload: PackPayload) {
  await trackJobTask(job, (tracker) => makeInspectionPack(job, payload, tracker));
}

async function makeInspectionPack(job: JobContext, payload: PackPayload, tracker: TaskTracker) {
  const row = await packRow(job, { id: payload.pack_id });
  if (!row) throw new PermanentJobError('The inspection pack no longer exists.');
  try {
    const actor = await loadActor(job.db, row.requested_by, {
      via: 'session',
      sessionId: `job:${job.job.id}`,
    });
    if (!actor) throw new PermanentJobError('The user no longer exists.');
    const ctx: Ctx = { ...job, actor, ip: null, userAgent: null, memo: new Map(), clock: () => job.now };
    if (payload.acting_as) actor.actingAs = await resolveActingAs(ctx, payload.acting_as, actor);
    const progress = async (p: number) => {
      await setProgress(job, row.id, p);
      await tracker.progress(Math.round(p * 100), 100);
    };
    await progress(0.05);
    const data = await gatherPack(ctx, { id: row.entity_id, name: row.name }, progress);
    const wl = await ctx.db
      .selectFrom('entities')
      .select('whitelabel')
      .where('id', '=', row.entity_id)
      .executeTakeFirst();
    const w = (wl?.whitelabel ?? {}) as Record<string, unknown>;
    const words = {
      primary: typeof w.primaryComplianceAltName === 'string' ? w.primaryComplianceAltName : 'Mandatory',
      secondary: typeof w.secondaryComplianceAltName === 'string' ? w.secondaryComplianceAltName : 'Required',
    };
    const pdf = await packPdf(data, words);
    await progress(0.6);
    const pdfKey = await ctx.storage.put('inspection-packs', pdf, 'pdf');
    const { stream } = await packZip(ctx, data, pdf);
    await progress(0.8);
    const zipKey = newKey('inspection-packs', 'zip');
    await ctx.storage.write(zipKey, stream, 'application/zip');
    await job.db
      .updateTable('inspection_packs')
      .set({ status: 'done', progress: 1, pdf_key: pdfKey, zip_key: zipKey, finished_at: job.now })
      .where('id', '=', row.id)
      .execute();
    // The pack's own files (its page serves them too): the task links to them, it does not own them.
    const day = formatDate(job.now, 'YYYY-MM-DD');
    return {
      file: {
        key: zipKey,
        filename: `inspection-pack-${fileSafe(row.name)}-${day}.zip`,
        contentType: 'application/zip',
      },
      summary: 'The PDF summary and the evidence, in one zip file.',
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (tracker.taskId !== null)
      await failTask(
        job.db,
        tracker.taskId,
        'The inspection pack could not be made. Please try again.',
        job.now,
      );
    await job.db
      .updateTable('inspection_packs')
      .set({
        status: 'failed',
        error: 'The inspection pack could not be made. Please try again.',
        finished_at: job.now,
      })
      .where('id', '=', row.id)
      .execute();
    throw new PermanentJobError(message);
  }
}

let registered = false;
export function registerInspectionPackJob(): void {
  if (registered) return;
  registered = true;
  registerJob(INSPECTION_PACK_JOB, runInspectionPack as never, { maxAttempts: 1, timeoutSeconds: 900 });
}

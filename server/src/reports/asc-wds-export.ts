import { Readable } from 'node:stream';
import {
  ASC_WDS_TRAINING_HEADERS,
  type AscWdsCategoryBody,
  type AscWdsCourse,
  AscWdsMessages,
  type AscWdsPreview,
  type AscWdsRow,
  type AscWdsSettingsBody,
  type AscWdsSince,
  calendarDay,
  Perm,
  ReportsPerm,
  suggestAscWdsCategory,
} from '@cc/contracts';
import { sql } from 'kysely';
import { recordAudit } from '../audit/record';
import { visibleCourseClause } from '../courses/visibility';
import { assertEntityInScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { HttpError, notFound } from '../http/errors';
import { type CsvRow, csvChunks, csvLine } from '../importer/csv';
import { trainingRowErrors } from '../importer/plan';

/**
 * The ASC-WDS training export (issue 37 §1; contracts asc-wds.ts for the format and its source, docs/asc-wds-export.md).
 *
 * Per home (its subtree): every approved, passed, not deleted training record of its people, one row per (person,
 * course, completion day), as the bulk upload training file of Skills for Care's workforce data set: LOCALESTID the
 * home's workplace ID (asc_wds_settings), UNIQUEWORKERID the person's employee number, CATEGORY the course's ASC-WDS
 * category in the home's organisation (asc_wds_course_categories), TRAININGNAME the course title, ACCREDITED from the
 * record's "Accredited: …" line (the importer writes it there), dates DD/MM/YYYY, NOTES the rest of the record's notes.
 *
 * Left out, and listed on the page with a way to fix each: records of a course with no category, people with no
 * employee number, and any row the importer's own checks refuse (importer/plan.ts trainingRowErrors, run on the
 * written file as read back by the importer's parser, so the file and the importer cannot disagree).
 *
 * since=last: ASC-WDS replaces ALL the training of each worker named in the file, so the file holds every record of
 * each person who has a change since this home's last export (a record added, changed or deleted, or a category
 * mapped), never a lone record. since=all: everyone. Each download is recorded (asc_wds_exports).
 */

const EXPORT_PERMS = [ReportsPerm.complianceReport, ReportsPerm.complianceExcel] as const;

const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const ACCREDITED_LINE = /^Accredited: (Yes|No|Don't know)$/m;
const ACCREDITED_CODE = { Yes: '1', No: '0', "Don't know": '999' } as const;

async function scopedHome(ctx: Ctx, slug: string) {
  actorOf(ctx);
  const home = await ctx.db
    .selectFrom('entities as e')
    .leftJoin('asc_wds_settings as s', 's.entity_id', 'e.id')
    .select([
      'e.id',
      'e.slug',
      'e.name',
      's.local_establishment_id',
      sql<number>`importer_a_entity(e.id)`.as('organisation_id'),
    ])
    .where('e.slug', '=', slug)
    .executeTakeFirst();
  if (!home) throw notFound();
  await assertEntityInScope(ctx, home.id);
  return home;
}
type Home = Awaited<ReturnType<typeof scopedHome>>;

interface RecordRow {
  user_id: number;
  uuid: string;
  name: string;
  email: string;
  employee_number: string | null;
  course_id: number;
  title: string;
  category: number | null;
  completed_at: Date;
  expires_at: Date | null;
  notes: string | null;
  changed: boolean;
}

async function lastExport(ctx: Ctx, homeId: number) {
  return ctx.db
    .selectFrom('asc_wds_exports as x')
    .leftJoin('users as u', 'u.id', 'x.created_by')
    .select(['x.created_at', 'x.since', 'x.row_count', 'u.name as by'])
    .where('x.entity_id', '=', homeId)
    .orderBy('x.created_at', 'desc')
    .orderBy('x.id', 'desc')
    .executeTakeFirst();
}

/**
 * The records of the home's people (current staff: not erased, not left before today), with whether the person has
 * a change since `after` (null: everyone counts as changed).
 */
async function records(ctx: Ctx, home: Home, after: Date | null): Promise<RecordRow[]> {
  const ids = await subtreeIds(ctx.db, home.id);
  const today = calendarDay(ctx.clock());
  const { rows } = await sql<RecordRow>`
    WITH people AS (
      SELECT u.id, u.uuid, u.name, u.email, u.employee_number FROM users u
       WHERE u.primary_entity_id = ANY(${ids}::int[]) AND u.erased_at IS NULL
         AND (u.left_on IS NULL OR u.left_on >= ${today}::date)
    ), recs AS (
      SELECT DISTINCT ON (r.user_id, r.course_id, (r.completed_at AT TIME ZONE 'Europe/London')::date)
             r.user_id, r.course_id, r.completed_at, r.expires_at, r.notes
        FROM results r JOIN people p ON p.id = r.user_id
       WHERE r.deleted_at IS NULL AND r.status = 'approved' AND r.passed
       ORDER BY r.user_id, r.course_id, (r.completed_at AT TIME ZONE 'Europe/London')::date, r.id DESC
    ), changed AS (
      SELECT DISTINCT r.user_id FROM results r JOIN people p ON p.id = r.user_id
       WHERE ${after}::timestamptz IS NULL
          OR r.created_at > ${after}::timestamptz OR r.updated_at > ${after}::timestamptz
          OR r.deleted_at > ${after}::timestamptz
          OR EXISTS (SELECT 1 FROM asc_wds_course_categories m
                      WHERE m.organisation_id = ${home.organisation_id} AND m.course_id = r.course_id
                        AND m.updated_at > ${after}::timestamptz)
    )
    SELECT p.id AS user_id, p.uuid, p.name, p.email, p.employee_number, c.id AS course_id, c.title, m.category,
           recs.completed_at, recs.expires_at, recs.notes, (ch.user_id IS NOT NULL) AS changed
      FROM recs JOIN people p ON p.id = recs.user_id
      JOIN courses c ON c.id = recs.course_id
      LEFT JOIN asc_wds_course_categories m ON m.organisation_id = ${home.organisation_id} AND m.course_id = c.id
      LEFT JOIN changed ch ON ch.user_id = p.id
     ORDER BY p.name, p.id, c.title, recs.completed_at`.execute(ctx.db);
  return rows;
}

/** A record's cells under ASC_WDS_TRAINING_HEADERS. */
function cellsOf(localId: string, r: RecordRow & { category: number; employee_number: string }) {
  const accredited = r.notes
    ? (ACCREDITED_LINE.exec(r.notes)?.[1] as keyof typeof ACCREDITED_CODE)
    : undefined;
  const notes = (r.notes ?? '')
    .replace(ACCREDITED_LINE, '')
    .replace(/^\n+|\n+$/g, '')
    .replace(/\n\n+/g, '\n');
  const completed = calendarDay(new Date(r.completed_at));
  const expires = r.expires_at ? calendarDay(new Date(r.expires_at)) : null;
  return {
    row: {
      LOCALESTID: localId,
      UNIQUEWORKERID: r.employee_number,
      CATEGORY: String(r.category),
      TRAININGNAME: r.title,
      ACCREDITED: accredited ? ACCREDITED_CODE[accredited] : '',
      WHODELIVERED: '',
      PROVIDERNAME: '',
      HOWDELIVERED: '',
      VALIDITY: '',
      DATECOMPLETED: dmy(completed),
      EXPIRYDATE: expires ? dmy(expires) : '',
      NOTES: notes,
    } satisfies Record<(typeof ASC_WDS_TRAINING_HEADERS)[number], string>,
    completed,
    expires,
    accredited: accredited ? ACCREDITED_CODE[accredited] : null,
  };
}

const fileOf = (rows: Record<string, string>[]) =>
  `${[
    ASC_WDS_TRAINING_HEADERS.join(','),
    ...rows.map((r) => csvLine(ASC_WDS_TRAINING_HEADERS.map((h) => r[h]))),
  ].join('\r\n')}\r\n`;

/** Reads the file back with the importer's parser and checks each row with the importer's rules. */
async function refusedRows(ctx: Ctx, body: string) {
  const refused = new Map<number, { column: string; message: string }[]>();
  const now = ctx.clock();
  for await (const chunk of csvChunks('training', Readable.from([body]), 1000, () => {})) {
    for (const row of chunk as CsvRow[]) {
      const errors = trainingRowErrors(row.fields, now, true).errors;
      if (row.formula)
        errors.unshift({ column: row.formula, message: 'A cell reads as a spreadsheet formula.' });
      if (errors.length) refused.set(row.rowNumber, errors);
    }
  }
  return refused;
}

interface Built {
  home: Home;
  rows: AscWdsRow[];
  file: string;
  courses: AscWdsCourse[];
  missingId: AscWdsPreview['missing_id'];
  invalid: AscWdsPreview['invalid'];
  last: Awaited<ReturnType<typeof lastExport>>;
}

async function build(ctx: Ctx, slug: string, since: AscWdsSince): Promise<Built> {
  const home = await scopedHome(ctx, slug);
  authorize(ctx, EXPORT_PERMS);
  const last = await lastExport(ctx, home.id);
  const all = await records(ctx, home, since === 'last' && last ? new Date(last.created_at) : null);
  const wanted = all.filter((r) => r.changed);

  const courses = new Map<number, AscWdsCourse>();
  const missingId = new Map<string, AscWdsPreview['missing_id'][number]>();
  for (const r of all) {
    const course = courses.get(r.course_id) ?? {
      id: r.course_id,
      title: r.title,
      category: r.category,
      suggestion: r.category === null ? suggestAscWdsCategory(r.title) : null,
      records: 0,
    };
    courses.set(r.course_id, course);
  }
  const candidates: { record: AscWdsRow; cells: Record<string, string> }[] = [];
  for (const r of wanted) {
    const course = courses.get(r.course_id);
    if (course) course.records += 1;
    if (!r.employee_number) {
      const person = missingId.get(r.uuid) ?? { uuid: r.uuid, name: r.name, email: r.email, records: 0 };
      person.records += 1;
      missingId.set(r.uuid, person);
      continue;
    }
    if (r.category === null || !home.local_establishment_id) continue;
    const { row, completed, expires, accredited } = cellsOf(home.local_establishment_id, {
      ...r,
      category: r.category,
      employee_number: r.employee_number,
    });
    candidates.push({
      record: {
        person: { uuid: r.uuid, name: r.name, employee_number: r.employee_number },
        course: { id: r.course_id, title: r.title },
        category: r.category,
        completed_on: completed,
        expires_on: expires,
        accredited,
      },
      cells: row,
    });
  }
  // Row n of the file is candidate n - 2 (the header is row 1).
  const refused = await refusedRows(ctx, fileOf(candidates.map((c) => c.cells)));
  const invalid: AscWdsPreview['invalid'] = [];
  const kept = candidates.filter((c, i) => {
    const errors = refused.get(i + 2);
    for (const e of errors ?? [])
      invalid.push({ person: c.record.person.name, course: c.record.course.title, ...e });
    return !errors;
  });
  return {
    home,
    rows: kept.map((c) => c.record),
    file: fileOf(kept.map((c) => c.cells)),
    courses: [...courses.values()].sort((a, b) => a.title.localeCompare(b.title)),
    missingId: [...missingId.values()],
    invalid,
    last,
  };
}

/** GET /entities/{slug}/asc-wds/training: what the file will hold and what is left out. */
export async function ascWdsPreview(ctx: Ctx, slug: string, since: AscWdsSince): Promise<AscWdsPreview> {
  const b = await build(ctx, slug, since);
  const actor = actorOf(ctx);
  return {
    home: {
      id: b.home.id,
      slug: b.home.slug,
      name: b.home.name,
      local_establishment_id: b.home.local_establishment_id,
    },
    since,
    last_export: b.last
      ? {
          at: new Date(b.last.created_at).toISOString(),
          by: b.last.by,
          since: b.last.since,
          rows: b.last.row_count,
        }
      : null,
    rows: b.rows,
    courses: b.courses,
    missing_id: b.missingId,
    invalid: b.invalid,
    may_map: true,
    may_set_id: can(actor, [Perm.updateEntity]),
  };
}

/**
 * POST /entities/{slug}/asc-wds/exports: the file, recorded as this home's latest export (a POST: it moves "since the
 * last export", so a link followed from elsewhere must not). 422 without a workplace ID or with nothing to send.
 */
export async function ascWdsExport(ctx: Ctx, slug: string, since: AscWdsSince) {
  // The export counts from before its records were read: a change made while it runs is sent again next time.
  const startedAt = ctx.clock();
  const b = await build(ctx, slug, since);
  if (!b.home.local_establishment_id)
    throw new HttpError(422, AscWdsMessages.noLocalId, {
      local_establishment_id: [AscWdsMessages.noLocalId],
    });
  if (!b.rows.length)
    throw new HttpError(422, AscWdsMessages.nothingToSend, { since: [AscWdsMessages.nothingToSend] });
  await ctx.db
    .insertInto('asc_wds_exports')
    .values({
      entity_id: b.home.id,
      created_by: actorOf(ctx).userId,
      since,
      row_count: b.rows.length,
      created_at: startedAt,
    })
    .execute();
  const day = calendarDay(ctx.clock());
  const safe = b.home.slug.replace(/[^a-z0-9-]/gi, '');
  return { filename: `asc-wds-training-${safe}-${day}.csv`, body: b.file, rows: b.rows.length };
}

/** GET /entities/{slug}/asc-wds: the home's workplace ID. */
export async function ascWdsSettings(ctx: Ctx, slug: string) {
  const home = await scopedHome(ctx, slug);
  authorize(ctx, [Perm.updateEntity, ...EXPORT_PERMS], 'any');
  return { local_establishment_id: home.local_establishment_id };
}

/** PUT /entities/{slug}/asc-wds: "update organisation" (2), as the organisation's other settings. */
export async function saveAscWdsSettings(ctx: Ctx, slug: string, body: AscWdsSettingsBody) {
  const home = await scopedHome(ctx, slug);
  authorize(ctx, [Perm.updateEntity]);
  const value = body.local_establishment_id;
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('asc_wds_settings')
      .select('local_establishment_id')
      .where('entity_id', '=', home.id)
      .forUpdate()
      .executeTakeFirst();
    if ((before?.local_establishment_id ?? null) === value) return;
    await trx
      .insertInto('asc_wds_settings')
      .values({ entity_id: home.id, local_establishment_id: value, updated_at: ctx.clock() })
      .onConflict((oc) =>
        oc.column('entity_id').doUpdateSet({ local_establishment_id: value, updated_at: ctx.clock() }),
      )
      .execute();
    await recordAudit(trx, ctx, {
      action: 'updated',
      kind: 'entity',
      subjectId: home.id,
      entityId: home.id,
      label: home.name,
      before: { asc_wds_local_establishment_id: before?.local_establishment_id ?? null },
      after: { asc_wds_local_establishment_id: value },
    });
  });
  return { local_establishment_id: value };
}

/**
 * PUT /entities/{slug}/asc-wds/categories/{courseId}: the course's category in the home's organisation (the export's
 * permissions; the course must be one the caller can see, else 404). null removes the mapping.
 */
export async function saveAscWdsCategory(ctx: Ctx, slug: string, courseId: number, body: AscWdsCategoryBody) {
  const home = await scopedHome(ctx, slug);
  authorize(ctx, EXPORT_PERMS);
  const course = await ctx.db
    .selectFrom('courses as c')
    .select(['c.id', 'c.title'])
    .where('c.id', '=', courseId)
    .where(await visibleCourseClause(ctx))
    .executeTakeFirst();
  if (!course) throw notFound();
  if (body.category === null)
    await ctx.db
      .deleteFrom('asc_wds_course_categories')
      .where('organisation_id', '=', home.organisation_id)
      .where('course_id', '=', course.id)
      .execute();
  else
    await ctx.db
      .insertInto('asc_wds_course_categories')
      .values({
        organisation_id: home.organisation_id,
        course_id: course.id,
        category: body.category,
        updated_at: ctx.clock(),
      })
      .onConflict((oc) =>
        oc
          .columns(['organisation_id', 'course_id'])
          .doUpdateSet({ category: body.category ?? 0, updated_at: ctx.clock() })
          .where('asc_wds_course_categories.category', '!=', body.category ?? 0),
      )
      .execute();
  return { course_id: course.id, category: body.category, suggestion: suggestAscWdsCategory(course.title) };
}

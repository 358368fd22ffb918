import { Readable } from 'node:stream';
import {
  CRITERIA_IMPORT_MAX_BYTES,
  CRITERIA_IMPORT_MAX_ROWS,
  type CriteriaImportResult,
  type CriteriaImportRow,
  type CriterionKind,
  CareCertificateMessages as M,
  type StandardGaps,
  type VersionGaps,
} from '@cc/contracts';
import type ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { actorOf, type Ctx } from '../http/context';
import { type FieldErrors, forbidden, invalid, invalidField, notFound } from '../http/errors';
import { FORMULA, normaliseHeader } from '../importer/csv';
import { CsvReadError, csvRecords } from '../importer/csv-records';
import type { DbOrTrx } from '../jobs/queries';
import { type EvidenceUpload, readUploadForm } from '../results/evidence';
import { versionTree } from './queries';
import { standardSources, versionSources } from './standards-sources';

/**
 * Importing a version's criteria (issue 32 §2): a super admin uploads a CSV or an Excel workbook (code, outcome,
 * wording, kind; optionally version) for one version. The preview changes nothing and says what would be added,
 * changed or left unchanged; the import applies the same plan in one transaction under the version's row lock (the
 * lock an assignment reads its standards under). The standards are global data: once imported, every organisation's
 * certificates on that version have the criteria. A file with any bad row is refused whole (422, one error per row
 * and column, keyed `rows.{row}.{column}`), so a 2025 file never half-lands in 2015.
 */

type Column = 'code' | 'outcome' | 'wording' | 'kind' | 'version';
const ALIASES: Record<Column, string[]> = {
  code: ['code', 'criterioncode', 'criterion code', 'ref', 'reference'].map(normaliseHeader),
  outcome: ['outcome', 'learningoutcome', 'outcomecode'],
  wording: ['wording', 'text', 'criterion', 'criteriontext', 'assessmentcriterion', 'description'],
  kind: ['kind', 'type', 'evidence', 'evidencetype', 'evidencedby'],
  version: ['version', 'versioncode', 'standardsversion'],
};
const REQUIRED: Column[] = ['code', 'wording', 'kind'];

const CODE = /^(\d{1,2})\.(\d{1,2})([a-z])$/i;
const OUTCOME = /^(\d{1,2})\.(\d{1,2})(?:\s*[-–:.]?\s+(.*))?$/;
const KINDS: Record<string, CriterionKind> = {
  knowledge: 'knowledge',
  k: 'knowledge',
  observed: 'observed',
  observation: 'observed',
  o: 'observed',
};

function superAdmin(ctx: Ctx) {
  const actor = actorOf(ctx);
  if (!actor.superAdmin) throw forbidden();
  return actor;
}

// --- Gaps -------------------------------------------------------------------------------------------------------

const outcomeMinor = (code: string) => {
  const m = /^\d{1,2}\.(\d{1,2})$/.exec(code);
  return m ? Number(m[1]) : null;
};

/** What a version still lacks, from its own data: standards without criteria, skipped letters, skipped outcomes. */
export async function gapsOf(db: DbOrTrx, versionId: number): Promise<VersionGaps> {
  const version = await db
    .selectFrom('care_certificate_versions')
    .select(['id', 'code', 'title'])
    .where('id', '=', versionId)
    .executeTakeFirst();
  if (!version) throw notFound();
  const tree = await versionTree(db, versionId);
  const standards: StandardGaps[] = tree.map((s) => {
    const missing: string[] = [];
    const minors = s.outcomes.map((o) => outcomeMinor(o.code)).filter((n): n is number => n !== null);
    const maxMinor = minors.length ? Math.max(...minors) : 0;
    for (let m = 1; m < maxMinor; m += 1)
      if (!minors.includes(m)) missing.push(`${s.number}.${m} (the whole outcome)`);
    for (const o of s.outcomes) {
      const letters = o.criteria
        .map((c) => CODE.exec(c.code)?.[3]?.toLowerCase())
        .filter((l): l is string => l !== undefined);
      if (letters.length === 0) {
        missing.push(`${o.code} (every criterion)`);
        continue;
      }
      const last = Math.max(...letters.map((l) => l.charCodeAt(0)));
      for (let c = 97; c < last; c += 1) {
        const l = String.fromCharCode(c);
        if (!letters.includes(l)) missing.push(`${o.code}${l}`);
      }
    }
    const count = s.outcomes.reduce((n, o) => n + o.criteria.length, 0);
    return {
      number: s.number,
      title: s.title,
      criteria_count: count,
      missing,
      sources: standardSources(version.code, s.number),
    };
  });
  const without = standards.filter((s) => s.criteria_count === 0).map((s) => s.number);
  return {
    version_id: version.id,
    code: version.code,
    title: version.title,
    complete: standards.length > 0 && without.length === 0,
    standards_without_criteria: without,
    standards,
    sources: versionSources(version.code),
  };
}

/** GET /care-certificate-versions/{id}/gaps: any signed-in user (the standards are the same for everyone). */
export async function versionGaps(ctx: Ctx, versionId: number): Promise<VersionGaps> {
  actorOf(ctx);
  return gapsOf(ctx.db, versionId);
}

// --- Reading the file -------------------------------------------------------------------------------------------

export type CriteriaFile = Pick<EvidenceUpload, 'filename' | 'bytes' | 'truncated'>;

/** The multipart form's `file` part (buffered up to the limit; a bigger one is marked truncated → 422). */
export async function readCriteriaUpload(request: FastifyRequest): Promise<CriteriaFile | null> {
  const form = await readUploadForm(request, {
    fileField: 'file',
    maxBytes: CRITERIA_IMPORT_MAX_BYTES,
    maxFields: 5,
  });
  return form.file;
}

const isXlsx = (file: CriteriaFile) =>
  file.bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) ||
  file.filename.toLowerCase().endsWith('.xlsx');

/** A cell of the workbook as text; a formula reads as one (starting "="), so it is refused like a CSV formula. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('formula' in value) return `=${String(value.formula)}`;
    if ('sharedFormula' in value) return `=${String(value.sharedFormula)}`;
    if ('richText' in value)
      return value.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in value) return String(value.text).trim();
  }
  return String(value).trim();
}

async function records(file: CriteriaFile): Promise<string[][]> {
  const unreadable = () => invalidField('file', 'This file cannot be read: save it as CSV or Excel (.xlsx).');
  if (isXlsx(file)) {
    // Loaded on first use, as writers.ts does: exceljs costs every server process ~20 MB of memory otherwise.
    const { default: Excel } = await import('exceljs');
    const wb = new Excel.Workbook();
    try {
      await wb.xlsx.load(file.bytes as unknown as ArrayBuffer);
    } catch {
      throw unreadable();
    }
    const sheet = wb.worksheets[0];
    if (!sheet) return [];
    const out: string[][] = [];
    for (let r = 1; r <= sheet.rowCount; r += 1) {
      const row = sheet.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= Math.max(row.cellCount, sheet.columnCount); c += 1)
        cells.push(cellText(row.getCell(c).value));
      out.push(cells);
    }
    return out;
  }
  const out: string[][] = [];
  try {
    for await (const record of csvRecords(Readable.from([file.bytes]))) out.push(record.map((c) => c.trim()));
  } catch (e) {
    if (e instanceof CsvReadError) throw unreadable();
    throw e;
  }
  return out;
}

interface FileRow {
  row: number;
  cells: Partial<Record<Column, string>>;
}

async function fileRows(file: CriteriaFile | null): Promise<FileRow[]> {
  if (!file || file.bytes.length === 0) throw invalidField('file', M.criteriaFileRequired);
  if (file.truncated) throw invalidField('file', M.criteriaFileTooBig);
  const all = await records(file);
  let headerAt = all.findIndex((r) => r.some((c) => c !== ''));
  if (headerAt < 0) throw invalidField('file', 'The file is empty: the first row names the columns.');
  const headers = (all[headerAt] ?? []).map(normaliseHeader);
  const columns = headers.map(
    (h) =>
      (Object.entries(ALIASES) as [Column, string[]][]).find(([, names]) => names.includes(h))?.[0] ?? null,
  );
  const missing = REQUIRED.filter((c) => !columns.includes(c));
  if (missing.length)
    throw invalidField(
      'file',
      `The first row names the columns: ${missing.map((c) => `"${c}"`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (code, outcome, wording, kind).`,
    );
  const rows: FileRow[] = [];
  for (headerAt += 1; headerAt < all.length; headerAt += 1) {
    const record = all[headerAt] ?? [];
    if (record.every((c) => c === '')) continue;
    const cells: FileRow['cells'] = {};
    record.forEach((cell, i) => {
      const column = columns[i];
      if (column && cell !== '' && cells[column] === undefined) cells[column] = cell;
    });
    rows.push({ row: headerAt + 1, cells });
  }
  if (rows.length === 0) throw invalidField('file', 'The file has no criteria under its header row.');
  if (rows.length > CRITERIA_IMPORT_MAX_ROWS)
    throw invalidField('file', `The file has more than ${CRITERIA_IMPORT_MAX_ROWS} rows: split it.`);
  return rows;
}

// --- Planning ---------------------------------------------------------------------------------------------------

interface PlannedRow extends CriteriaImportRow {
  standardId: number;
  outcomeCode: string;
  outcomeTitle: string | null;
}

interface Plan {
  version: { id: number; code: string };
  rows: PlannedRow[];
  outcomesAdded: string[];
}

/** Checks every row against the version's data (read on `db`, the transaction when applying) and diffs it. */
async function plan(db: DbOrTrx, version: { id: number; code: string }, rows: FileRow[]): Promise<Plan> {
  const standards = await db
    .selectFrom('care_certificate_standards')
    .select(['id', 'number'])
    .where('version_id', '=', version.id)
    .execute();
  const byNumber = new Map(standards.map((s) => [s.number, s.id]));
  const others = await db
    .selectFrom('care_certificate_standards as s')
    .innerJoin('care_certificate_versions as v', 'v.id', 's.version_id')
    .select(['s.number', 'v.code'])
    .where('v.id', '<>', version.id)
    .orderBy('v.code')
    .execute();
  const ids = standards.map((s) => s.id);
  const outcomes = ids.length
    ? await db
        .selectFrom('care_certificate_outcomes')
        .select(['standard_id', 'code'])
        .where('standard_id', 'in', ids)
        .execute()
    : [];
  const outcomeKeys = new Set(outcomes.map((o) => `${o.standard_id}|${o.code}`));
  const criteria = ids.length
    ? await db
        .selectFrom('care_certificate_criteria')
        .select(['standard_id', 'code', 'text', 'requires_observation'])
        .where('standard_id', 'in', ids)
        .execute()
    : [];
  const existing = new Map(criteria.map((c) => [`${c.standard_id}|${c.code.toLowerCase()}`, c]));

  const errors: FieldErrors = {};
  const fail = (row: number, column: Column, message: string) => {
    const key = `rows.${row}.${column}`;
    errors[key] = [...(errors[key] ?? []), `Row ${row}: ${message}`];
  };
  const seen = new Map<string, number>();
  const planned: PlannedRow[] = [];
  const outcomesAdded = new Set<string>();
  for (const { row, cells } of rows) {
    const formula = (Object.entries(cells) as [Column, string][]).find(([, v]) => FORMULA.test(v));
    if (formula) {
      fail(row, formula[0], 'this cell is a spreadsheet formula, not a value: enter the value itself.');
      continue;
    }
    if (cells.version !== undefined && cells.version !== version.code) {
      fail(row, 'version', `this row is for version ${cells.version}, not ${version.code}.`);
      continue;
    }
    const rawCode = cells.code ?? '';
    const m = CODE.exec(rawCode);
    if (!m) {
      fail(
        row,
        'code',
        rawCode
          ? `"${rawCode.slice(0, 20)}" is not a criterion code: a code is the standard, the outcome and a letter, like 1.2a.`
          : 'enter the criterion’s code, like 1.2a.',
      );
      continue;
    }
    const number = Number(m[1]);
    const outcomeCode = `${number}.${Number(m[2])}`;
    const code = `${outcomeCode}${(m[3] ?? '').toLowerCase()}`;
    const standardId = byNumber.get(number);
    if (standardId === undefined) {
      const elsewhere = [...new Set(others.filter((o) => o.number === number).map((o) => o.code))];
      fail(
        row,
        'code',
        `version ${version.code} has no Standard ${number}${elsewhere.length ? ` (${code} is a code of version ${elsewhere.join(', ')})` : ''}.`,
      );
      continue;
    }
    let outcomeTitle: string | null = null;
    if (cells.outcome !== undefined) {
      const o = OUTCOME.exec(cells.outcome);
      const given = o ? `${Number(o[1])}.${Number(o[2])}` : null;
      if (given !== outcomeCode) {
        fail(
          row,
          'outcome',
          `criterion ${code} belongs to outcome ${outcomeCode}, not "${cells.outcome.slice(0, 30)}".`,
        );
        continue;
      }
      outcomeTitle = o?.[3]?.trim() || null;
    }
    const wording = cells.wording ?? '';
    if (!wording) fail(row, 'wording', `enter the wording of criterion ${code}.`);
    else if (wording.length > 2000) fail(row, 'wording', 'the wording is longer than 2,000 characters.');
    const kind = KINDS[(cells.kind ?? '').toLowerCase()];
    if (!kind)
      fail(
        row,
        'kind',
        'enter knowledge or observed (observed: only an assessor’s observation evidences it).',
      );
    const first = seen.get(code);
    if (first !== undefined) fail(row, 'code', `${code} is already on row ${first}.`);
    else seen.set(code, row);
    if (!wording || wording.length > 2000 || !kind || first !== undefined) continue;
    const before = existing.get(`${standardId}|${code}`);
    const kindBefore: CriterionKind | null = before
      ? before.requires_observation
        ? 'observed'
        : 'knowledge'
      : null;
    if (!outcomeKeys.has(`${standardId}|${outcomeCode}`)) outcomesAdded.add(outcomeCode);
    planned.push({
      row,
      code,
      outcome: outcomeCode,
      wording,
      kind,
      change: !before ? 'added' : before.text !== wording || kindBefore !== kind ? 'changed' : 'unchanged',
      before: before && kindBefore ? { wording: before.text, kind: kindBefore } : null,
      standardId,
      outcomeCode,
      outcomeTitle,
    });
  }
  if (Object.keys(errors).length) {
    const capped = Object.fromEntries(Object.entries(errors).slice(0, 200));
    throw invalid(capped);
  }
  return { version, rows: planned, outcomesAdded: [...outcomesAdded].sort() };
}

async function versionRow(db: DbOrTrx, id: number, lock: boolean) {
  let q = db.selectFrom('care_certificate_versions').select(['id', 'code']).where('id', '=', id);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function resultOf(db: DbOrTrx, p: Plan, applied: boolean): Promise<CriteriaImportResult> {
  const count = (c: CriteriaImportRow['change']) => p.rows.filter((r) => r.change === c).length;
  return {
    version_id: p.version.id,
    version_code: p.version.code,
    applied,
    added: count('added'),
    changed: count('changed'),
    unchanged: count('unchanged'),
    outcomes_added: p.outcomesAdded,
    rows: p.rows.map(({ standardId: _s, outcomeCode: _o, outcomeTitle: _t, ...r }) => r),
    gaps: await gapsOf(db, p.version.id),
  };
}

/** POST /care-certificate-versions/{id}/criteria-import/preview (super admin): what the file would change. */
export async function previewCriteriaImport(
  ctx: Ctx,
  versionId: number,
  read: () => Promise<CriteriaFile | null>,
): Promise<CriteriaImportResult> {
  superAdmin(ctx);
  const version = await versionRow(ctx.db, versionId, false);
  const p = await plan(ctx.db, version, await fileRows(await read()));
  return resultOf(ctx.db, p, false);
}

/** POST /care-certificate-versions/{id}/criteria-import (super admin): the same plan, applied in one transaction. */
export async function importCriteria(
  ctx: Ctx,
  versionId: number,
  read: () => Promise<CriteriaFile | null>,
): Promise<CriteriaImportResult> {
  superAdmin(ctx);
  await versionRow(ctx.db, versionId, false);
  const rows = await fileRows(await read());
  return ctx.db.transaction().execute(async (trx) => {
    // The version's row lock: imports of one version run one after another, and no assignment reads half of one.
    const version = await versionRow(trx, versionId, true);
    const p = await plan(trx, version, rows);
    const touched = [...new Set(p.rows.filter((r) => r.change !== 'unchanged').map((r) => r.standardId))];
    for (const r of p.rows) {
      if (r.change === 'unchanged' && !r.outcomeTitle) continue;
      const { rows: outcome } = await sql<{ id: number }>`
        INSERT INTO care_certificate_outcomes (standard_id, code, title, position)
        VALUES (${r.standardId}, ${r.outcomeCode}, ${r.outcomeTitle}, 999)
        ON CONFLICT (standard_id, code)
          DO UPDATE SET title = COALESCE(care_certificate_outcomes.title, EXCLUDED.title)
        RETURNING id`.execute(trx);
      if (r.change === 'unchanged') continue;
      await sql`
        INSERT INTO care_certificate_criteria (standard_id, outcome_id, code, text, requires_observation, position)
        VALUES (${r.standardId}, ${outcome[0]?.id}, ${r.code}, ${r.wording}, ${r.kind === 'observed'}, 999)
        ON CONFLICT (standard_id, code)
          DO UPDATE SET text = EXCLUDED.text, requires_observation = EXCLUDED.requires_observation`.execute(
        trx,
      );
    }
    if (touched.length) {
      // Outcomes in number order, criteria in letter order (a super admin's own codes keep their place after).
      await sql`
        UPDATE care_certificate_outcomes o SET position = n.rn FROM (
          SELECT id, row_number() OVER (PARTITION BY standard_id ORDER BY
            CASE WHEN code ~ '^[0-9]+\\.[0-9]+$' THEN split_part(code, '.', 2)::int ELSE 1000 + position END, id) - 1 AS rn
            FROM care_certificate_outcomes WHERE standard_id = ANY(${touched}::int[])) n
         WHERE o.id = n.id AND o.position <> n.rn`.execute(trx);
      await sql`
        UPDATE care_certificate_criteria k SET position = n.rn FROM (
          SELECT id, row_number() OVER (PARTITION BY outcome_id ORDER BY length(code), code, id) - 1 AS rn
            FROM care_certificate_criteria WHERE standard_id = ANY(${touched}::int[])) n
         WHERE k.id = n.id AND k.position <> n.rn`.execute(trx);
      await trx
        .updateTable('care_certificate_versions')
        .set({ updated_at: ctx.clock() })
        .where('id', '=', versionId)
        .execute();
    }
    return resultOf(trx, p, true);
  });
}

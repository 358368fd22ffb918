import type { Readable } from 'node:stream';
import {
  ASC_WDS_CATEGORY_CODES,
  ASC_WDS_MAX,
  type ImportKind,
  Perm,
  ResultsMessages,
  ResultsPerm,
  UserEmail,
} from '@cc/contracts';
import { sql } from 'kysely';
import { expiryOf } from '../compliance/rules';
import { visibleCourseClause } from '../courses/visibility';
import { entityScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, type Ctx, can } from '../http/context';
import { TYPE_ABOVE_YOU, wouldHoldOnlyWhatActorHolds } from '../permissions/privilege';
import { evidenceRequired } from '../results/admin-shared';
import { completedInFuture } from '../results/completion-date';
import {
  accreditedWords,
  type Column,
  type CsvRow,
  csvChunks,
  formulaMessage,
  headerErrors,
  normaliseHeader,
  parseDate,
} from './csv';
import { CsvReadError } from './csv-records';
import { insertPlanErrors, insertPlanRows, type PlanError, type PlanRow } from './queries';

/**
 * Planning an import (issue 18 "Plan first"): the CSV streams through in chunks of CHUNK rows; each chunk is checked
 * with a few set-based queries (the people, results and rules it names) and its plan rows and errors are written
 * before the next chunk is read, so memory stays flat whatever the file's size. What is kept across chunks: the
 * organisation's entities, roles, types and courses (small), and the keys seen so far (to refuse a person or a
 * record named twice in one file).
 *
 * A row is keyed on the employee number when it has one, else on the e-mail address. People rows:
 * - no such person: create (needs 3; name and e-mail required);
 * - the person, with nothing different: unchanged; with something different: update (18; 4 for the job role, 5 for
 *   the user type). A blank cell leaves the value as it is. An e-mail address is never changed by an import (the
 *   person confirms a new address from it: users/service.ts), so a different one is an error.
 * Training rows: the person (in scope) and the course (visible to the organisation, title exact, any case) and the
 * completed date key a historical result: none → create, the same expiry and notes → unchanged, else update.
 */
export const CHUNK = 1000;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A row's address is someone's outside the organisation the import targets: refused, never matched (issue 28). */
export const ELSEWHERE = 'This e-mail address belongs to someone in another organisation.';
const lower = (s: string) => s.trim().toLowerCase();
const iso = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

interface EntityInfo {
  id: number;
  name: string;
  parentId: number | null;
  aId: number;
  /** In the subtree the import targets (loadLookups). */
  inTarget: boolean;
}

export interface PlanCounts {
  rows: number;
  create: number;
  update: number;
  unchanged: number;
  errors: number;
}

interface Lookups {
  entities: Map<number, EntityInfo>;
  bySlug: Map<string, number>;
  byName: Map<string, number[]>;
  roles: Map<number, Map<string, number>>;
  types: Map<number, Map<string, number>>;
  roleNames: Map<number, string>;
  typeNames: Map<number, string>;
  baseId: number;
}

/**
 * The entities an import may touch: the organisation it targets (imports.entity_id, the caller's base) and the ones
 * below it, never the rest of a super admin's reach (issue 28 item 6: a super admin's file renamed the trainer of
 * another company). Its people are the only ones an import matches, changes or moves, and these the only
 * organisations a row may name; the base's ancestors are loaded too, for the job roles and user types they own.
 */
async function loadLookups(ctx: Ctx): Promise<Lookups> {
  const scope = await entityScope(ctx);
  const targetIds = await subtreeIds(ctx.db, scope.baseId);
  const target = new Set(targetIds);
  const { rows } = await sql<{
    id: number;
    name: string;
    slug: string;
    parent_id: number | null;
    a_id: number;
  }>`
    SELECT e.id, e.name, e.slug, e.parent_id, importer_a_entity(e.id) AS a_id FROM entities e
     WHERE e.id = ANY(${targetIds}::int[])
        OR e.id IN (WITH RECURSIVE chain AS (
              SELECT id, parent_id, 0 AS depth FROM entities WHERE id = ${scope.baseId}
              UNION ALL SELECT p.id, p.parent_id, c.depth + 1 FROM entities p JOIN chain c ON p.id = c.parent_id
               WHERE c.depth < 50)
            SELECT id FROM chain)`.execute(ctx.db);
  const entities = new Map<number, EntityInfo>();
  const bySlug = new Map<string, number>();
  const byName = new Map<string, number[]>();
  for (const r of rows) {
    const inTarget = target.has(r.id);
    entities.set(r.id, { id: r.id, name: r.name, parentId: r.parent_id, aId: r.a_id, inTarget });
    if (!inTarget) continue;
    bySlug.set(lower(r.slug), r.id);
    byName.set(lower(r.name), [...(byName.get(lower(r.name)) ?? []), r.id]);
  }
  const ids = [...entities.keys()];
  const [roleRows, typeRows] = await Promise.all([
    ctx.db
      .selectFrom('entity_roles')
      .select(['id', 'entity_id', 'name'])
      .where('entity_id', 'in', ids)
      .execute(),
    ctx.db
      .selectFrom('entity_types')
      .select(['id', 'entity_id', 'name'])
      .where('entity_id', 'in', ids)
      .execute(),
  ]);
  const group = (list: { id: number; entity_id: number; name: string }[]) => {
    const m = new Map<number, Map<string, number>>();
    for (const r of list) {
      const inner = m.get(r.entity_id) ?? new Map<string, number>();
      inner.set(lower(r.name), r.id);
      m.set(r.entity_id, inner);
    }
    return m;
  };
  return {
    entities,
    bySlug,
    byName,
    roles: group(roleRows),
    types: group(typeRows),
    roleNames: new Map(roleRows.map((r) => [r.id, r.name])),
    typeNames: new Map(typeRows.map((r) => [r.id, r.name])),
    baseId: scope.baseId,
  };
}

/** A role or type by name, owned by the entity or one of its ancestors (nearest first), as users/service.ts allows. */
function byChain(l: Lookups, table: Map<number, Map<string, number>>, entityId: number, name: string) {
  let id: number | null = entityId;
  for (let depth = 0; id !== null && depth < 50; depth++) {
    const found = table.get(id)?.get(lower(name));
    if (found !== undefined) return found;
    id = l.entities.get(id)?.parentId ?? null;
  }
  return undefined;
}

export type RowErrors = { column: string; message: string }[];

/** A row with a formula cell (csv.ts FORMULA) is refused whole: nothing of it is matched or stored. */
function formulaError(row: CsvRow, column: Column): PlanError {
  return {
    rowNumber: row.rowNumber,
    column,
    message: formulaMessage(row.fields[column] ?? ''),
    values: row.values,
  };
}

interface Planner {
  seen: Map<string, number>;
  counts: PlanCounts;
}

async function writeChunk(ctx: Ctx, importId: number, plans: PlanRow[], errors: PlanError[], p: Planner) {
  await ctx.db.transaction().execute(async (trx) => {
    await insertPlanRows(trx, importId, plans);
    await insertPlanErrors(trx, importId, errors);
  });
  for (const r of plans) p.counts[r.action] += 1;
  p.counts.errors += new Set(errors.map((e) => e.rowNumber)).size;
}

// ---------------------------------------------------------------------------------------------------- people

interface ExistingUser {
  id: number;
  name: string;
  email: string;
  employee_number: string | null;
  employee_org_id: number | null;
  primary_entity_id: number;
  role_id: number | null;
  type_id: number | null;
  start_date: string | null;
  above: boolean;
}

async function existingUsers(ctx: Ctx, emails: string[], numbers: string[]): Promise<ExistingUser[]> {
  const actor = actorOf(ctx);
  const held = actor.superAdmin ? [] : [...actor.permissions];
  // `above`: the person holds something the importer does not (permissions/privilege.ts "account above you").
  const { rows } = await sql<ExistingUser>`
    SELECT u.id, u.name, u.email, u.employee_number, u.employee_org_id, u.primary_entity_id, u.role_id, u.type_id,
           u.start_date::text AS start_date,
           ${
             actor.superAdmin
               ? sql`false`
               : sql`(u.super_admin OR EXISTS (
             SELECT 1 FROM entity_permissions ep
              WHERE ep.entity_id = u.primary_entity_id AND NOT (ep.permission_id = ANY(${held}::int[]))
                AND (EXISTS (SELECT 1 FROM type_permissions tp WHERE tp.type_id = u.type_id AND tp.permission_id = ep.permission_id)
                  OR EXISTS (SELECT 1 FROM user_permissions up WHERE up.user_id = u.id AND up.permission_id = ep.permission_id))))`
           } AS above
      FROM users u
     WHERE lower(u.email) = ANY(${emails}::text[])
        OR (u.employee_number IS NOT NULL AND lower(u.employee_number) = ANY(${numbers}::text[]))`.execute(
    ctx.db,
  );
  return rows;
}

async function planUserChunk(
  ctx: Ctx,
  l: Lookups,
  chunk: CsvRow[],
  p: Planner,
  typeOk: Map<string, boolean>,
) {
  const actor = actorOf(ctx);
  const emails = chunk.flatMap((r) => (r.fields.email ? [lower(r.fields.email)] : []));
  const numbers = chunk.flatMap((r) => (r.fields.employee_number ? [lower(r.fields.employee_number)] : []));
  const users = await existingUsers(ctx, emails, numbers);
  const byEmail = new Map(users.map((u) => [lower(u.email), u]));
  const byNumber = new Map(
    users
      .filter((u) => u.employee_number)
      .map((u) => [`${u.employee_org_id}:${lower(u.employee_number ?? '')}`, u]),
  );
  const plans: PlanRow[] = [];
  const errors: PlanError[] = [];
  for (const row of chunk) {
    if (row.formula) {
      errors.push(formulaError(row, row.formula));
      continue;
    }
    const f = row.fields;
    const errs: RowErrors = [];
    const err = (column: string, message: string) => errs.push({ column, message });
    // Stored as POST /users stores an address (contracts UserEmail: trimmed, lower-case), so the same person is
    // one address however the file spells it.
    const email = f.email ? UserEmail.safeParse(f.email) : null;
    if (f.email && (!EMAIL.test(f.email) || !email?.success))
      err('email', `"${f.email}" is not an e-mail address.`);
    if (!f.email && !f.employee_number)
      err('email', 'Give an e-mail address or an employee number for each person.');
    if (f.name && f.name.length > 255) err('name', 'The name is longer than 255 characters.');
    if (f.employee_number && f.employee_number.length > 50)
      err('employee_number', 'The employee number is longer than 50 characters.');
    const startDate = f.start_date ? parseDate(f.start_date) : null;
    if (f.start_date && !startDate)
      err('start_date', `"${f.start_date}" is not a date (use 2024-03-31 or 31/03/2024).`);

    let entityId: number | undefined;
    if (f.organisation) {
      const named = l.byName.get(lower(f.organisation)) ?? [];
      entityId = l.bySlug.get(lower(f.organisation)) ?? (named.length === 1 ? named[0] : undefined);
      if (named.length > 1 && entityId === undefined)
        err(
          'organisation',
          `More than one of your organisations is called "${f.organisation}": use its slug.`,
        );
      else if (entityId === undefined)
        err('organisation', `"${f.organisation}" is not one of your organisations (give its name or slug).`);
    }
    const aId = l.entities.get(entityId ?? l.baseId)?.aId ?? l.baseId;
    const byNum = f.employee_number ? byNumber.get(`${aId}:${lower(f.employee_number)}`) : undefined;
    const byMail = f.email ? byEmail.get(lower(f.email)) : undefined;
    const existing = byNum ?? byMail;
    if (byNum && byMail && byNum.id !== byMail.id)
      err('email', 'This e-mail address belongs to another person than the employee number does.');
    if (
      byMail &&
      !byNum &&
      f.employee_number &&
      byMail.employee_number &&
      lower(byMail.employee_number) !== lower(f.employee_number)
    )
      err('employee_number', `This person already has employee number ${byMail.employee_number}.`);
    if (existing && !l.entities.get(existing.primary_entity_id)?.inTarget)
      err(
        byNum ? 'employee_number' : 'email',
        byNum ? 'This employee number belongs to someone outside your organisations.' : ELSEWHERE,
      );
    if (existing && f.email && lower(existing.email) !== lower(f.email) && !errs.length)
      err(
        'email',
        `The person with this employee number has the e-mail address ${existing.email}; change it on their profile.`,
      );

    const targetEntity = entityId ?? existing?.primary_entity_id ?? l.baseId;
    const roleId = f.job_role ? byChain(l, l.roles, targetEntity, f.job_role) : undefined;
    if (f.job_role && roleId === undefined)
      err('job_role', `"${f.job_role}" is not a job role of this person's organisation.`);
    const typeId = f.user_type ? byChain(l, l.types, targetEntity, f.user_type) : undefined;
    if (f.user_type && typeId === undefined)
      err('user_type', `"${f.user_type}" is not a user type of this person's organisation.`);

    const key =
      byNum || f.employee_number ? `n:${aId}:${lower(f.employee_number ?? '')}` : `e:${lower(f.email ?? '')}`;
    const mailKey = f.email ? `e:${lower(f.email)}` : null;
    const firstRow = p.seen.get(key) ?? (mailKey ? p.seen.get(mailKey) : undefined);
    if (firstRow !== undefined)
      err(
        f.employee_number ? 'employee_number' : 'email',
        `This person is already in the file (row ${firstRow}).`,
      );

    const label =
      `${f.name ?? existing?.name ?? ''}${f.email ? ` <${f.email}>` : ''}${f.employee_number ? ` #${f.employee_number}` : ''}`.trim();
    const typeAllowed = async (type: number | null, entity: number) => {
      const k = `${type}:${entity}`;
      if (!typeOk.has(k))
        typeOk.set(
          k,
          await wouldHoldOnlyWhatActorHolds(ctx.db, actor, { userId: null, typeId: type, entityId: entity }),
        );
      return typeOk.get(k);
    };

    if (!errs.length && !existing) {
      if (!can(actor, [Perm.addUser])) err('email', 'You do not have permission to add people.');
      if (!f.name) err('name', 'Enter the name of the new person.');
      if (!f.email) err('email', 'Enter the e-mail address of the new person.');
      if (typeId !== undefined && !(await typeAllowed(typeId, targetEntity)))
        err('user_type', TYPE_ABOVE_YOU);
      if (!errs.length)
        plans.push({
          rowNumber: row.rowNumber,
          action: 'create',
          targetId: null,
          data: {
            label,
            values: row.values,
            set: {
              name: f.name,
              email: email?.success ? email.data : f.email,
              employee_number: f.employee_number ?? null,
              primary_entity_id: targetEntity,
              role_id: roleId ?? null,
              type_id: typeId ?? null,
              start_date: startDate,
            },
          },
          changes: null,
        });
    } else if (!errs.length && existing) {
      const set: Record<string, string | number> = {};
      const changes: Record<string, { from: string | null; to: string | null }> = {};
      const change = (
        field: string,
        label: string,
        from: string | number | null,
        to: string | number,
        fromText: string | null,
        toText: string,
      ) => {
        if (from === to) return;
        set[field] = to;
        changes[label] = { from: fromText, to: toText };
      };
      if (f.name) change('name', 'name', existing.name, f.name, existing.name, f.name);
      if (f.employee_number && existing.employee_number !== f.employee_number)
        change(
          'employee_number',
          'employee_number',
          existing.employee_number,
          f.employee_number,
          existing.employee_number,
          f.employee_number,
        );
      if (entityId !== undefined)
        change(
          'primary_entity_id',
          'organisation',
          existing.primary_entity_id,
          entityId,
          l.entities.get(existing.primary_entity_id)?.name ?? null,
          l.entities.get(entityId)?.name ?? '',
        );
      if (roleId !== undefined)
        change(
          'role_id',
          'job_role',
          existing.role_id,
          roleId,
          existing.role_id ? (l.roleNames.get(existing.role_id) ?? null) : null,
          l.roleNames.get(roleId) ?? '',
        );
      if (typeId !== undefined)
        change(
          'type_id',
          'user_type',
          existing.type_id,
          typeId,
          existing.type_id ? (l.typeNames.get(existing.type_id) ?? null) : null,
          l.typeNames.get(typeId) ?? '',
        );
      if (startDate)
        change('start_date', 'start_date', existing.start_date, startDate, existing.start_date, startDate);
      if (Object.keys(set).length) {
        const general = ['name', 'employee_number', 'primary_entity_id', 'start_date'].some((k) => k in set);
        if (general && !can(actor, [Perm.updateUser]))
          err('email', 'You do not have permission to change people.');
        if ('role_id' in set && !can(actor, [Perm.updateRoleOnUser]))
          err('job_role', 'You do not have permission to change job roles.');
        if ('type_id' in set && !can(actor, [Perm.updateTypeOnUser]))
          err('user_type', 'You do not have permission to change user types.');
        if (existing.above)
          err('email', 'This person has access you do not have, so you cannot change their account.');
        if (
          existing.id === actor.userId &&
          ('role_id' in set || 'type_id' in set || 'primary_entity_id' in set) &&
          !actor.superAdmin
        )
          err('email', 'You cannot change your own job role, user type or organisation.');
        if (
          ('type_id' in set || 'primary_entity_id' in set) &&
          !errs.length &&
          !(await typeAllowed((set.type_id as number | undefined) ?? existing.type_id, targetEntity))
        )
          err('type_id' in set ? 'user_type' : 'organisation', TYPE_ABOVE_YOU);
      }
      if (!errs.length)
        plans.push({
          rowNumber: row.rowNumber,
          action: Object.keys(set).length ? 'update' : 'unchanged',
          targetId: existing.id,
          data: { label, values: row.values, set },
          changes: Object.keys(set).length ? changes : null,
        });
    }
    if (firstRow === undefined) {
      p.seen.set(key, row.rowNumber);
      if (mailKey && !p.seen.has(mailKey)) p.seen.set(mailKey, row.rowNumber);
    }
    for (const e of errs)
      errors.push({ rowNumber: row.rowNumber, column: e.column, message: e.message, values: row.values });
  }
  return { plans, errors };
}

// -------------------------------------------------------------------------------------------------- training

interface Courses {
  byTitle: Map<string, number[]>;
  titles: Map<number, string>;
}

async function loadCourses(ctx: Ctx): Promise<Courses> {
  const rows = await ctx.db
    .selectFrom('courses as c')
    .select(['c.id', 'c.title'])
    .where(await visibleCourseClause(ctx))
    .execute();
  const byTitle = new Map<string, number[]>();
  for (const r of rows) byTitle.set(lower(r.title), [...(byTitle.get(lower(r.title)) ?? []), r.id]);
  return { byTitle, titles: new Map(rows.map((r) => [r.id, r.title])) };
}

/** The notes of an imported record: the certificate's details and the file's notes, in words. */
export function trainingNotes(f: CsvRow['fields']): string | null {
  const lines: string[] = [];
  if (f.certificate_number) lines.push(`Certificate number: ${f.certificate_number}`);
  if (f.provider) lines.push(`Provider: ${f.provider}`);
  const accredited = f.accredited ? accreditedWords(f.accredited) : null;
  if (accredited) lines.push(`Accredited: ${accredited}`);
  if (f.notes) lines.push(f.notes);
  return lines.length ? lines.join('\n') : null;
}

/**
 * The checks of a training row's own cells, before anything is looked up: the dates (ISO or UK; completed not in the
 * future; the expiry after it), ACCREDITED's codes, the notes' length. In an ASC-WDS file (`ascWds`: it has a LOCALESTID
 * column) also that file's own rules (contracts asc-wds.ts, from the ASC-WDS validator): LOCALESTID and UNIQUEWORKERID
 * given and at most 50 characters, the training name at most 120, NOTES at most 1,000, CATEGORY one of its codes.
 * The ASC-WDS export (reports/asc-wds-export.ts) checks every row it writes with this same function.
 */
export function trainingRowErrors(f: CsvRow['fields'], now: Date, ascWds: boolean) {
  const errors: RowErrors = [];
  const err = (column: string, message: string) => errors.push({ column, message });
  if (!f.course) err('course', 'Enter the course title.');
  const completed = f.completed_date ? parseDate(f.completed_date) : null;
  if (!f.completed_date) err('completed_date', 'Enter the date the training was completed.');
  else if (!completed)
    err('completed_date', `"${f.completed_date}" is not a date (use 2024-03-31 or 31/03/2024).`);
  else if (completedInFuture(completed, now)) err('completed_date', ResultsMessages.completedInFuture);
  const expiry = f.expiry_date ? parseDate(f.expiry_date) : null;
  if (f.expiry_date && !expiry)
    err('expiry_date', `"${f.expiry_date}" is not a date (use 2024-03-31 or 31/03/2024).`);
  else if (expiry && completed && expiry <= completed)
    err('expiry_date', 'The expiry date must be after the completed date.');
  if (f.accredited && !accreditedWords(f.accredited))
    err('accredited', 'Accredited is 1 (yes), 0 (no) or 999 (don’t know).');
  const notes = trainingNotes(f);
  if (notes && notes.length > 5000) err('notes', 'The notes are longer than 5,000 characters.');
  if (ascWds) {
    if (!f.workplace) err('workplace', 'Enter the workplace ID (LOCALESTID).');
    else if (f.workplace.length > ASC_WDS_MAX.localId)
      err('workplace', `The workplace ID is longer than ${ASC_WDS_MAX.localId} characters.`);
    if (!f.employee_number) err('employee_number', 'Enter the worker ID (UNIQUEWORKERID).');
    else if (f.employee_number.length > ASC_WDS_MAX.workerId)
      err('employee_number', `The worker ID is longer than ${ASC_WDS_MAX.workerId} characters.`);
    if (f.course && f.course.length > ASC_WDS_MAX.trainingName)
      err('course', `The training name is longer than ${ASC_WDS_MAX.trainingName} characters.`);
    if (f.notes && f.notes.length > ASC_WDS_MAX.notes)
      err('notes', `The notes are longer than ${ASC_WDS_MAX.notes.toLocaleString('en-GB')} characters.`);
    if (!f.category || !/^\d+$/.test(f.category) || !ASC_WDS_CATEGORY_CODES.has(Number(f.category)))
      err('category', 'CATEGORY is not an ASC-WDS training category code.');
  }
  return { errors, completed, expiry, notes };
}

async function planTrainingChunk(
  ctx: Ctx,
  l: Lookups,
  courses: Courses,
  chunk: CsvRow[],
  p: Planner,
  evidence: Map<number, boolean>,
  ascWds: boolean,
) {
  const emails = chunk.flatMap((r) => (r.fields.email ? [lower(r.fields.email)] : []));
  const numbers = chunk.flatMap((r) => (r.fields.employee_number ? [lower(r.fields.employee_number)] : []));
  const people = (await existingUsers(ctx, emails, numbers)).filter(
    (u) => l.entities.get(u.primary_entity_id)?.inTarget,
  );
  const byEmail = new Map(people.map((u) => [lower(u.email), u]));
  const byNumber = new Map<string, ExistingUser[]>();
  for (const u of people)
    if (u.employee_number)
      byNumber.set(lower(u.employee_number), [...(byNumber.get(lower(u.employee_number)) ?? []), u]);

  type Ready = {
    row: CsvRow;
    user: ExistingUser;
    courseId: number;
    completed: string;
    expiry: string | null;
    notes: string | null;
    label: string;
  };
  const ready: Ready[] = [];
  const errors: PlanError[] = [];
  const now = ctx.clock();
  for (const row of chunk) {
    if (row.formula) {
      errors.push(formulaError(row, row.formula));
      continue;
    }
    const f = row.fields;
    const errs: RowErrors = [];
    const err = (column: string, message: string) => errs.push({ column, message });
    let user: ExistingUser | undefined;
    if (f.employee_number) {
      const found = byNumber.get(lower(f.employee_number)) ?? [];
      if (found.length > 1)
        err(
          'employee_number',
          'More than one person has this employee number: give the e-mail address instead.',
        );
      else if (!found[0])
        err('employee_number', `No one in your organisations has employee number ${f.employee_number}.`);
      user = found.length === 1 ? found[0] : undefined;
    } else if (f.email) {
      user = byEmail.get(lower(f.email));
      if (!user) err('email', `No one in your organisations has the e-mail address ${f.email}.`);
    } else err('email', 'Give the person’s e-mail address or employee number.');
    let courseId: number | undefined;
    const cells = trainingRowErrors(f, now, ascWds);
    for (const e of cells.errors) err(e.column, e.message);
    const { completed, expiry, notes } = cells;
    if (f.course) {
      const ids = courses.byTitle.get(lower(f.course)) ?? [];
      if (ids.length > 1) err('course', `More than one course is called "${f.course}".`);
      else if (!ids[0]) err('course', `"${f.course}" is not a course your organisation has.`);
      courseId = ids[0];
    }
    if (user) {
      if (!evidence.has(user.primary_entity_id))
        evidence.set(user.primary_entity_id, await evidenceRequired(ctx, user.primary_entity_id));
      if (evidence.get(user.primary_entity_id))
        err(
          'email',
          `${ResultsMessages.evidenceRequired} Add this person’s record on their page, with evidence.`,
        );
    }
    const key = user && courseId && completed ? `${user.id}:${courseId}:${completed}` : null;
    const firstRow = key ? p.seen.get(key) : undefined;
    if (firstRow !== undefined)
      err('course', `This training record is already in the file (row ${firstRow}).`);
    if (key && firstRow === undefined) p.seen.set(key, row.rowNumber);
    if (errs.length || !user || !courseId || !completed) {
      for (const e of errs)
        errors.push({ rowNumber: row.rowNumber, column: e.column, message: e.message, values: row.values });
      continue;
    }
    ready.push({
      row,
      user,
      courseId,
      completed,
      expiry,
      notes,
      label: `${user.name} – ${courses.titles.get(courseId) ?? ''}`,
    });
  }

  // One query for the validity of every (person, course) rule, one for the records already there.
  const userIds = [...new Set(ready.map((r) => r.user.id))];
  const courseIds = [...new Set(ready.map((r) => r.courseId))];
  const validity = new Map<string, number | null>();
  const existing = new Map<string, { id: number; expires_at: Date | null; notes: string | null }>();
  if (ready.length) {
    const rules = await ctx.db
      .selectFrom('users as u')
      .innerJoin('effective_compliance_rules as ecr', (j) =>
        j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id'),
      )
      .select(['u.id as user_id', 'ecr.course_id', 'ecr.validity_months'])
      .where('u.id', 'in', userIds)
      .where('ecr.course_id', 'in', courseIds)
      .execute();
    for (const r of rules) validity.set(`${r.user_id}:${r.course_id}`, r.validity_months);
    const results = await ctx.db
      .selectFrom('results')
      .select(['id', 'user_id', 'course_id', 'completed_at', 'expires_at', 'notes'])
      .where('type', '=', 'historical')
      .where('deleted_at', 'is', null)
      .where('user_id', 'in', userIds)
      .where('course_id', 'in', courseIds)
      .where('completed_at', 'in', [...new Set(ready.map((r) => new Date(`${r.completed}T00:00:00Z`)))])
      .orderBy('id')
      .execute();
    for (const r of results) {
      const k = `${r.user_id}:${r.course_id}:${iso(new Date(r.completed_at))}`;
      if (!existing.has(k)) existing.set(k, r);
    }
  }
  const plans: PlanRow[] = [];
  for (const r of ready) {
    const completedAt = new Date(`${r.completed}T00:00:00Z`);
    // As a hand-entered historical pass (results/service.ts expiresAtFor): the rule's validity when no expiry is given.
    const expiresAt =
      r.expiry ?? iso(expiryOf(completedAt, validity.get(`${r.user.id}:${r.courseId}`) ?? null));
    const found = existing.get(`${r.user.id}:${r.courseId}:${r.completed}`);
    const base = { label: r.label, values: r.row.values };
    if (!found) {
      plans.push({
        rowNumber: r.row.rowNumber,
        action: 'create',
        targetId: null,
        data: {
          ...base,
          set: {
            user_id: r.user.id,
            course_id: r.courseId,
            completed_at: r.completed,
            expires_at: expiresAt,
            notes: r.notes,
          },
        },
        changes: null,
      });
      continue;
    }
    const set: Record<string, string | null> = {};
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    if (iso(found.expires_at) !== expiresAt) {
      set.expires_at = expiresAt;
      changes.expiry_date = { from: iso(found.expires_at), to: expiresAt };
    }
    if ((found.notes ?? null) !== r.notes) {
      set.notes = r.notes;
      changes.notes = { from: found.notes, to: r.notes };
    }
    const changed = Object.keys(set).length > 0;
    plans.push({
      rowNumber: r.row.rowNumber,
      action: changed ? 'update' : 'unchanged',
      targetId: found.id,
      data: { ...base, set },
      changes: changed ? changes : null,
    });
  }
  return { plans, errors };
}

// ------------------------------------------------------------------------------------------------------ entry

export class HeaderError extends Error {}

/**
 * Plans the file into import_rows / import_errors, reporting progress after each chunk. Throws HeaderError when
 * the file cannot be planned at all (not CSV, missing columns, no rows).
 */
export async function planFile(
  ctx: Ctx,
  imp: { id: number; kind: ImportKind },
  body: Readable,
  onProgress: (counts: PlanCounts) => Promise<void>,
): Promise<PlanCounts & { headers: string[] }> {
  const actor = actorOf(ctx);
  if (imp.kind === 'training' && !can(actor, [ResultsPerm.addRecord]))
    throw new HeaderError('You do not have permission to add training records.');
  const lookups = await loadLookups(ctx);
  const courses = imp.kind === 'training' ? await loadCourses(ctx) : null;
  const p: Planner = { seen: new Map(), counts: { rows: 0, create: 0, update: 0, unchanged: 0, errors: 0 } };
  const typeOk = new Map<string, boolean>();
  const evidence = new Map<number, boolean>();
  let fileHeaders: string[] = [];
  let ascWds = false;
  const onHeader = (headers: string[], columns: (Column | null)[]) => {
    if (!headers.length) throw new HeaderError('The file is empty.');
    fileHeaders = headers;
    ascWds = headers.some((h) => normaliseHeader(h) === 'localestid');
    const problems = headerErrors(imp.kind, columns);
    if (problems.length) throw new HeaderError(problems.join(' '));
  };
  try {
    for await (const chunk of csvChunks(imp.kind, body, CHUNK, onHeader)) {
      const { plans, errors } = courses
        ? await planTrainingChunk(ctx, lookups, courses, chunk, p, evidence, ascWds)
        : await planUserChunk(ctx, lookups, chunk, p, typeOk);
      p.counts.rows += chunk.length;
      await writeChunk(ctx, imp.id, plans, errors, p);
      await onProgress(p.counts);
    }
  } catch (error) {
    if (error instanceof HeaderError) throw error;
    if (error instanceof CsvReadError)
      throw new HeaderError(`The file could not be read as CSV: ${error.message}`);
    throw error;
  }
  if (p.counts.rows === 0) throw new HeaderError('The file has no rows under its header.');
  return { ...p.counts, headers: fileHeaders };
}

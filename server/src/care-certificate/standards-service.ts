import {
  type CourseCriteriaBody,
  type CourseCriteriaView,
  type CriterionBody,
  type CriterionUpdate,
  CareCertificateMessages as M,
  type OutcomeBody,
  type OutcomeUpdate,
  type StandardBody,
  type StandardUpdate,
  type VersionBody,
  type VersionSummary,
  type VersionUpdate,
  type VersionView,
} from '@cc/contracts';
import { sql } from 'kysely';
import type { z } from 'zod';
import { VIEW as COURSE_VIEW, visibleCourse } from '../courses/service';
import { assertCanChange } from '../courses/visibility';
import { actorOf, authorize, type Ctx } from '../http/context';
import { conflict, forbidden, invalidField, notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import { versionTree } from './queries';

/**
 * Versions of the standards and their tree (super admins edit; every signed-in user reads), and the criteria a
 * course's passed results evidence (content creator 63 with the course changeable, or a super admin). Issue 16;
 * contracts care-certificate.ts.
 */

const isUnique = (e: unknown) => (e as { code?: string } | null)?.code === '23505';
const isForeignKey = (e: unknown) => (e as { code?: string } | null)?.code === '23503';

function superAdmin(ctx: Ctx) {
  const actor = actorOf(ctx);
  if (!actor.superAdmin) throw forbidden();
  return actor;
}

const dateOrNull = (d: string | Date | null) =>
  d === null ? null : typeof d === 'string' ? d : d.toISOString().slice(0, 10);

async function versionSummaries(db: DbOrTrx, id?: number): Promise<VersionSummary[]> {
  let q = db
    .selectFrom('care_certificate_versions as v')
    .select(['v.id', 'v.code', 'v.title', 'v.effective_from', 'v.is_default'])
    .select([
      sql<number>`(SELECT count(*) FROM care_certificate_standards s WHERE s.version_id = v.id)::int`.as(
        'standards_count',
      ),
      sql<number>`(SELECT count(*) FROM care_certificate_criteria k
        JOIN care_certificate_standards s ON s.id = k.standard_id WHERE s.version_id = v.id)::int`.as(
        'criteria_count',
      ),
      sql<number>`(SELECT count(*) FROM care_certificates c WHERE c.version_id = v.id)::int`.as(
        'certificates_count',
      ),
    ]);
  if (id !== undefined) q = q.where('v.id', '=', id);
  const rows = await q.orderBy(sql`v.effective_from DESC NULLS LAST`).orderBy('v.id', 'desc').execute();
  return rows.map((r) => ({
    ...r,
    effective_from: dateOrNull(r.effective_from),
    standards_count: Number(r.standards_count),
    criteria_count: Number(r.criteria_count),
    certificates_count: Number(r.certificates_count),
  }));
}

export async function listVersions(ctx: Ctx): Promise<VersionSummary[]> {
  actorOf(ctx);
  return versionSummaries(ctx.db);
}

export async function getVersion(ctx: Ctx, id: number, db: DbOrTrx = ctx.db): Promise<VersionView> {
  actorOf(ctx);
  const [summary] = await versionSummaries(db, id);
  if (!summary) throw notFound();
  return { ...summary, standards: await versionTree(db, id) };
}

/** Copies a version's standards, outcomes and criteria under another version (set-based: a few statements). */
async function copyTree(trx: DbOrTrx, fromId: number, toId: number) {
  await sql`INSERT INTO care_certificate_standards (version_id, number, title)
    SELECT ${toId}, number, title FROM care_certificate_standards WHERE version_id = ${fromId}`.execute(trx);
  await sql`INSERT INTO care_certificate_outcomes (standard_id, code, title, position)
    SELECT ns.id, o.code, o.title, o.position
      FROM care_certificate_outcomes o
      JOIN care_certificate_standards s ON s.id = o.standard_id AND s.version_id = ${fromId}
      JOIN care_certificate_standards ns ON ns.version_id = ${toId} AND ns.number = s.number`.execute(trx);
  await sql`INSERT INTO care_certificate_criteria (standard_id, outcome_id, code, text, requires_observation, position)
    SELECT ns.id, no.id, k.code, k.text, k.requires_observation, k.position
      FROM care_certificate_criteria k
      JOIN care_certificate_outcomes o ON o.id = k.outcome_id
      JOIN care_certificate_standards s ON s.id = k.standard_id AND s.version_id = ${fromId}
      JOIN care_certificate_standards ns ON ns.version_id = ${toId} AND ns.number = s.number
      JOIN care_certificate_outcomes no ON no.standard_id = ns.id AND no.code = o.code`.execute(trx);
}

/** Locks every version row: default swaps serialise on it (one default at a time, by the partial unique index too). */
async function lockVersions(trx: DbOrTrx) {
  await trx.selectFrom('care_certificate_versions').select('id').forUpdate().execute();
}

export async function createVersion(ctx: Ctx, body: VersionBody): Promise<VersionView> {
  superAdmin(ctx);
  try {
    const id = await ctx.db.transaction().execute(async (trx) => {
      if (body.is_default) {
        await lockVersions(trx);
        await trx
          .updateTable('care_certificate_versions')
          .set({ is_default: false, updated_at: ctx.clock() })
          .where('is_default', '=', true)
          .execute();
      }
      if (body.copy_from_id !== null) {
        const from = await trx
          .selectFrom('care_certificate_versions')
          .select('id')
          .where('id', '=', body.copy_from_id)
          .executeTakeFirst();
        if (!from) throw invalidField('copy_from_id', 'Choose a version to copy.');
      }
      const row = await trx
        .insertInto('care_certificate_versions')
        .values({
          code: body.code,
          title: body.title,
          effective_from: body.effective_from,
          is_default: body.is_default,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (body.copy_from_id !== null) await copyTree(trx, body.copy_from_id, row.id);
      return row.id;
    });
    return getVersion(ctx, id);
  } catch (e) {
    if (isUnique(e)) throw invalidField('code', 'That code is already used.');
    throw e;
  }
}

export async function updateVersion(ctx: Ctx, id: number, body: VersionUpdate): Promise<VersionView> {
  superAdmin(ctx);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await lockVersions(trx);
      const found = await trx
        .selectFrom('care_certificate_versions')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!found) throw notFound();
      if (body.is_default === true) {
        await trx
          .updateTable('care_certificate_versions')
          .set({ is_default: false, updated_at: ctx.clock() })
          .where('is_default', '=', true)
          .where('id', '<>', id)
          .execute();
      }
      const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
      await trx
        .updateTable('care_certificate_versions')
        .set({ ...values, updated_at: ctx.clock() })
        .where('id', '=', id)
        .execute();
    });
  } catch (e) {
    if (isUnique(e)) throw invalidField('code', 'That code is already used.');
    throw e;
  }
  return getVersion(ctx, id);
}

export async function deleteVersion(ctx: Ctx, id: number): Promise<void> {
  superAdmin(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!found) throw notFound();
    const used = await trx
      .selectFrom('care_certificates')
      .select('id')
      .where('version_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used) throw conflict(M.versionInUse);
    try {
      await trx.deleteFrom('care_certificate_versions').where('id', '=', id).execute();
    } catch (e) {
      if (isForeignKey(e)) throw conflict(M.versionInUse);
      throw e;
    }
  });
}

// --- Standards, outcomes, criteria --------------------------------------------------------------------------

/** The version a standard, outcome or criterion belongs to (the editor answers with its whole tree). */
async function versionOfStandard(db: DbOrTrx, standardId: number) {
  const row = await db
    .selectFrom('care_certificate_standards')
    .select(['id', 'version_id'])
    .where('id', '=', standardId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function addStandard(
  ctx: Ctx,
  versionId: number,
  body: z.infer<typeof StandardBody>,
): Promise<VersionView> {
  superAdmin(ctx);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // Lock the version: an assignment reads its standards under a share lock, so none is made without the new one.
      const version = await trx
        .selectFrom('care_certificate_versions')
        .select('id')
        .where('id', '=', versionId)
        .forUpdate()
        .executeTakeFirst();
      if (!version) throw notFound();
      const standard = await trx
        .insertInto('care_certificate_standards')
        .values({ version_id: versionId, number: body.number, title: body.title })
        .returning('id')
        .executeTakeFirstOrThrow();
      await sql`INSERT INTO care_certificate_standard_states (certificate_id, standard_id)
        SELECT id, ${standard.id} FROM care_certificates WHERE version_id = ${versionId}
        ON CONFLICT DO NOTHING`.execute(trx);
    });
  } catch (e) {
    if (isUnique(e)) throw invalidField('number', 'That number is already used.');
    throw e;
  }
  return getVersion(ctx, versionId);
}

export async function updateStandard(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof StandardUpdate>,
): Promise<VersionView> {
  superAdmin(ctx);
  const standard = await versionOfStandard(ctx.db, id);
  const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length) {
    try {
      await ctx.db.updateTable('care_certificate_standards').set(values).where('id', '=', id).execute();
    } catch (e) {
      if (isUnique(e)) throw invalidField('number', 'That number is already used.');
      throw e;
    }
  }
  return getVersion(ctx, standard.version_id);
}

/** 409 criterionInUse when any certificate has evidence or an observation on a criterion below. */
async function deleteGuarded(
  ctx: Ctx,
  criteriaWhere: { column: 'standard_id' | 'outcome_id' | 'id'; id: number },
  del: (trx: DbOrTrx) => Promise<unknown>,
) {
  await ctx.db.transaction().execute(async (trx) => {
    const criteria = trx
      .selectFrom('care_certificate_criteria')
      .select('id')
      .where(criteriaWhere.column, '=', criteriaWhere.id);
    const used = await trx
      .selectFrom('care_certificate_evidence_criteria')
      .select('criterion_id')
      .where('criterion_id', 'in', criteria)
      .union(
        trx
          .selectFrom('care_certificate_observation_criteria')
          .select('criterion_id')
          .where('criterion_id', 'in', criteria),
      )
      .limit(1)
      .executeTakeFirst();
    if (used) throw conflict(M.criterionInUse);
    try {
      await del(trx);
    } catch (e) {
      if (isForeignKey(e)) throw conflict(M.criterionInUse);
      throw e;
    }
  });
}

export async function deleteStandard(ctx: Ctx, id: number): Promise<VersionView> {
  superAdmin(ctx);
  const standard = await versionOfStandard(ctx.db, id);
  await deleteGuarded(ctx, { column: 'standard_id', id }, (trx) =>
    trx.deleteFrom('care_certificate_standards').where('id', '=', id).execute(),
  );
  return getVersion(ctx, standard.version_id);
}

async function nextPosition(
  db: DbOrTrx,
  table: 'care_certificate_outcomes' | 'care_certificate_criteria',
  column: 'standard_id' | 'outcome_id',
  id: number,
) {
  const { rows } = await sql<{ next: number }>`
    SELECT coalesce(max(position) + 1, 0)::int AS next FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${id}`.execute(
    db,
  );
  return Number(rows[0]?.next ?? 0);
}

export async function addOutcome(
  ctx: Ctx,
  standardId: number,
  body: z.infer<typeof OutcomeBody>,
): Promise<VersionView> {
  superAdmin(ctx);
  const standard = await versionOfStandard(ctx.db, standardId);
  try {
    await ctx.db
      .insertInto('care_certificate_outcomes')
      .values({
        standard_id: standardId,
        code: body.code,
        title: body.title,
        position:
          body.position ??
          (await nextPosition(ctx.db, 'care_certificate_outcomes', 'standard_id', standardId)),
      })
      .execute();
  } catch (e) {
    if (isUnique(e)) throw invalidField('code', 'That code is already used.');
    throw e;
  }
  return getVersion(ctx, standard.version_id);
}

async function outcomeRow(db: DbOrTrx, id: number) {
  const row = await db
    .selectFrom('care_certificate_outcomes as o')
    .innerJoin('care_certificate_standards as s', 's.id', 'o.standard_id')
    .select(['o.id', 'o.standard_id', 's.version_id'])
    .where('o.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateOutcome(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof OutcomeUpdate>,
): Promise<VersionView> {
  superAdmin(ctx);
  const outcome = await outcomeRow(ctx.db, id);
  const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length) {
    try {
      await ctx.db.updateTable('care_certificate_outcomes').set(values).where('id', '=', id).execute();
    } catch (e) {
      if (isUnique(e)) throw invalidField('code', 'That code is already used.');
      throw e;
    }
  }
  return getVersion(ctx, outcome.version_id);
}

export async function deleteOutcome(ctx: Ctx, id: number): Promise<VersionView> {
  superAdmin(ctx);
  const outcome = await outcomeRow(ctx.db, id);
  await deleteGuarded(ctx, { column: 'outcome_id', id }, (trx) =>
    trx.deleteFrom('care_certificate_outcomes').where('id', '=', id).execute(),
  );
  return getVersion(ctx, outcome.version_id);
}

export async function addCriterion(
  ctx: Ctx,
  outcomeId: number,
  body: z.infer<typeof CriterionBody>,
): Promise<VersionView> {
  superAdmin(ctx);
  const outcome = await outcomeRow(ctx.db, outcomeId);
  try {
    await ctx.db
      .insertInto('care_certificate_criteria')
      .values({
        standard_id: outcome.standard_id,
        outcome_id: outcomeId,
        code: body.code,
        text: body.text,
        requires_observation: body.requires_observation,
        position:
          body.position ?? (await nextPosition(ctx.db, 'care_certificate_criteria', 'outcome_id', outcomeId)),
      })
      .execute();
  } catch (e) {
    if (isUnique(e)) throw invalidField('code', 'That code is already used.');
    throw e;
  }
  return getVersion(ctx, outcome.version_id);
}

async function criterionRow(db: DbOrTrx, id: number) {
  const row = await db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .select(['k.id', 's.version_id'])
    .where('k.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

export async function updateCriterion(
  ctx: Ctx,
  id: number,
  body: z.infer<typeof CriterionUpdate>,
): Promise<VersionView> {
  superAdmin(ctx);
  const criterion = await criterionRow(ctx.db, id);
  const values = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  if (Object.keys(values).length) {
    try {
      await ctx.db.updateTable('care_certificate_criteria').set(values).where('id', '=', id).execute();
    } catch (e) {
      if (isUnique(e)) throw invalidField('code', 'That code is already used.');
      throw e;
    }
  }
  return getVersion(ctx, criterion.version_id);
}

export async function deleteCriterion(ctx: Ctx, id: number): Promise<VersionView> {
  superAdmin(ctx);
  const criterion = await criterionRow(ctx.db, id);
  await deleteGuarded(ctx, { column: 'id', id }, (trx) =>
    trx.deleteFrom('care_certificate_criteria').where('id', '=', id).execute(),
  );
  return getVersion(ctx, criterion.version_id);
}

// --- Courses' criteria --------------------------------------------------------------------------------------

async function courseCriteria(db: DbOrTrx, courseId: number): Promise<CourseCriteriaView> {
  const criteria = await db
    .selectFrom('course_care_certificate_criteria as m')
    .innerJoin('care_certificate_criteria as k', 'k.id', 'm.criterion_id')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .innerJoin('care_certificate_versions as v', 'v.id', 's.version_id')
    .select(['k.id', 'k.code', 'k.text', 'v.code as version_code', 's.number as standard_number'])
    .where('m.course_id', '=', courseId)
    .orderBy('v.code')
    .orderBy('s.number')
    .orderBy('k.position')
    .orderBy('k.id')
    .execute();
  return { course_id: courseId, criteria };
}

/** GET /courses/{id}/care-certificate-criteria: the course visible to the caller (404), content creator (403). */
export async function getCourseCriteria(ctx: Ctx, courseId: number): Promise<CourseCriteriaView> {
  actorOf(ctx);
  await visibleCourse(ctx, courseId);
  authorize(ctx, COURSE_VIEW);
  return courseCriteria(ctx.db, courseId);
}

/** PUT: replaces the set, as the course routes decide who may change a course (assertCanChange). */
export async function setCourseCriteria(
  ctx: Ctx,
  courseId: number,
  body: CourseCriteriaBody,
): Promise<CourseCriteriaView> {
  actorOf(ctx);
  const course = await visibleCourse(ctx, courseId);
  authorize(ctx, COURSE_VIEW);
  await assertCanChange(ctx, course.entity_id);
  const ids = [...new Set(body.criterion_ids)];
  return ctx.db.transaction().execute(async (trx) => {
    await trx.selectFrom('courses').select('id').where('id', '=', courseId).forUpdate().execute();
    if (ids.length) {
      const found = await trx
        .selectFrom('care_certificate_criteria')
        .select('id')
        .where('id', 'in', ids)
        .execute();
      if (found.length !== ids.length) throw invalidField('criterion_ids', 'Choose criteria from the list.');
    }
    await trx.deleteFrom('course_care_certificate_criteria').where('course_id', '=', courseId).execute();
    if (ids.length) {
      await trx
        .insertInto('course_care_certificate_criteria')
        .values(ids.map((criterion_id) => ({ course_id: courseId, criterion_id })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    return courseCriteria(trx, courseId);
  });
}

import type { TrainingCompanyStatus } from '@cc/contracts';
import { type ExpressionBuilder, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';
import { likePattern } from './queries';

type Executor = Db | Transaction<Database>;

/**
 * Sets is_training_company and, in the same statement, its approval (issue 29 §7): a flag that turns on asks again
 * (pending), unless a super admin turns it on (`approvedBy`: approved); a flag that turns off clears the answer; a
 * flag sent unchanged keeps it. The CASEs read the row as it was, so two concurrent writes cannot leave a training
 * company without a status or an approval the super admin never gave.
 */
export async function setTrainingCompanyFlag(
  trx: Transaction<Database>,
  id: number,
  on: boolean,
  approvedBy: number | null,
  now: Date,
): Promise<void> {
  const becomes = approvedBy === null ? 'pending' : 'approved';
  await sql`
    UPDATE entities SET
      training_company_status = CASE
        WHEN NOT ${on} THEN NULL
        WHEN is_training_company AND training_company_status IS NOT NULL THEN training_company_status
        ELSE ${becomes} END,
      training_company_requested_at = CASE
        WHEN NOT ${on} THEN NULL
        WHEN is_training_company AND training_company_status IS NOT NULL THEN training_company_requested_at
        ELSE ${now}::timestamptz END,
      training_company_decided_at = CASE
        WHEN NOT ${on} THEN NULL
        WHEN is_training_company AND training_company_status IS NOT NULL THEN training_company_decided_at
        WHEN ${becomes} = 'approved' THEN ${now}::timestamptz ELSE NULL END,
      training_company_decided_by = CASE
        WHEN NOT ${on} THEN NULL
        WHEN is_training_company AND training_company_status IS NOT NULL THEN training_company_decided_by
        ELSE ${approvedBy}::int END,
      is_training_company = ${on}
    WHERE id = ${id}`.execute(trx);
}

/**
 * The organisation asks (again) to be a training company: pending unless already approved (one statement, so a
 * request racing an approval never undoes it). Returns false when it was already approved.
 */
export async function requestTrainingCompany(db: Executor, id: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('entities')
    .set({
      is_training_company: true,
      training_company_status: 'pending',
      training_company_requested_at: now,
      training_company_decided_at: null,
      training_company_decided_by: null,
      updated_at: now,
    })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('training_company_status', 'is', null), eb('training_company_status', '!=', 'approved')]),
    )
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A super admin's answer; only a training company (is_training_company) has one. Returns whether a row changed. */
export async function decideTrainingCompany(
  db: Executor,
  id: number,
  status: Exclude<TrainingCompanyStatus, 'pending'>,
  userId: number,
  now: Date,
): Promise<boolean> {
  const row = await db
    .updateTable('entities')
    .set({
      training_company_status: status,
      training_company_decided_at: now,
      training_company_decided_by: userId,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('is_training_company', '=', true)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The columns of a request (the organisation, its parent and who answered), over `entities as e`. */
function requestRows(db: Db) {
  return db
    .selectFrom('entities as e')
    .leftJoin('entities as p', 'p.id', 'e.parent_id')
    .leftJoin('users as u', 'u.id', 'e.training_company_decided_by')
    .where('e.is_training_company', '=', true)
    .select([
      'e.id',
      'e.slug',
      'e.name',
      'e.level',
      'e.website',
      // A training company without an answer (made outside the API) waits like a request.
      sql<TrainingCompanyStatus>`coalesce(e.training_company_status, 'pending')`.as(
        'training_company_status',
      ),
      'e.training_company_requested_at',
      'e.training_company_decided_at',
      'p.id as parent_id',
      'p.slug as parent_slug',
      'p.name as parent_name',
      'u.id as decided_by_id',
      'u.name as decided_by_name',
    ]);
}
export type TrainingCompanyRequestRow = NonNullable<Awaited<ReturnType<typeof findTrainingCompanyRequest>>>;

/** One training company's request, by entity id. */
export async function findTrainingCompanyRequest(db: Db, id: number) {
  return requestRows(db).where('e.id', '=', id).executeTakeFirst();
}

/** The requests in `status` whose name or slug holds `search`: one clause for the page and its count. */
function matching(status: TrainingCompanyStatus, search: string | undefined) {
  return (eb: ExpressionBuilder<Database & { e: Database['entities'] }, 'e'>) => {
    const and = [
      eb('e.is_training_company', '=', true),
      eb(sql<string>`coalesce(e.training_company_status, 'pending')`, '=', status),
    ];
    if (search !== undefined)
      and.push(
        eb.or([eb('e.name', 'ilike', likePattern(search)), eb('e.slug', 'ilike', likePattern(search))]),
      );
    return eb.and(and);
  };
}

/** One page of the training company requests in a status, oldest request first, and the total. */
export async function listTrainingCompanyRequests(
  db: Db,
  f: { status: TrainingCompanyStatus; search?: string; limit: number; offset: number },
) {
  const where = matching(f.status, f.search);
  const [rows, count] = await Promise.all([
    requestRows(db)
      .where(where)
      .orderBy(sql`e.training_company_requested_at ASC NULLS LAST`)
      .orderBy('e.id')
      .limit(f.limit)
      .offset(f.offset)
      .execute(),
    db
      .selectFrom('entities as e')
      .where(where)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

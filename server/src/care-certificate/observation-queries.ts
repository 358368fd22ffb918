import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../db/connect';
import type { CareCertificateObservationsTable } from '../db/schema';
import type { Trx } from '../results/queries';

/** SQL of observations (STYLE.md "SQL in one place"): reads for the views, and the guarded writes. */
type DbOrTrx = Db | Trx;

/** The observation of this certificate, locked for the change (null when it is not this certificate's). */
export async function lockObservation(trx: Trx, certificateId: number, id: number) {
  return trx
    .selectFrom('care_certificate_observations')
    .selectAll()
    .where('id', '=', id)
    .where('certificate_id', '=', certificateId)
    .forUpdate()
    .executeTakeFirst();
}

export async function correctionOf(db: DbOrTrx, id: number) {
  return db
    .selectFrom('care_certificate_observations')
    .select('id')
    .where('supersedes_id', '=', id)
    .executeTakeFirst();
}

/** Which of `ids` are criteria of the version (the rest are refused). */
export async function criteriaOfVersion(db: DbOrTrx, versionId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .select('k.id')
    .where('s.version_id', '=', versionId)
    .where('k.id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

export async function insertObservation(
  trx: Trx,
  row: Insertable<CareCertificateObservationsTable>,
  criterionIds: readonly number[],
): Promise<number> {
  const { id } = await trx
    .insertInto('care_certificate_observations')
    .values(row)
    .returning('id')
    .executeTakeFirstOrThrow();
  await setObservationCriteria(trx, id, criterionIds);
  return id;
}

/** Only while not approved: the WHERE is the guard (the trigger refuses approved rows anyway). */
export async function updateObservation(
  trx: Trx,
  id: number,
  set: Updateable<CareCertificateObservationsTable>,
): Promise<boolean> {
  const r = await trx
    .updateTable('care_certificate_observations')
    .set(set)
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function setObservationCriteria(trx: Trx, id: number, criterionIds: readonly number[]) {
  await trx.deleteFrom('care_certificate_observation_criteria').where('observation_id', '=', id).execute();
  const unique = [...new Set(criterionIds)];
  if (unique.length)
    await trx
      .insertInto('care_certificate_observation_criteria')
      .values(unique.map((criterion_id) => ({ observation_id: id, criterion_id })))
      .execute();
}

export async function deleteObservationRow(trx: Trx, id: number): Promise<boolean> {
  const r = await trx
    .deleteFrom('care_certificate_observations')
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Approves the observation (once: a second approval changes nothing). */
export async function approveObservationRow(trx: Trx, id: number, by: number, now: Date) {
  await trx
    .updateTable('care_certificate_observations')
    .set({ approved_at: now, approved_by: by, updated_at: now })
    .where('id', '=', id)
    .where('approved_at', 'is', null)
    .execute();
}

/**
 * Approves the unapproved, not superseded observations of the certificate linked to a criterion of the standard
 * (approving a standard approves what it was judged on).
 */
export async function approveObservationsOfStandard(
  trx: Trx,
  certificateId: number,
  standardId: number,
  by: number,
  now: Date,
) {
  await trx
    .updateTable('care_certificate_observations as o')
    .set({ approved_at: now, approved_by: by, updated_at: now })
    .where('o.certificate_id', '=', certificateId)
    .where('o.approved_at', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('care_certificate_observations as n')
            .select('n.id')
            .whereRef('n.supersedes_id', '=', 'o.id'),
        ),
      ),
    )
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('care_certificate_observation_criteria as oc')
          .innerJoin('care_certificate_criteria as k', 'k.id', 'oc.criterion_id')
          .select('oc.criterion_id')
          .whereRef('oc.observation_id', '=', 'o.id')
          .where('k.standard_id', '=', standardId),
      ),
    )
    .execute();
}

/** A user the assessor may be: their name (in scope is checked by the caller). */
export async function findUserName(db: DbOrTrx, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'primary_entity_id'])
    .where('id', '=', id)
    .executeTakeFirst();
}

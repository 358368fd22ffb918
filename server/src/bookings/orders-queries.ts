import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Trx } from '../results/queries';

/** SQL of training orders (issue 15). */
type DbOrTrx = Db | Trx;

const orderColumns = (db: DbOrTrx) =>
  db
    .selectFrom('training_orders as o')
    .innerJoin('entities as e', 'e.id', 'o.entity_id')
    .innerJoin('training_sessions as s', 's.id', 'o.session_id')
    .leftJoin('users as u', 'u.id', 'o.ordered_by')
    .select([
      'o.id',
      'o.uuid',
      'o.session_id',
      's.entity_id as session_entity_id',
      'o.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'o.places',
      'o.named',
      'o.status',
      'o.notes',
      'o.ordered_by',
      'u.uuid as ordered_by_uuid',
      'u.name as ordered_by_name',
      'o.created_at',
    ]);
export type OrderRow = Awaited<ReturnType<ReturnType<typeof orderColumns>['execute']>>[number];

export const findOrder = (db: DbOrTrx, id: number) =>
  orderColumns(db).where('o.id', '=', id).executeTakeFirst();

/** Orders placed by the organisations `entityIds`, or on sessions owned by `providerIds` (null: no bound). */
export async function ordersPage(
  db: DbOrTrx,
  bound: { entityIds: readonly number[] | null; providerIds: readonly number[] },
  page: { page: number; per_page: number; session_id?: number },
) {
  let q = orderColumns(db);
  if (page.session_id) q = q.where('o.session_id', '=', page.session_id);
  const { entityIds, providerIds } = bound;
  if (entityIds !== null)
    q = q.where((eb) =>
      eb.or([
        entityIds.length ? eb('o.entity_id', 'in', [...entityIds]) : eb.lit(false),
        providerIds.length ? eb('s.entity_id', 'in', [...providerIds]) : eb.lit(false),
      ]),
    );
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('o.created_at', 'desc').orderBy('o.id', 'desc'),
    { page: page.page, perPage: page.per_page },
  );
  return { rows, total };
}

export async function insertOrder(
  trx: Trx,
  o: {
    sessionId: number;
    entityId: number;
    places: number;
    notes: string | null;
    orderedBy: number;
    now: Date;
  },
) {
  const row = await trx
    .insertInto('training_orders')
    .values({
      session_id: o.sessionId,
      entity_id: o.entityId,
      places: o.places,
      notes: o.notes,
      ordered_by: o.orderedBy,
      created_at: o.now,
      updated_at: o.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export const lockOrder = (trx: Trx, id: number) =>
  trx.selectFrom('training_orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

/** The order's delegates still on the session, locked in id order. */
export const lockOrderDelegates = (trx: Trx, orderId: number) =>
  trx
    .selectFrom('session_delegates')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', 'not in', ['declined', 'deleted'])
    .orderBy('id')
    .forUpdate()
    .execute();

export async function cancelOrderRow(trx: Trx, id: number, now: Date) {
  await trx
    .updateTable('training_orders')
    .set({ status: 'cancelled', updated_at: now })
    .where('id', '=', id)
    .execute();
}

import type { AudienceKind } from '@cc/contracts';
import { type SqlBool, sql } from 'kysely';
import { escapeLike } from '../courses/queries';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Trx } from '../results/queries';

/**
 * SQL of the mailbox lists (split from queries.ts by size): every read is bounded by its owner, the recipient or the
 * sender, who the service has checked is the caller.
 */
type Executor = Db | Trx;

// --- Lists -------------------------------------------------------------------------------------------------

const messageColumns = [
  'm.id',
  'm.text',
  'm.audience_kind',
  'm.audience_name',
  'm.audience_deep',
  'm.mailed',
  'm.sent_at',
] as const;

export interface MessageColumns {
  id: number;
  text: string;
  audience_kind: AudienceKind;
  audience_name: string;
  audience_deep: boolean;
  mailed: boolean;
  sent_at: Date;
}

export interface ReceivedRow extends MessageColumns {
  read_at: Date | null;
  sender_id: number;
  sender_uuid: string;
  sender_name: string;
}

interface PageArgs {
  search?: string;
  page: number;
  perPage: number;
}

function receivedBase(db: Executor, recipientId: number) {
  return db
    .selectFrom('message_recipients as mr')
    .innerJoin('messages as m', 'm.id', 'mr.message_id')
    .innerJoin('users as s', 's.id', 'm.sender_id')
    .where('mr.recipient_id', '=', recipientId)
    .where('mr.deleted_at', 'is', null);
}

const receivedColumns = [
  ...messageColumns,
  'mr.read_at',
  's.id as sender_id',
  's.uuid as sender_uuid',
  's.name as sender_name',
] as const;

/** The owner's received messages (not deleted), newest first: from one sender, only unread, searched. */
export async function receivedPage(
  db: Executor,
  o: PageArgs & { recipientId: number; senderId?: number; unread?: boolean },
): Promise<{ rows: ReceivedRow[]; total: number }> {
  let base = receivedBase(db, o.recipientId);
  if (o.senderId !== undefined) base = base.where('m.sender_id', '=', o.senderId);
  if (o.unread) base = base.where('mr.read_at', 'is', null);
  if (o.search) {
    const like = `%${escapeLike(o.search)}%`;
    base = base.where((eb) => eb.or([eb('m.text', 'ilike', like), eb('s.name', 'ilike', like)]));
  }
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) => filtered.select(receivedColumns).orderBy('mr.message_id', 'desc'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows: rows as ReceivedRow[], total };
}

export async function findReceived(
  db: Executor,
  messageId: number,
  recipientId: number,
): Promise<ReceivedRow | undefined> {
  return (await receivedBase(db, recipientId)
    .where('mr.message_id', '=', messageId)
    .select(receivedColumns)
    .executeTakeFirst()) as ReceivedRow | undefined;
}

/** Unread and not deleted (message_recipients_unread_idx). */
export async function unreadCount(db: Executor, recipientId: number): Promise<number> {
  const row = await db
    .selectFrom('message_recipients')
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .where('deleted_at', 'is', null)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function sentBase(db: Executor, senderId: number) {
  return db
    .selectFrom('messages as m')
    .where('m.sender_id', '=', senderId)
    .where('m.sender_deleted_at', 'is', null);
}

const reached = (recipientId: number) =>
  sql<SqlBool>`EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = m.id AND r.recipient_id = ${recipientId})`;

/** The owner's sent messages (not deleted), newest first: those that reached one person, searched. */
export async function sentPage(
  db: Executor,
  o: PageArgs & { senderId: number; recipientId?: number },
): Promise<{ rows: MessageColumns[]; total: number }> {
  let base = sentBase(db, o.senderId);
  if (o.recipientId !== undefined) base = base.where(reached(o.recipientId));
  if (o.search) {
    const like = `%${escapeLike(o.search)}%`;
    // "The other person's name": the audience as sent, or the current name of anyone the send reached.
    base = base.where((eb) =>
      eb.or([
        eb('m.text', 'ilike', like),
        eb('m.audience_name', 'ilike', like),
        sql<SqlBool>`EXISTS (SELECT 1 FROM message_recipients r JOIN users ru ON ru.id = r.recipient_id
                              WHERE r.message_id = m.id AND ru.name ILIKE ${like})`,
      ]),
    );
  }
  const { rows, total } = await pageWithTotal(
    base,
    (filtered) => filtered.select(messageColumns).orderBy('m.id', 'desc'),
    { page: o.page, perPage: o.perPage },
  );
  return { rows: rows as MessageColumns[], total };
}

export async function findSent(
  db: Executor,
  messageId: number,
  senderId: number,
): Promise<MessageColumns | undefined> {
  return (await sentBase(db, senderId)
    .where('m.id', '=', messageId)
    .select(messageColumns)
    .executeTakeFirst()) as MessageColumns | undefined;
}

export interface SentStats {
  recipientCount: number;
  readCount: number;
  /** The one recipient of a message to one person. */
  person: { id: number; uuid: string; name: string } | null;
}

/** Recipients and reads of these sends, and the person of each one-person send: two queries for a whole page. */
export async function sentStats(
  db: Executor,
  messages: { id: number; audience_kind: AudienceKind }[],
): Promise<Map<number, SentStats>> {
  const stats = new Map<number, SentStats>();
  if (!messages.length) return stats;
  const counts = await db
    .selectFrom('message_recipients')
    .where(
      'message_id',
      'in',
      messages.map((m) => m.id),
    )
    .groupBy('message_id')
    .select([
      'message_id',
      (eb) => eb.fn.countAll<number>().as('n'),
      (eb) => eb.fn.count<number>('read_at').as('read'),
    ])
    .execute();
  for (const c of counts)
    stats.set(c.message_id, { recipientCount: Number(c.n), readCount: Number(c.read), person: null });
  const personIds = messages.filter((m) => m.audience_kind === 'person').map((m) => m.id);
  if (personIds.length) {
    const people = await db
      .selectFrom('message_recipients as mr')
      .innerJoin('users as u', 'u.id', 'mr.recipient_id')
      .where('mr.message_id', 'in', personIds)
      .select(['mr.message_id', 'u.id', 'u.uuid', 'u.name'])
      .execute();
    for (const p of people) {
      const s = stats.get(p.message_id);
      if (s) s.person = { id: p.id, uuid: p.uuid, name: p.name };
    }
  }
  return stats;
}

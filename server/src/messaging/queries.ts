import type { AudienceKind } from '@cc/contracts';
import { type SqlBool, sql } from 'kysely';
import { escapeLike } from '../courses/queries';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/**
 * SQL of messaging (STYLE.md "SQL in one place"). Reads of a mailbox are bounded by its owner (the recipient or the
 * sender is the caller, checked in the service); who a send may reach is bounded by the caller's scope, resolved in
 * the service and passed here as entity ids, a tag or a list of user ids already checked.
 */
type Executor = Db | Trx;

const MAX_INT = 2147483647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PersonRow {
  id: number;
  uuid: string;
  name: string;
  email: string;
  primary_entity_id: number;
}

/** How a person ref is looked up: `id:<n>` for a numeric id, `uuid:<lowercase>` for a uuid, null for neither. */
export function refKey(ref: string | number): string | null {
  const text = String(ref).trim();
  if (/^\d{1,10}$/.test(text) && Number(text) <= MAX_INT) return `id:${Number(text)}`;
  if (UUID.test(text)) return `uuid:${text.toLowerCase()}`;
  return null;
}

/** People named by numeric id or uuid (as the users API's `{id}`), in one query, by refKey. */
export async function findPeople(db: Executor, refs: (string | number)[]): Promise<Map<string, PersonRow>> {
  const ids: number[] = [];
  const uuids: string[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    if (key?.startsWith('id:')) ids.push(Number(key.slice(3)));
    else if (key) uuids.push(key.slice(5));
  }
  if (!ids.length && !uuids.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'email', 'primary_entity_id'])
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb('id', 'in', ids)] : []),
        ...(uuids.length ? [eb('uuid', 'in', uuids)] : []),
      ]),
    )
    .execute();
  const byRef = new Map<string, PersonRow>();
  for (const row of rows) {
    byRef.set(`id:${row.id}`, row);
    byRef.set(`uuid:${row.uuid.toLowerCase()}`, row);
  }
  return byRef;
}

/** An organisation by numeric id or slug (the system message's `{id}`). */
export async function findEntityByRef(db: Executor, ref: string) {
  const q = db.selectFrom('entities').select(['id', 'slug', 'name']);
  if (/^\d{1,10}$/.test(ref))
    return Number(ref) <= MAX_INT ? q.where('id', '=', Number(ref)).executeTakeFirst() : undefined;
  return q.where('slug', '=', ref).executeTakeFirst();
}

/** The subset of `userIds` who have sent `ownerId` a message (a reply to them needs no permission). */
export async function sendersTo(db: Executor, ownerId: number, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .selectFrom('message_recipients as mr')
    .innerJoin('messages as m', 'm.id', 'mr.message_id')
    .where('mr.recipient_id', '=', ownerId)
    .where('m.sender_id', 'in', userIds)
    .select('m.sender_id')
    .distinct()
    .execute();
  return new Set(rows.map((r) => r.sender_id));
}

/** True when either of the two has ever sent the other a message. */
export async function inConversation(db: Executor, a: number, b: number): Promise<boolean> {
  const row = await db
    .selectFrom('message_recipients as mr')
    .innerJoin('messages as m', 'm.id', 'mr.message_id')
    .where((eb) =>
      eb.or([
        eb.and([eb('mr.recipient_id', '=', a), eb('m.sender_id', '=', b)]),
        eb.and([eb('mr.recipient_id', '=', b), eb('m.sender_id', '=', a)]),
      ]),
    )
    .select('m.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// --- Sending -------------------------------------------------------------------------------------------------

export interface NewMessage {
  senderId: number;
  entityId: number;
  text: string;
  audience: { kind: AudienceKind; name: string; deep: boolean };
  mailed: boolean;
  sentAt: Date;
}

export async function insertMessage(trx: Trx, m: NewMessage): Promise<number> {
  const row = await trx
    .insertInto('messages')
    .values({
      sender_id: m.senderId,
      entity_id: m.entityId,
      text: m.text,
      audience_kind: m.audience.kind,
      audience_name: m.audience.name,
      audience_deep: m.audience.deep,
      mailed: m.mailed,
      sent_at: m.sentAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Who a send reaches, as the service resolved it inside the sender's scope:
 * - users: these people (already checked one by one);
 * - members: the people whose primary entity is one of `entityIds` (null: everyone, a super admin's system message),
 *   holding `roleId` when given;
 * - tag: the people linked to the tag whose primary entity is one of `entityIds` (the tag's entity subtree).
 */
export type RecipientSource =
  | { kind: 'users'; userIds: number[] }
  | { kind: 'members'; entityIds: number[] | null; roleId?: number }
  | { kind: 'tag'; tagId: number; entityIds: number[] };

/** The (message, recipient) rows of a send, or null when the source names nobody. */
function recipientsQuery(trx: Trx, messageId: number, senderId: number, source: RecipientSource) {
  const messageIdCol = sql<number>`${messageId}::int`.as('message_id');
  if (source.kind === 'tag') {
    if (!source.entityIds.length) return null;
    return trx
      .selectFrom('tag_users as tu')
      .innerJoin('users as u', 'u.id', 'tu.user_id')
      .where('tu.tag_id', '=', source.tagId)
      .where('u.primary_entity_id', 'in', source.entityIds)
      .where('u.id', '<>', senderId)
      .select([messageIdCol, 'u.id as recipient_id']);
  }
  let q = trx.selectFrom('users as u').where('u.id', '<>', senderId);
  if (source.kind === 'users') {
    if (!source.userIds.length) return null;
    q = q.where('u.id', 'in', source.userIds);
  } else {
    if (source.entityIds) {
      if (!source.entityIds.length) return null;
      q = q.where('u.primary_entity_id', 'in', source.entityIds);
    }
    if (source.roleId !== undefined) q = q.where('u.role_id', '=', source.roleId);
  }
  return q.select([messageIdCol, 'u.id as recipient_id']);
}

/**
 * Records who the send reached in ONE statement (INSERT ... SELECT), so a fan-out sees the members as they are at
 * one instant: a concurrent change of a role, organisation or tag is either wholly in or wholly out. The sender is
 * never their own recipient. Returns how many it reached.
 */
export async function insertRecipients(
  trx: Trx,
  messageId: number,
  senderId: number,
  source: RecipientSource,
): Promise<number> {
  const select = recipientsQuery(trx, messageId, senderId, source);
  if (!select) return 0;
  // Counted in the database: a system message may reach thousands, whose ids need not travel back.
  const row = await trx
    .with('reached', (db) =>
      db
        .insertInto('message_recipients')
        .columns(['message_id', 'recipient_id'])
        .expression(select)
        .returning('recipient_id'),
    )
    .selectFrom('reached')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * One mail job per recipient of the send, in one statement and in the send's transaction: the jobs exist iff the
 * send committed, and the worker (another transaction) only ever sees them after that commit. The unique key per
 * (message, recipient) makes a repeat a no-op.
 */
export async function enqueueRecipientMails(
  trx: Trx,
  o: { jobName: string; messageId: number; runAt: Date; maxAttempts: number; timeoutSeconds: number },
): Promise<number> {
  const { rows } = await sql<{ id: number }>`
    INSERT INTO jobs (name, payload, run_at, max_attempts, timeout_seconds, unique_key)
    SELECT ${o.jobName}, jsonb_build_object('message_id', mr.message_id, 'recipient_id', mr.recipient_id),
           ${o.runAt}, ${o.maxAttempts}, ${o.timeoutSeconds},
           ${o.jobName} || ':' || mr.message_id || ':' || mr.recipient_id
      FROM message_recipients mr
     WHERE mr.message_id = ${o.messageId}
    ON CONFLICT (unique_key) DO NOTHING
    RETURNING id`.execute(trx);
  return rows.length;
}

/** What the e-mail of one recipient says: the text, who sent it, and where it goes. */
export async function recipientMail(db: Executor, messageId: number, recipientId: number) {
  return db
    .selectFrom('message_recipients as mr')
    .innerJoin('messages as m', 'm.id', 'mr.message_id')
    .innerJoin('users as s', 's.id', 'm.sender_id')
    .innerJoin('users as u', 'u.id', 'mr.recipient_id')
    .where('mr.message_id', '=', messageId)
    .where('mr.recipient_id', '=', recipientId)
    .select(['m.text', 's.name as sender_name', 'u.name as recipient_name', 'u.email as recipient_email'])
    .executeTakeFirst();
}

// --- Reading -------------------------------------------------------------------------------------------------

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
  const [rows, total] = await Promise.all([
    base
      .select(receivedColumns)
      .orderBy('mr.message_id', 'desc')
      .limit(o.perPage)
      .offset((o.page - 1) * o.perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as ReceivedRow[], total: Number(total.n) };
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
  const [rows, total] = await Promise.all([
    base
      .select(messageColumns)
      .orderBy('m.id', 'desc')
      .limit(o.perPage)
      .offset((o.page - 1) * o.perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as MessageColumns[], total: Number(total.n) };
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

// --- Changing one's own copy ---------------------------------------------------------------------------------

/**
 * Read or unread, in one statement: marking read keeps the first read time (two clients marking at once agree),
 * marking unread clears it. False when the owner has no such copy (never received, deleted, another's).
 */
export async function setRead(
  db: Executor,
  o: { messageId: number; recipientId: number; read: boolean; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('message_recipients')
    .set({ read_at: o.read ? sql<Date>`COALESCE(read_at, ${o.now})` : null })
    .where('message_id', '=', o.messageId)
    .where('recipient_id', '=', o.recipientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The sender's copy leaves their Sent list; only the first of two concurrent deletes changes anything. */
export async function deleteSentCopy(db: Executor, messageId: number, senderId: number, now: Date) {
  const result = await db
    .updateTable('messages')
    .set({ sender_deleted_at: now })
    .where('id', '=', messageId)
    .where('sender_id', '=', senderId)
    .where('sender_deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The recipient's copy leaves their Received list. */
export async function deleteReceivedCopy(db: Executor, messageId: number, recipientId: number, now: Date) {
  const result = await db
    .updateTable('message_recipients')
    .set({ deleted_at: now })
    .where('message_id', '=', messageId)
    .where('recipient_id', '=', recipientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

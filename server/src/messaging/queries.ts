import type { AudienceKind } from '@cc/contracts';
import { sql } from 'kysely';
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

type RecipientJobs = {
  jobName: string;
  messageId: number;
  runAt: Date;
  maxAttempts: number;
  timeoutSeconds: number;
};

/**
 * One job per recipient of the send, in one statement and in the send's transaction: the jobs exist iff the send
 * committed, and the worker (another transaction) only ever sees them after that commit. The unique key per
 * (job, message, recipient) makes a repeat a no-op. `onlyWithPhone` keeps the recipients with a push device.
 */
async function enqueueRecipientJobs(trx: Trx, o: RecipientJobs, onlyWithPhone: boolean): Promise<number> {
  const withPhone = onlyWithPhone
    ? sql`AND EXISTS (SELECT 1 FROM push_devices d WHERE d.user_id = mr.recipient_id)`
    : sql``;
  const { rows } = await sql<{ id: number }>`
    INSERT INTO jobs (name, payload, run_at, max_attempts, timeout_seconds, unique_key)
    SELECT ${o.jobName}, jsonb_build_object('message_id', mr.message_id, 'recipient_id', mr.recipient_id),
           ${o.runAt}, ${o.maxAttempts}, ${o.timeoutSeconds},
           ${o.jobName} || ':' || mr.message_id || ':' || mr.recipient_id
      FROM message_recipients mr
     WHERE mr.message_id = ${o.messageId}
       ${withPhone}
    ON CONFLICT (unique_key) DO NOTHING
    RETURNING id`.execute(trx);
  return rows.length;
}

/** One mail job per recipient of the send. */
export function enqueueRecipientMails(trx: Trx, o: RecipientJobs): Promise<number> {
  return enqueueRecipientJobs(trx, o, false);
}

/**
 * One push job per recipient with a phone registered (issue 19); recipients without a phone get none, so a send to
 * a whole organisation queues only what can be pushed.
 */
export function enqueueRecipientPushes(trx: Trx, o: RecipientJobs): Promise<number> {
  return enqueueRecipientJobs(trx, o, true);
}

/** What the push of one recipient says: who sent it, the text, and the recipient's organisation (the ledger's). */
export async function recipientPush(db: Executor, messageId: number, recipientId: number) {
  return db
    .selectFrom('message_recipients as mr')
    .innerJoin('messages as m', 'm.id', 'mr.message_id')
    .innerJoin('users as s', 's.id', 'm.sender_id')
    .innerJoin('users as u', 'u.id', 'mr.recipient_id')
    .where('mr.message_id', '=', messageId)
    .where('mr.recipient_id', '=', recipientId)
    .select(['m.text', 's.name as sender_name', 'u.primary_entity_id as entity_id'])
    .executeTakeFirst();
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

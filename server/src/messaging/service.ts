import {
  type AudienceKind,
  MESSAGE_MAX_LENGTH,
  type MessagesQuery,
  MessagingPerm,
  type SendMessageBody,
  type SentMessage,
  type SystemMessageBody,
} from '@cc/contracts';
import type { Db } from '../db/connect';
import { type EntityScope, entityScope, inScope } from '../entities/scope';
import { ancestorIds, subtreeIds } from '../entities/tree';
import { type Actor, actorOf, authorize, type Ctx } from '../http/context';
import { forbidden, invalidField, notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import { findRole } from '../roles/queries';
import { entityInScope } from '../roles/service';
import { findTag } from '../tags/queries';
import { MESSAGE_MAIL, MESSAGE_MAIL_OPTIONS, MESSAGE_PUSH, MESSAGE_PUSH_OPTIONS } from './jobs';
import {
  findReceived,
  findSent,
  type MessageColumns,
  receivedPage,
  sentPage,
  sentStats,
  unreadCount,
} from './list-queries';
import { presentReceived, presentSent } from './presenters';
import {
  deleteReceivedCopy,
  deleteSentCopy,
  enqueueRecipientMails,
  enqueueRecipientPushes,
  findEntityByRef,
  findPeople,
  inConversation,
  insertMessage,
  insertRecipients,
  type PersonRow,
  type RecipientSource,
  refKey,
  sendersTo,
  setRead,
} from './queries';

/**
 * Messaging (spec 2 §3, §7, §8; contracts messaging.ts). A mailbox is its owner's alone: every `/users/{id}/...`
 * call needs `{id}` to be the caller (another user in scope: 403; out of scope or missing: 404, the same answer).
 * Who may send to whom is the contract's rule: a reply to anyone who messaged you needs nothing; otherwise 39 for a
 * person, role or organisation, 81 or 39 for a list of people, 97 with 39 for a tag, a super admin for a system
 * message; and whoever it reaches is inside the sender's scope (the acting-as organisation when acting as one).
 * A send is recorded as one row with its recipients resolved in one statement, in one transaction with its mail
 * jobs (queries.ts insertRecipients, enqueueRecipientMails): all of it or none of it.
 */
export const MessagingErrors = {
  noRecipient: 'Choose who to send it to.',
  unreachable: 'A person you chose cannot be sent messages by you.',
  self: 'You cannot send a message to yourself.',
  nobody: 'There is no one to send this message to.',
  text: 'Write a message.',
  tooLong: `A message can be at most ${MESSAGE_MAX_LENGTH} characters.`,
} as const;

// --- Whose mailbox, and who the other person is ------------------------------------------------------------

async function personByRef(ctx: Ctx, ref: string): Promise<PersonRow | undefined> {
  const key = refKey(ref);
  return key ? (await findPeople(ctx.db, [ref])).get(key) : undefined;
}

/** `{id}` of a mailbox call: the caller themselves (403 for another user they may see, 404 otherwise). */
async function ownMailbox(ctx: Ctx, ref: string): Promise<Actor> {
  const actor = actorOf(ctx);
  const person = await personByRef(ctx, ref);
  if (person?.id === actor.userId) return actor;
  if (person && inScope(await entityScope(ctx), person.primary_entity_id)) throw forbidden();
  throw notFound();
}

/**
 * `{recipient}` / `{sender}` of a conversation: someone the caller may see, or has exchanged messages with (a super
 * admin of the group who wrote to a learner is outside the learner's scope, yet their conversation is the
 * learner's). Anyone else answers 404, like a missing person.
 */
async function correspondent(ctx: Ctx, actor: Actor, ref: string): Promise<PersonRow> {
  const person = await personByRef(ctx, ref);
  if (!person) throw notFound();
  if (person.id === actor.userId || inScope(await entityScope(ctx), person.primary_entity_id)) return person;
  if (await inConversation(ctx.db, actor.userId, person.id)) return person;
  throw notFound();
}

// --- Reading ------------------------------------------------------------------------------------------------

/** GET /users/{id}/received/messages and /received/{sender}/messages: a page and the owner's unread count. */
export async function listReceived(ctx: Ctx, ref: string, query: MessagesQuery, senderRef?: string) {
  const actor = await ownMailbox(ctx, ref);
  const sender = senderRef === undefined ? undefined : await correspondent(ctx, actor, senderRef);
  const [{ rows, total }, unread] = await Promise.all([
    receivedPage(ctx.db, {
      recipientId: actor.userId,
      senderId: sender?.id,
      unread: query.unread,
      search: query.search || undefined,
      page: query.page,
      perPage: query.per_page,
    }),
    unreadCount(ctx.db, actor.userId),
  ]);
  return { data: rows.map(presentReceived), total, unread };
}

async function presentSentRows(db: Db, rows: MessageColumns[]) {
  const stats = await sentStats(db, rows);
  return rows.map((row) => presentSent(row, stats.get(row.id)));
}

/** GET /users/{id}/sent/messages and /sent/{recipient}/messages (the sends that reached that person). */
export async function listSent(ctx: Ctx, ref: string, query: MessagesQuery, recipientRef?: string) {
  const actor = await ownMailbox(ctx, ref);
  const recipient = recipientRef === undefined ? undefined : await correspondent(ctx, actor, recipientRef);
  const { rows, total } = await sentPage(ctx.db, {
    senderId: actor.userId,
    recipientId: recipient?.id,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  return { data: await presentSentRows(ctx.db, rows), total };
}

// --- Changing one's own copy ------------------------------------------------------------------------------------

/** PATCH /users/{id}/received/messages/{messageId}: read or unread; 404 unless the owner holds that copy. */
export async function updateReceived(ctx: Ctx, ref: string, messageId: number, read: boolean) {
  const actor = await ownMailbox(ctx, ref);
  const changed = await setRead(ctx.db, { messageId, recipientId: actor.userId, read, now: ctx.clock() });
  const row = changed ? await findReceived(ctx.db, messageId, actor.userId) : undefined;
  if (!row) throw notFound();
  return presentReceived(row);
}

/**
 * DELETE /users/{id}/messages/{messageId}: the caller's own copy only: as its sender, from their Sent list; as a
 * recipient, from their Received list. The other side keeps theirs.
 */
export async function deleteMessage(ctx: Ctx, ref: string, messageId: number): Promise<void> {
  const actor = await ownMailbox(ctx, ref);
  const now = ctx.clock();
  if (await deleteSentCopy(ctx.db, messageId, actor.userId, now)) return;
  if (await deleteReceivedCopy(ctx.db, messageId, actor.userId, now)) return;
  throw notFound();
}

// --- Sending ------------------------------------------------------------------------------------------------

interface Send {
  senderId: number;
  /** The organisation sent from (the acting-as entity, else the sender's primary entity). */
  entityId: number;
  text: string;
  audience: { kind: AudienceKind; name: string; deep: boolean };
  recipients: RecipientSource;
  /** A list of people must reach every one of them: one deleted meanwhile refuses the whole send. */
  expected?: number;
  mail: boolean;
  now: Date;
}

/** A person (or tag, role) deleted since it was checked: the foreign key refuses the send, which is a 404. */
function goneToNotFound(error: unknown): never {
  if ((error as { code?: string })?.code === '23503') throw notFound();
  throw error;
}

/**
 * The one path every send takes: the message, its recipients and their mail jobs in one transaction: the caller's
 * when `db` is one (a job that records its send and finishes as one), else its own.
 */
async function recordSend(db: Db | Trx, send: Send): Promise<number> {
  const inTransaction = <T>(work: (trx: Trx) => Promise<T>) =>
    db.isTransaction ? work(db as Trx) : db.transaction().execute(work);
  return inTransaction(async (trx) => {
    const id = await insertMessage(trx, {
      senderId: send.senderId,
      entityId: send.entityId,
      text: send.text,
      audience: send.audience,
      mailed: send.mail,
      sentAt: send.now,
    });
    const reached = await insertRecipients(trx, id, send.senderId, send.recipients);
    if (reached === 0) throw invalidField('recipient', MessagingErrors.nobody);
    if (send.expected !== undefined && reached !== send.expected)
      throw invalidField('recipient', MessagingErrors.unreachable);
    if (send.mail)
      await enqueueRecipientMails(trx, {
        jobName: MESSAGE_MAIL,
        messageId: id,
        runAt: send.now,
        ...MESSAGE_MAIL_OPTIONS,
      });
    await enqueueRecipientPushes(trx, {
      jobName: MESSAGE_PUSH,
      messageId: id,
      runAt: send.now,
      ...MESSAGE_PUSH_OPTIONS,
    });
    return id;
  }).catch(goneToNotFound);
}

async function sentMessage(db: Db, id: number, senderId: number): Promise<SentMessage> {
  const row = await findSent(db, id, senderId);
  if (!row) throw notFound();
  const [message] = await presentSentRows(db, [row]);
  return message as SentMessage;
}

const wantsMail = (body: { messageTypes?: readonly string[] }) =>
  body.messageTypes?.includes('mail') ?? false;

async function sendAs(
  ctx: Ctx,
  actor: Actor,
  body: { message: string; messageTypes?: readonly string[] },
  o: Pick<Send, 'audience' | 'recipients' | 'expected'>,
): Promise<SentMessage> {
  const scope = await entityScope(ctx);
  const id = await recordSend(ctx.db, {
    ...o,
    senderId: actor.userId,
    entityId: scope.baseId,
    text: body.message,
    mail: wantsMail(body),
    now: ctx.clock(),
  });
  return sentMessage(ctx.db, id, actor.userId);
}

/**
 * POST /users/{id}/message: to one person (`recipient` a single ref) or a list (an array). Each must be someone the
 * sender may see or who has messaged them. One person out of reach is a 404 (as if missing); a list with anyone out
 * of reach is refused whole with 422 on `recipient`, naming nobody. Permission: none when every recipient has
 * messaged the sender (a reply), else 39 for one person, 39 or 81 for a list.
 */
export async function sendToPeople(ctx: Ctx, ref: string, body: SendMessageBody): Promise<SentMessage> {
  const actor = await ownMailbox(ctx, ref);
  if (body.recipient === undefined) throw invalidField('recipient', MessagingErrors.noRecipient);
  const isList = Array.isArray(body.recipient);
  const refs = Array.isArray(body.recipient) ? body.recipient : [body.recipient];
  const unreachable = () => (isList ? invalidField('recipient', MessagingErrors.unreachable) : notFound());
  const found = await findPeople(ctx.db, refs);
  const people = new Map<number, PersonRow>();
  for (const r of refs) {
    const key = refKey(r);
    const person = key ? found.get(key) : undefined;
    if (!person) throw unreachable();
    people.set(person.id, person);
  }
  if (people.has(actor.userId)) throw invalidField('recipient', MessagingErrors.self);
  const scope = await entityScope(ctx);
  const repliedTo = await sendersTo(ctx.db, actor.userId, [...people.keys()]);
  const fresh = [...people.values()].filter((p) => !repliedTo.has(p.id));
  if (fresh.some((p) => !inScope(scope, p.primary_entity_id))) throw unreachable();
  if (fresh.length)
    authorize(
      ctx,
      isList ? [MessagingPerm.dashboard, MessagingPerm.activeUsers] : [MessagingPerm.dashboard],
      'any',
    );
  const list = [...people.values()];
  const one = list.length === 1 ? list[0] : undefined;
  return sendAs(ctx, actor, body, {
    audience: one
      ? { kind: 'person', name: one.name, deep: false }
      : { kind: 'people', name: `${list.length} people`, deep: false },
    recipients: { kind: 'users', userIds: [...people.keys()].sort((a, b) => a - b) },
    expected: people.size,
  });
}

const entityIdsOf = async (db: Db, entityId: number, deep: boolean) =>
  deep ? subtreeIds(db, entityId) : [entityId];

/**
 * POST /entities/{slug}/roles/{roleId}/message (39): the people of the organisation (and its descendants when deep)
 * who hold the role now. The role must be the organisation's or one it inherits (404 otherwise).
 */
export async function sendToRole(ctx: Ctx, slug: string, roleId: number, body: SendMessageBody) {
  const entity = await entityInScope(ctx, slug);
  const role = await findRole(ctx.db, 'role', roleId, await ancestorIds(ctx.db, entity.id));
  if (!role) throw notFound();
  const actor = authorize(ctx, [MessagingPerm.dashboard]);
  const deep = body.deep ?? false;
  return sendAs(ctx, actor, body, {
    audience: { kind: 'role', name: `${role.name} at ${entity.name}`, deep },
    recipients: { kind: 'members', entityIds: await entityIdsOf(ctx.db, entity.id, deep), roleId: role.id },
  });
}

/** POST /entities/{slug}/message (39): the organisation's current members, and its descendants' when deep. */
export async function sendToEntity(ctx: Ctx, slug: string, body: SendMessageBody) {
  const entity = await entityInScope(ctx, slug);
  const actor = authorize(ctx, [MessagingPerm.dashboard]);
  const deep = body.deep ?? false;
  return sendAs(ctx, actor, body, {
    audience: { kind: 'entity', name: entity.name, deep },
    recipients: { kind: 'members', entityIds: await entityIdsOf(ctx.db, entity.id, deep) },
  });
}

/**
 * POST /tags/{id}/message (97 and 39): the people linked to the tag now, inside the tag's organisation subtree (the
 * same people its list shows). A tag outside the caller's scope answers 404.
 */
export async function sendToTag(ctx: Ctx, tagId: number, body: SendMessageBody) {
  actorOf(ctx);
  const tag = await findTag(ctx.db, tagId);
  if (!tag || !inScope(await entityScope(ctx), tag.entity_id)) throw notFound();
  const actor = authorize(ctx, [MessagingPerm.tagsUse, MessagingPerm.dashboard]);
  return sendAs(ctx, actor, body, {
    audience: { kind: 'tag', name: tag.name, deep: false },
    recipients: { kind: 'tag', tagId: tag.id, entityIds: await subtreeIds(ctx.db, tag.entity_id) },
  });
}

function everyoneIn(scope: EntityScope): number[] | null {
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

/**
 * POST /system/message/{id} (super admins): `all` reaches everyone (everyone of the acting-as organisation when
 * acting as one); an organisation's id or slug reaches its members, and its descendants' when deep. An organisation
 * the caller may not see answers 404 before the 403 of a caller who is not a super admin.
 */
export async function sendSystemMessage(ctx: Ctx, target: string, body: SystemMessageBody) {
  const actor = actorOf(ctx);
  const scope = await entityScope(ctx);
  if (target === 'all') {
    if (!actor.superAdmin) throw forbidden();
    return sendAs(ctx, actor, body, {
      audience: {
        kind: 'system',
        name: actor.actingAs ? `Everyone at ${actor.actingAs.name}` : 'Everyone',
        deep: true,
      },
      recipients: { kind: 'members', entityIds: everyoneIn(scope) },
    });
  }
  const entity = await findEntityByRef(ctx.db, target);
  if (!entity || !inScope(scope, entity.id)) throw notFound();
  if (!actor.superAdmin) throw forbidden();
  const deep = body.deep ?? false;
  return sendAs(ctx, actor, body, {
    audience: { kind: 'system', name: entity.name, deep },
    recipients: { kind: 'members', entityIds: await entityIdsOf(ctx.db, entity.id, deep) },
  });
}

/**
 * A message from a user to people the server chose, without the sender's scope and permission checks: for
 * server-side callers that have already decided who should hear (the help widget's "Contact support" writes to the
 * organisation's support contacts or the super admins, who may be outside the user's scope). The same path as every
 * send: one row, its recipients in one statement, the mail jobs in the same transaction. The recipients can reply,
 * as to any message.
 */
export async function sendMessageOnBehalf(
  db: Db | Trx,
  o: { senderId: number; recipientIds: number[]; text: string; mail: boolean; now?: Date },
): Promise<SentMessage> {
  const text = o.text.trim();
  if (!text) throw invalidField('message', MessagingErrors.text);
  if (text.length > MESSAGE_MAX_LENGTH) throw invalidField('message', MessagingErrors.tooLong);
  const sender = await db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('id', '=', o.senderId)
    .executeTakeFirst();
  if (!sender) throw notFound();
  const userIds = [...new Set(o.recipientIds)].filter((id) => id !== sender.id).sort((a, b) => a - b);
  if (!userIds.length) throw invalidField('recipient', MessagingErrors.nobody);
  const people = await findPeople(db, userIds);
  const one = userIds.length === 1 ? people.get(`id:${userIds[0]}`) : undefined;
  const id = await recordSend(db, {
    senderId: sender.id,
    entityId: sender.primary_entity_id,
    text,
    audience: one
      ? { kind: 'person', name: one.name, deep: false }
      : { kind: 'people', name: `${userIds.length} people`, deep: false },
    recipients: { kind: 'users', userIds },
    expected: userIds.length,
    mail: o.mail,
    now: o.now ?? new Date(),
  });
  return sentMessage(db, id, sender.id);
}

import { z } from 'zod';
import { PageLinks, PageMeta, PageQuery, queryBool } from './common';

/**
 * Messaging (spec 2 §3, §7, §8). Who may send to whom (ours, where the spec is silent):
 * - everyone signed in reads their own received and sent messages, marks them read or unread, deletes their own
 *   copy, and replies to anyone who has sent them a message;
 * - `dashboard` (39) sends to any person, role or organisation the sender may see;
 * - `activeUsers` (81) sends to a list of people the sender may see (the active-users and dashboard lists'
 *   "message these people"), as does 39;
 * - `tagsUse` (97) with 39 sends to a tag the sender may see;
 * - a system message (`POST /system/message/{id}`) is for super admins only.
 */
export const MessagingPerm = {
  dashboard: 39,
  activeUsers: 81,
  tagsUse: 97,
} as const;

export const MESSAGE_MAX_LENGTH = 5000;
/** The most people one `recipient` list may name; a role, organisation, tag or system message has no cap. */
export const MESSAGE_MAX_RECIPIENTS = 500;
export const MESSAGE_TYPES = ['mail'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** A person named by uuid or numeric id (as the rest of the API's `{id}` of users). */
const personRef = z.union([z.string().trim().min(1).max(64), z.number().int().positive()]);

/**
 * Sending payload (spec 2 §3, §7): message, recipient, messageTypes. `recipient` names the person or people of
 * `POST /users/{id}/message` ({id} is the sender: the caller themselves); the role, organisation and tag calls take
 * their audience from the path and ignore it. `messageTypes: ['mail']` also e-mails each recipient (after commit,
 * through the job queue). The text is plain: stored as sent, shown as text with links made clickable, never as HTML.
 */
export const SendMessageBody = z.object({
  message: z
    .string({ error: 'Write a message.' })
    .trim()
    .min(1, 'Write a message.')
    .max(MESSAGE_MAX_LENGTH, `A message can be at most ${MESSAGE_MAX_LENGTH} characters.`),
  recipient: z
    .union([personRef, z.array(personRef).min(1, 'Choose who to send it to.').max(MESSAGE_MAX_RECIPIENTS)])
    .optional(),
  messageTypes: z.array(z.enum(MESSAGE_TYPES)).max(MESSAGE_TYPES.length).optional(),
  /**
   * Role and organisation messages only: also reach the organisation's descendants (its homes), as `deep` does for
   * the lists. Ignored by `POST /users/{id}/message` and the tag call.
   */
  deep: queryBool.optional(),
});
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/** `POST /system/message/{id}`: {id} an organisation's id or slug, or `all` for everyone; deep adds descendants. */
export const SystemMessageBody = SendMessageBody.omit({ recipient: true }).extend({
  deep: queryBool.optional(),
});
export type SystemMessageBody = z.infer<typeof SystemMessageBody>;

/** `PATCH /users/{id}/received/messages/{messageId}`: read or unread. */
export const UpdateReceivedMessageBody = z.object({ read: z.boolean() });
export type UpdateReceivedMessageBody = z.infer<typeof UpdateReceivedMessageBody>;

/** The lists: page, per_page, search (in the text and the other person's name). */
export const MessagesQuery = PageQuery.pick({ page: true, per_page: true, search: true }).extend({
  /** received only: just the unread ones. */
  unread: queryBool.optional(),
});
export type MessagesQuery = z.infer<typeof MessagesQuery>;

export const MessagePerson = z.object({ id: z.number(), uuid: z.string(), name: z.string() });
export type MessagePerson = z.infer<typeof MessagePerson>;

export const AUDIENCE_KINDS = ['person', 'people', 'role', 'entity', 'tag', 'system'] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];
/**
 * Who a send was addressed to, as the sender chose it: one person, a list of people, a role of an organisation,
 * an organisation (with its descendants when deep), a tag, or a system message. `name` is for people to read
 * ("Care Assistant at Oakfield House", "Oakfield House", "Night shift", "Everyone").
 */
export const MessageAudience = z.object({
  kind: z.enum(AUDIENCE_KINDS),
  name: z.string(),
  deep: z.boolean(),
});
export type MessageAudience = z.infer<typeof MessageAudience>;

export const ReceivedMessage = z.object({
  id: z.number(),
  message: z.string(),
  sender: MessagePerson,
  audience: MessageAudience,
  sent_at: z.string(),
  read_at: z.string().nullable(),
  /** Also sent by e-mail. */
  mailed: z.boolean(),
});
export type ReceivedMessage = z.infer<typeof ReceivedMessage>;

export const SentMessage = z.object({
  id: z.number(),
  message: z.string(),
  audience: MessageAudience,
  /** The one recipient of a message to one person, else null (see recipient_count). */
  recipient: MessagePerson.nullable(),
  recipient_count: z.number(),
  read_count: z.number(),
  sent_at: z.string(),
  mailed: z.boolean(),
});
export type SentMessage = z.infer<typeof SentMessage>;

/** `GET /users/{id}/received/messages` and `/received/{sender}/messages`: a page plus the owner's unread count. */
export const ReceivedMessagesPage = z.object({
  data: z.array(ReceivedMessage),
  meta: PageMeta,
  links: PageLinks,
  unread_message_count: z.number(),
});
export type ReceivedMessagesPage = z.infer<typeof ReceivedMessagesPage>;

/** What a send answers (201, message 'Sent messages updated.'): the sent message and how many it reached. */
export const SendMessageResult = SentMessage;
export type SendMessageResult = z.infer<typeof SendMessageResult>;

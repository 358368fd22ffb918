import { type Kysely, sql } from 'kysely';

/**
 * 023_messaging (issue 14 "Messaging", spec 2 §7; contracts messaging.ts).
 *
 * - messages: one row per send, as the sender chose it: the sender, the text (plain, stored as sent), the audience
 *   (kind, the name people read, deep), whether it was also e-mailed, when, and `entity_id`: the organisation the
 *   sender sent from (their acting-as entity, else their primary entity), so a tenant query can bound sends by
 *   organisation. `sender_deleted_at`: the sender removed it from their Sent list; the recipients keep theirs.
 *   messages_sender_idx serves "my sent messages, newest first" and the cascade when a user is deleted.
 * - message_recipients: who a send reached, resolved once, when it was sent (the current members of a role,
 *   organisation or tag then), each with their own read and deleted marks. The primary key serves "who did this
 *   send reach" (counts of the Sent list, the conversation with one person); message_recipients_received_idx
 *   serves "my received messages, newest first" (and the cascade when a user is deleted);
 *   message_recipients_unread_idx serves the unread count of the navigation.
 */
const statements = [
  `CREATE TABLE messages (
    id serial PRIMARY KEY,
    sender_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    text text NOT NULL CHECK (length(text) BETWEEN 1 AND 5000),
    audience_kind text NOT NULL CHECK (audience_kind IN ('person', 'people', 'role', 'entity', 'tag', 'system')),
    audience_name text NOT NULL,
    audience_deep boolean NOT NULL DEFAULT false,
    mailed boolean NOT NULL DEFAULT false,
    sent_at timestamptz NOT NULL DEFAULT now(),
    sender_deleted_at timestamptz
  )`,
  `CREATE INDEX messages_sender_idx ON messages(sender_id, id DESC)`,
  `CREATE INDEX messages_entity_idx ON messages(entity_id)`,
  `CREATE TABLE message_recipients (
    message_id integer NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    recipient_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    read_at timestamptz,
    deleted_at timestamptz,
    PRIMARY KEY (message_id, recipient_id)
  )`,
  `CREATE INDEX message_recipients_received_idx ON message_recipients(recipient_id, message_id DESC)`,
  `CREATE INDEX message_recipients_unread_idx ON message_recipients(recipient_id)
     WHERE read_at IS NULL AND deleted_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { sql } from 'kysely';
import type { Db } from '../db/connect';

/**
 * The SQL of data protection (issue 35 §4). Every read here is by one person's id, which the service has already
 * authorised and scoped (a manager over that person, or the person herself).
 */

/**
 * The tables that hold a person's data, by the column that names them, and the columns never exported (secrets:
 * hashes, tokens; a session's id is its cookie). Read from server/src/db/schema.ts: every table with a user column,
 * except rows the person only authored for others (courses, documents, sessions they ran), which are not about them.
 */
const SECTIONS: readonly { name: string; table: string; column: string; omit?: readonly string[] }[] = [
  { name: 'results', table: 'results', column: 'user_id' },
  { name: 'attempts', table: 'attempts', column: 'user_id' },
  { name: 'required_courses', table: 'user_requirements', column: 'user_id' },
  { name: 'bookings', table: 'session_delegates', column: 'user_id' },
  { name: 'care_certificates', table: 'care_certificates', column: 'user_id' },
  { name: 'pathways', table: 'pathway_allocations', column: 'user_id' },
  { name: 'documents_read', table: 'document_views', column: 'user_id' },
  { name: 'documents_acknowledged', table: 'document_acknowledgements', column: 'user_id' },
  { name: 'feedback', table: 'feedback', column: 'user_id' },
  { name: 'notifications', table: 'notifications', column: 'user_id' },
  { name: 'tasks', table: 'tasks', column: 'user_id' },
  { name: 'help_requests', table: 'help_contacts', column: 'user_id' },
  { name: 'report_presets', table: 'report_presets', column: 'user_id' },
  { name: 'report_schedules', table: 'report_schedules', column: 'user_id' },
  { name: 'signups', table: 'signup_link_signups', column: 'user_id' },
  { name: 'sign_in_events', table: 'auth_events', column: 'user_id' },
  { name: 'sessions', table: 'sessions', column: 'user_id', omit: ['id', 'csrf_token'] },
  { name: 'devices', table: 'known_devices', column: 'user_id', omit: ['token_hash'] },
  { name: 'access_tokens', table: 'personal_access_tokens', column: 'user_id', omit: ['token_hash'] },
  { name: 'phones', table: 'push_devices', column: 'user_id', omit: ['token'] },
  { name: 'calendar_feeds', table: 'calendar_feeds', column: 'user_id', omit: ['token_hash'] },
  { name: 'account_links', table: 'user_tokens', column: 'user_id', omit: ['token_hash'] },
  { name: 'history', table: 'audit_entries', column: 'subject_user_id' },
];

type Row = Record<string, unknown>;

function without(row: Row, omit: readonly string[] = []): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (!omit.includes(k)) out[k] = v;
  return out;
}

/** The person's own row (no password hash) with their organisation, job role and user type named. */
export async function findPersonRow(db: Db, userId: number): Promise<Row | undefined> {
  const { rows } = await sql<Row>`
    SELECT u.*, e.name AS organisation_name, r.name AS job_role_name, t.name AS user_type_name
    FROM users u
    JOIN entities e ON e.id = u.primary_entity_id
    LEFT JOIN entity_roles r ON r.id = u.role_id
    LEFT JOIN entity_types t ON t.id = u.type_id
    WHERE u.id = ${userId}`.execute(db);
  return rows[0] ? without(rows[0], ['password_hash']) : undefined;
}

/** Every section of the export, one list of rows each (oldest first). */
export async function personalDataSections(db: Db, userId: number): Promise<Record<string, Row[]>> {
  const sections: Record<string, Row[]> = {};
  const plain = await Promise.all(
    SECTIONS.map((s) =>
      sql<Row>`SELECT * FROM ${sql.table(s.table)} WHERE ${sql.ref(s.column)} = ${userId} ORDER BY 1`.execute(
        db,
      ),
    ),
  );
  SECTIONS.forEach((s, i) => {
    sections[s.name] = (plain[i]?.rows ?? []).map((r) => without(r, s.omit));
  });
  const [organisations, permissions, tags, quizzes, invites, sent, received] = await Promise.all([
    sql<Row>`
      SELECT e.id, e.name, e.level, p.name AS part_of
      FROM users u JOIN entities e ON e.id = u.primary_entity_id LEFT JOIN entities p ON p.id = e.parent_id
      WHERE u.id = ${userId}`.execute(db),
    sql<Row>`
      SELECT p.id, p.name, up.created_at FROM user_permissions up JOIN permissions p ON p.id = up.permission_id
      WHERE up.user_id = ${userId} ORDER BY p.id`.execute(db),
    sql<Row>`
      SELECT t.id, t.name, tu.created_at FROM tag_users tu JOIN tags t ON t.id = tu.tag_id
      WHERE tu.user_id = ${userId} ORDER BY t.name`.execute(db),
    sql<Row>`
      SELECT q.* FROM quiz_attempts q JOIN attempts a ON a.id = q.attempt_id
      WHERE a.user_id = ${userId} ORDER BY q.id`.execute(db),
    sql<Row>`
      SELECT i.* FROM booking_invites i JOIN session_delegates d ON d.id = i.delegate_id
      WHERE d.user_id = ${userId} ORDER BY i.sent_at`.execute(db),
    // Messages: metadata only (issue 35 §4): when, to whom as addressed, not what other people were sent.
    sql<Row>`
      SELECT m.id, m.audience_kind, m.audience_name, m.mailed, m.sent_at, m.sender_deleted_at,
        (SELECT count(*)::int FROM message_recipients r WHERE r.message_id = m.id) AS recipients
      FROM messages m WHERE m.sender_id = ${userId} ORDER BY m.id`.execute(db),
    sql<Row>`
      SELECT r.message_id, m.sent_at, r.read_at, r.deleted_at
      FROM message_recipients r JOIN messages m ON m.id = r.message_id
      WHERE r.recipient_id = ${userId} ORDER BY m.id`.execute(db),
  ]);
  sections.organisations = organisations.rows;
  sections.permissions_granted = permissions.rows;
  sections.tags = tags.rows;
  sections.quiz_attempts = quizzes.rows;
  sections.booking_invites = invites.rows;
  sections.messages_sent = sent.rows;
  sections.messages_received = received.rows;
  return sections;
}

/** A person with what data protection decides on, locked for the change (erasure, leaving date). */
export async function lockPerson(db: Db, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select([
      'u.id',
      'u.name',
      'u.primary_entity_id',
      'u.left_on',
      'u.erased_at',
      'u.super_admin',
      'u.type_id',
      'e.retention_years',
    ])
    .where('u.id', '=', userId)
    .forUpdate('u')
    .executeTakeFirst();
}

export async function personState(db: Db, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(['u.left_on', 'u.erased_at', 'e.retention_years'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function setLeavingDate(db: Db, userId: number, leftOn: string | null, now: Date) {
  await db.updateTable('users').set({ left_on: leftOn, updated_at: now }).where('id', '=', userId).execute();
}

/** A placeholder address nobody can receive mail at (.invalid is reserved, RFC 2606) and unique per person. */
export const erasedEmail = (userId: number) => `erased-${userId}@erased.invalid`;
export const erasedName = (userId: number) => `Former staff member #${userId}`;

/**
 * Erasure: the personal details go (name pseudonymised, e-mail a placeholder, password, preferences, employee number,
 * pending address) and everything that lets the person sign in or be reached ends (sessions, tokens, devices, phones,
 * calendar feeds, account links, tags). The training record stays (results, attempts, certificates' facts).
 */
export async function erasePersonalDetails(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({
      name: erasedName(userId),
      email: erasedEmail(userId),
      pending_email: null,
      password_hash: null,
      password_changed_at: null,
      email_verified_at: null,
      user_preferences: '{}',
      employee_number: null,
      last_login_at: null,
      erased_at: now,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('personal_access_tokens').where('user_id', '=', userId).execute();
  await db.deleteFrom('user_tokens').where('user_id', '=', userId).execute();
  await db.deleteFrom('known_devices').where('user_id', '=', userId).execute();
  await db.deleteFrom('push_devices').where('user_id', '=', userId).execute();
  await db.deleteFrom('calendar_feeds').where('user_id', '=', userId).execute();
  await db.deleteFrom('help_contacts').where('user_id', '=', userId).execute();
  await db.deleteFrom('report_schedules').where('user_id', '=', userId).execute();
  await db.deleteFrom('report_presets').where('user_id', '=', userId).execute();
  await db
    .updateTable('signup_link_signups')
    .set({ name: erasedName(userId), email: erasedEmail(userId) })
    .where('user_id', '=', userId)
    .execute();
  // Sign-in events keep when and how, not the address typed or where from.
  await db
    .updateTable('auth_events')
    .set({ email: null, ip: null, user_agent: null })
    .where('user_id', '=', userId)
    .execute();
}

/**
 * Erased leavers whose retention period has passed at `today` (left_on + the organisation's years <= today), locked
 * and skipped when another process holds them; at most `limit`.
 */
export async function lockExpiredLeavers(db: Db, today: string, limit: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select(['u.id', 'u.name', 'u.primary_entity_id', 'u.left_on'])
    .where('u.erased_at', 'is not', null)
    .where('u.left_on', 'is not', null)
    .where(sql<boolean>`u.left_on + make_interval(years => e.retention_years) <= ${today}::date`)
    .orderBy('u.id')
    .limit(limit)
    .forUpdate('u')
    .skipLocked()
    .execute();
}

/**
 * Removes the person and, by the foreign keys' ON DELETE CASCADE, every training record of theirs (results, attempts,
 * bookings, certificates, allocations, notifications, messages they sent). Rows that only name them as an author keep
 * their row with the name set to null (ON DELETE SET NULL). The audit trail has no foreign keys and keeps its entries.
 */
export async function deletePerson(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', userId).execute();
}

export async function entityRetention(db: Db, entityId: number, o: { lock?: boolean } = {}) {
  const q = db.selectFrom('entities').select(['id', 'name', 'retention_years']).where('id', '=', entityId);
  return (o.lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function setEntityRetention(db: Db, entityId: number, years: number, now: Date) {
  await db
    .updateTable('entities')
    .set({ retention_years: years, updated_at: now })
    .where('id', '=', entityId)
    .execute();
}

export async function findEntityIdBySlug(db: Db, slug: string): Promise<number | undefined> {
  return (await db.selectFrom('entities').select('id').where('slug', '=', slug).executeTakeFirst())?.id;
}

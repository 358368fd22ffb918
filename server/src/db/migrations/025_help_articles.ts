import { type Kysely, sql } from 'kysely';

/**
 * 025_help_articles (issue 14 "Help widget"; spec 2 §3 "Help article: title, url_regex, link_suffix").
 *
 * - help_articles: platform help, global (no entity): the same articles for every organisation, managed by super
 *   admins. url_regex is checked to compile and to hold no nested repeats before it is stored (contracts help.ts);
 *   body is plain text with a small markdown subset, shown as text, never as HTML.
 * - help_contacts: one row per "Contact support" question (who asked, when, where it went), written in the same
 *   transaction as its mail job, so support can see what was asked even when the mail is slow.
 */
const statements = [
  `CREATE TABLE help_articles (
    id serial PRIMARY KEY,
    title text NOT NULL CHECK (length(title) BETWEEN 1 AND 150),
    url_regex text NOT NULL CHECK (length(url_regex) BETWEEN 1 AND 200),
    link_suffix text CHECK (length(link_suffix) <= 200),
    body text NOT NULL CHECK (length(body) BETWEEN 1 AND 10000),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE help_contacts (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    question text NOT NULL,
    page text,
    session jsonb NOT NULL DEFAULT '{}'::jsonb,
    delivered_to text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX help_contacts_user_idx ON help_contacts(user_id, created_at DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * 010_tags: tags of an entity and the users linked to them (contracts tags.ts).
 *
 * - tags: a name unique per entity, case-insensitively (tags_name_uq also serves "the tags of an entity", ordered by
 *   name); deleted with their entity.
 * - tag_users: (tag, user), gone with either side. The primary key serves "the users of a tag"; tag_users_user_idx
 *   serves "the tags of a user" and the cascade when a user is deleted.
 */
const statements = [
  `CREATE TABLE tags (
    id serial PRIMARY KEY,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX tags_name_uq ON tags(entity_id, lower(name))`,
  `CREATE TABLE tag_users (
    tag_id integer NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tag_id, user_id)
  )`,
  `CREATE INDEX tag_users_user_idx ON tag_users(user_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

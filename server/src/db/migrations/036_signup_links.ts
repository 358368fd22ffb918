import { type Kysely, sql } from 'kysely';

/**
 * 036_signup_links (issue 18): sign-up links for new starters (/signUpOnMonday).
 *
 * - signup_links: a link a manager made for a home (level B organisation): the job role, optional user type, start
 *   date, optional Care Certificate version (assigned at sign-up or on approval), expiry, optional limit of uses.
 *   Only the token's SHA-256 is stored; `uses` counts sign-ups, raised by one conditional UPDATE so two sign-ups at
 *   once cannot pass `max_uses`.
 * - signup_link_signups: the approval state of each account made through a link (a TABLE, not a users column, so
 *   the users capability stays as it was): pending until a manager approves or rejects. A rejected account is
 *   deleted when it has no learning records (user_id becomes NULL, the name and e-mail stay for the record), else
 *   kept and deactivated (password removed, sessions and tokens ended): `account` says which.
 */
const statements = [
  `CREATE TABLE signup_links (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    role_id integer NOT NULL REFERENCES entity_roles(id) ON DELETE CASCADE,
    type_id integer REFERENCES entity_types(id) ON DELETE SET NULL,
    start_date date NOT NULL,
    care_certificate_version_id integer REFERENCES care_certificate_versions(id) ON DELETE SET NULL,
    care_certificate_when text CHECK (care_certificate_when IN ('signup','approval')),
    token_hash text NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL,
    max_uses integer CHECK (max_uses IS NULL OR max_uses BETWEEN 1 AND 1000),
    uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)),
    revoked_at timestamptz,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((care_certificate_version_id IS NULL) = (care_certificate_when IS NULL))
  )`,
  `CREATE INDEX signup_links_entity_idx ON signup_links(entity_id, created_at DESC)`,
  `CREATE TABLE signup_link_signups (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    link_id integer NOT NULL REFERENCES signup_links(id) ON DELETE CASCADE,
    user_id integer UNIQUE REFERENCES users(id) ON DELETE SET NULL,
    name text NOT NULL,
    email text NOT NULL,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','approved','rejected')),
    account text CHECK (account IN ('removed','deactivated')),
    decided_by integer REFERENCES users(id) ON DELETE SET NULL,
    decided_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX signup_link_signups_pending_idx ON signup_link_signups(link_id) WHERE status = 'pending'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Organisations, people, permissions, sessions, tokens, mail outbox and auth events.
 * Statements run one by one: PGlite's extended protocol takes one statement per query.
 */
const statements = [
  `CREATE TABLE entities (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    slug text NOT NULL UNIQUE,
    name text NOT NULL,
    level char(1) NOT NULL CHECK (level IN ('A','B')),
    parent_id integer REFERENCES entities(id) ON DELETE RESTRICT,
    is_training_company boolean NOT NULL DEFAULT false,
    subdomain text UNIQUE,
    email text, code text, telephone text, website text, notes text, address text,
    events_reminder boolean NOT NULL DEFAULT false,
    allow_ms_sign_in boolean NOT NULL DEFAULT false,
    allow_google_sign_in boolean NOT NULL DEFAULT false,
    notify_all_standards_selected boolean NOT NULL DEFAULT false,
    require_training_record_evidence boolean NOT NULL DEFAULT false,
    expiry_warning integer NOT NULL DEFAULT 30,
    starter_period integer NOT NULL DEFAULT 90,
    restricted_access_password text,
    restricted_access_at timestamptz,
    restricted_access_message text,
    password_expire_period_in_months integer,
    password_requirements jsonb,
    compromised_passwords text NOT NULL DEFAULT 'off' CHECK (compromised_passwords IN ('enforce_change','off')),
    always_show_popup_on_login boolean NOT NULL DEFAULT false,
    popup_link text,
    login_popup_alt_name text,
    focused_courses jsonb NOT NULL DEFAULT '[]',
    can_view_internal_bookings boolean NOT NULL DEFAULT false,
    can_view_external_bookings boolean NOT NULL DEFAULT false,
    can_manage_bookings boolean NOT NULL DEFAULT false,
    can_see_new_dashboards boolean NOT NULL DEFAULT false,
    whitelabel jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (parent_id IS NULL OR parent_id <> id)
  )`,
  `CREATE INDEX entities_parent_idx ON entities(parent_id)`,
  `CREATE INDEX entities_name_idx ON entities(lower(name))`,

  `CREATE TABLE entity_roles (
    id serial PRIMARY KEY,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    inspectable boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX entity_roles_name_uq ON entity_roles(entity_id, lower(name))`,

  `CREATE TABLE entity_types (
    id serial PRIMARY KEY,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX entity_types_name_uq ON entity_types(entity_id, lower(name))`,

  `CREATE TABLE users (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    name text NOT NULL,
    email text NOT NULL,
    password_hash text,
    email_verified_at timestamptz,
    super_admin boolean NOT NULL DEFAULT false,
    primary_entity_id integer NOT NULL REFERENCES entities(id) ON DELETE RESTRICT,
    role_id integer REFERENCES entity_roles(id) ON DELETE SET NULL,
    type_id integer REFERENCES entity_types(id) ON DELETE SET NULL,
    is_trainer boolean NOT NULL DEFAULT false,
    start_date date,
    user_preferences jsonb NOT NULL DEFAULT '{}',
    password_changed_at timestamptz,
    password_change_required boolean NOT NULL DEFAULT false,
    last_login_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX users_email_uq ON users(lower(email))`,
  `CREATE INDEX users_entity_idx ON users(primary_entity_id)`,
  `CREATE INDEX users_role_idx ON users(role_id)`,
  `CREATE INDEX users_type_idx ON users(type_id)`,
  `CREATE INDEX users_name_idx ON users(lower(name))`,

  `CREATE TABLE permissions (
    id integer PRIMARY KEY,
    name text NOT NULL,
    description text NOT NULL,
    category text NOT NULL
  )`,
  `CREATE TABLE entity_permissions (
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    permission_id integer NOT NULL REFERENCES permissions(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity_id, permission_id)
  )`,
  `CREATE TABLE type_permissions (
    type_id integer NOT NULL REFERENCES entity_types(id) ON DELETE CASCADE,
    permission_id integer NOT NULL REFERENCES permissions(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (type_id, permission_id)
  )`,
  `CREATE TABLE user_permissions (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    permission_id integer NOT NULL REFERENCES permissions(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (user_id, permission_id)
  )`,

  `CREATE TABLE sessions (
    id text PRIMARY KEY,
    public_id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer REFERENCES users(id) ON DELETE CASCADE,
    csrf_token text NOT NULL,
    ip text,
    user_agent text,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_activity_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX sessions_user_idx ON sessions(user_id)`,
  `CREATE INDEX sessions_expires_idx ON sessions(expires_at)`,

  `CREATE TABLE personal_access_tokens (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    abilities jsonb NOT NULL DEFAULT '["*"]',
    last_used_at timestamptz,
    expires_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX pat_user_idx ON personal_access_tokens(user_id)`,

  `CREATE TABLE user_tokens (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('password_reset','email_verify')),
    token_hash text NOT NULL UNIQUE,
    email text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX user_tokens_user_idx ON user_tokens(user_id, purpose)`,

  `CREATE TABLE auth_events (
    id bigserial PRIMARY KEY,
    event text NOT NULL CHECK (event IN ('login','logout','failed_login')),
    user_id integer REFERENCES users(id) ON DELETE SET NULL,
    entity_id integer REFERENCES entities(id) ON DELETE SET NULL,
    email text,
    ip text,
    user_agent text,
    via text NOT NULL DEFAULT 'web',
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX auth_events_entity_time_idx ON auth_events(entity_id, created_at)`,
  `CREATE INDEX auth_events_failed_email_idx ON auth_events(lower(email), created_at) WHERE event = 'failed_login'`,
  `CREATE INDEX auth_events_failed_ip_idx ON auth_events(ip, created_at) WHERE event = 'failed_login'`,

  `CREATE TABLE mail_outbox (
    id bigserial PRIMARY KEY,
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text,
    template text NOT NULL,
    transport text NOT NULL DEFAULT 'outbox',
    sent_at timestamptz,
    error text,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX mail_outbox_to_idx ON mail_outbox(lower(to_address), created_at)`,

  `CREATE TABLE files (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    purpose text NOT NULL,
    storage_key text NOT NULL,
    original_name text NOT NULL,
    mime_type text NOT NULL,
    size_bytes integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

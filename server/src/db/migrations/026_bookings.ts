import { type Kysely, sql } from 'kysely';

/**
 * 026_bookings (issue 15 "Face-to-face training"; contracts bookings.ts).
 *
 * - training_provider_settings / delegate_settings: one row per entity, absent = the contract's defaults.
 * - cancellation_reasons: global list (GET /cancellation-reasons), seeded here.
 * - training_sessions: a session of a face2face content item, owned by `entity_id` (a training company or the
 *   organisation running its own training). `places_taken` is THE seat count: delegates holding a place (pending,
 *   accepted, offered) plus unnamed places of training orders. It only moves in single UPDATE statements guarded by
 *   the CHECK below (`places_taken <= max_delegates`), so concurrent bookings can never overbook: the statement that
 *   would pass the maximum takes no place and the delegate goes to the waitlist instead.
 *   `sequence` is the iCal SEQUENCE of the session's events; it increases on every change that delegates see.
 *   starts_at / ends_at: the first start and the last end (Europe/London local times turned into instants), for
 *   range queries and the cut-offs.
 * - training_session_dates: the days of a session (one row per day, position 0 = the spec's date/startTime/endTime).
 * - session_delegates: one row per (session, user), reused on restore. `waitlisted_at` orders the waitlist;
 *   `offer_expires_at` bounds an offered place's claim. Attendance, grade and the result it recorded live here.
 *   `invite_sequence`: the SEQUENCE of the last invite e-mailed to this delegate (REQUEST or CANCEL).
 * - training_orders: an organisation's order of places on a provider's session; `places - named` places are held
 *   in the session's places_taken until named or cancelled.
 * - calendar_feeds: a user's personal iCal feed token (sha-256 hash only), revocable.
 */
const statements = [
  `CREATE TABLE training_provider_settings (
    entity_id integer PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    delegate_auto_accept_period integer NOT NULL DEFAULT 48 CHECK (delegate_auto_accept_period >= 0),
    delegate_removal_cutoff_hours integer NOT NULL DEFAULT 48 CHECK (delegate_removal_cutoff_hours >= 0),
    practical_min_delegates integer NOT NULL DEFAULT 4 CHECK (practical_min_delegates >= 0),
    practical_max_delegates integer NOT NULL DEFAULT 12 CHECK (practical_max_delegates >= 1),
    theory_min_delegates integer NOT NULL DEFAULT 4 CHECK (theory_min_delegates >= 0),
    theory_max_delegates integer NOT NULL DEFAULT 20 CHECK (theory_max_delegates >= 1),
    waitlist_claim_hours integer NOT NULL DEFAULT 24 CHECK (waitlist_claim_hours >= 1),
    waitlist_cutoff_hours integer NOT NULL DEFAULT 24 CHECK (waitlist_cutoff_hours >= 0),
    minimum_decision_hours integer NOT NULL DEFAULT 72 CHECK (minimum_decision_hours >= 0),
    under_minimum_action text NOT NULL DEFAULT 'cancel' CHECK (under_minimum_action IN ('cancel', 'confirm')),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (practical_min_delegates <= practical_max_delegates),
    CHECK (theory_min_delegates <= theory_max_delegates)
  )`,
  `CREATE TABLE delegate_settings (
    entity_id integer PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    require_approval boolean NOT NULL DEFAULT false,
    allow_self_cancel boolean NOT NULL DEFAULT true,
    send_calendar_invites boolean NOT NULL DEFAULT true,
    notify_managers boolean NOT NULL DEFAULT true,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE cancellation_reasons (
    id serial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    position integer NOT NULL DEFAULT 0
  )`,
  `INSERT INTO cancellation_reasons (name, position) VALUES
    ('Trainer unavailable', 1), ('Too few delegates', 2), ('Venue unavailable', 3),
    ('Severe weather', 4), ('Rescheduled', 5), ('Other', 6)`,

  `CREATE TABLE training_sessions (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    trainer_id integer REFERENCES users(id) ON DELETE SET NULL,
    venue text,
    room text,
    virtual boolean NOT NULL DEFAULT false,
    virtual_url text,
    area text,
    aim text,
    content_covered text,
    learning_outcomes text,
    available_to text NOT NULL DEFAULT 'internal' CHECK (available_to IN ('internal', 'external', 'all')),
    min_delegates integer NOT NULL DEFAULT 0 CHECK (min_delegates >= 0),
    max_delegates integer NOT NULL CHECK (max_delegates >= 1),
    grading_method text NOT NULL DEFAULT 'attendance' CHECK (grading_method IN ('attendance', 'pass_fail', 'score')),
    pass_mark integer CHECK (pass_mark IS NULL OR pass_mark BETWEEN 0 AND 100),
    status text NOT NULL DEFAULT 'scheduled'
      CHECK (status IN ('scheduled', 'confirmed', 'completed', 'incomplete', 'cancelled')),
    cancellation_reason_id integer REFERENCES cancellation_reasons(id) ON DELETE SET NULL,
    cancellation_notes text,
    cancelled_at timestamptz,
    decided_at timestamptz,
    places_taken integer NOT NULL DEFAULT 0,
    check_in_code text NOT NULL,
    sequence integer NOT NULL DEFAULT 0,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT training_sessions_places_ck CHECK (places_taken >= 0 AND places_taken <= max_delegates),
    CHECK (min_delegates <= max_delegates),
    CHECK (ends_at > starts_at)
  )`,
  `CREATE INDEX training_sessions_entity_starts_idx ON training_sessions(entity_id, starts_at)`,
  `CREATE INDEX training_sessions_starts_idx ON training_sessions(starts_at) WHERE status IN ('scheduled', 'confirmed')`,
  `CREATE INDEX training_sessions_course_idx ON training_sessions(course_id, starts_at)`,
  `CREATE INDEX training_sessions_content_idx ON training_sessions(content_id)`,
  `CREATE INDEX training_sessions_trainer_idx ON training_sessions(trainer_id, starts_at) WHERE trainer_id IS NOT NULL`,

  `CREATE TABLE training_session_dates (
    id serial PRIMARY KEY,
    session_id integer NOT NULL REFERENCES training_sessions(id) ON DELETE CASCADE,
    position integer NOT NULL,
    date date NOT NULL,
    start_time time NOT NULL,
    end_time time NOT NULL,
    starts_at timestamptz NOT NULL,
    ends_at timestamptz NOT NULL,
    UNIQUE (session_id, position),
    CHECK (end_time > start_time)
  )`,
  `CREATE INDEX training_session_dates_date_idx ON training_session_dates(date)`,

  `CREATE TABLE training_orders (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    session_id integer NOT NULL REFERENCES training_sessions(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    places integer NOT NULL CHECK (places >= 1),
    named integer NOT NULL DEFAULT 0,
    status text NOT NULL DEFAULT 'placed' CHECK (status IN ('placed', 'cancelled')),
    notes text,
    ordered_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (named >= 0 AND named <= places)
  )`,
  `CREATE INDEX training_orders_session_idx ON training_orders(session_id)`,
  `CREATE INDEX training_orders_entity_idx ON training_orders(entity_id, created_at DESC)`,

  `CREATE TABLE session_delegates (
    id serial PRIMARY KEY,
    session_id integer NOT NULL REFERENCES training_sessions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    order_id integer REFERENCES training_orders(id) ON DELETE SET NULL,
    context text NOT NULL DEFAULT 'online' CHECK (context IN ('download', 'online')),
    status text NOT NULL
      CHECK (status IN ('requested', 'pending', 'accepted', 'waitlisted', 'offered', 'declined', 'deleted')),
    waitlisted_at timestamptz,
    offer_expires_at timestamptz,
    attendance text CHECK (attendance IS NULL OR attendance IN ('attended', 'partial', 'no_show')),
    passed boolean,
    score numeric,
    notes text,
    checked_in_at timestamptz,
    marked_by integer REFERENCES users(id) ON DELETE SET NULL,
    marked_at timestamptz,
    result_id integer REFERENCES results(id) ON DELETE SET NULL,
    invite_sequence integer NOT NULL DEFAULT 0,
    booked_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (session_id, user_id),
    CHECK (status <> 'waitlisted' OR waitlisted_at IS NOT NULL),
    CHECK (status <> 'offered' OR offer_expires_at IS NOT NULL)
  )`,
  `CREATE INDEX session_delegates_user_idx ON session_delegates(user_id)`,
  `CREATE INDEX session_delegates_waitlist_idx ON session_delegates(session_id, waitlisted_at)
     WHERE status = 'waitlisted'`,
  `CREATE INDEX session_delegates_offers_idx ON session_delegates(offer_expires_at) WHERE status = 'offered'`,
  `CREATE INDEX session_delegates_pending_idx ON session_delegates(created_at) WHERE status = 'pending'`,
  `CREATE INDEX session_delegates_order_idx ON session_delegates(order_id) WHERE order_id IS NOT NULL`,

  `CREATE TABLE calendar_feeds (
    id serial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at timestamptz
  )`,
  // One live feed per user: making a new one revokes the old in the same transaction.
  `CREATE UNIQUE INDEX calendar_feeds_live_uq ON calendar_feeds(user_id) WHERE revoked_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

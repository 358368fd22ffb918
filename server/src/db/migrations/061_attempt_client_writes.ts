import { type Kysely, sql } from 'kysely';

/**
 * 061_attempt_client_writes (issue 31 §2 "A dropped signal loses quiz answers"): the attempt player sends every
 * answer and progress write through an outbox on the device (web/src/learning/outbox.ts), retried until the server
 * answers, each write named by a client id (a uuid made on the device when the learner acted). A write whose answer
 * was lost on the way back is sent again with the same id: this table records each id the server applied, once, so
 * the resend records nothing more and answers with what the first send recorded.
 *
 * The primary key (user_id, client_id) is the guard: the first write's INSERT … ON CONFLICT DO NOTHING claims the id
 * in the transaction that applies the write (under the attempt's row lock), and a concurrent resend's INSERT waits on
 * that key until the first commits, then does nothing (PostgreSQL). A write refused (409, 422) rolls back its claim,
 * so the id can be sent again. quiz_attempt_id names the quiz attempt a submit recorded (its stored outcome is the
 * resend's answer).
 */
const statements = [
  `CREATE TABLE attempt_client_writes (
     user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
     client_id uuid NOT NULL,
     attempt_id integer NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
     quiz_attempt_id integer REFERENCES quiz_attempts(id) ON DELETE CASCADE,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (user_id, client_id)
   )`,
  `CREATE INDEX attempt_client_writes_attempt ON attempt_client_writes (attempt_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

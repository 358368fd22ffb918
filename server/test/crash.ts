import { sql } from 'kysely';
import type { Db } from '../src/db/connect';

/**
 * Simulated crashes for tests of "record and finish in one transaction" (issue 10 §3): a trigger makes the `nth`
 * matching write on `table` fail once, as a process dying at that point would. A sequence counts the calls, since
 * a sequence is not rolled back with the failing statement. Works on PostgreSQL and PGlite.
 */
export async function crashOnce(db: Db, table: 'mail_attachments' | 'jobs', nth: number, when = 'true') {
  await sql`CREATE SEQUENCE crash_calls`.execute(db);
  await sql
    .raw(`CREATE FUNCTION crash_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${when} AND nextval('crash_calls') = ${nth} THEN RAISE EXCEPTION 'simulated crash'; END IF;
      RETURN NEW;
    END $$`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER crash_once BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION crash_once()`,
    )
    .execute(db);
}

/** Removes what crashOnce made (call it after each test). */
export async function removeCrashes(db: Db) {
  await sql`DROP TRIGGER IF EXISTS crash_once ON mail_attachments`.execute(db);
  await sql`DROP TRIGGER IF EXISTS crash_once ON jobs`.execute(db);
  await sql`DROP FUNCTION IF EXISTS crash_once()`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS crash_calls`.execute(db);
}

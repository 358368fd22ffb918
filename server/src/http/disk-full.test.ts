import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';

/**
 * Issue 30 §9: on a full disk, 2 of 63 reads answered 507 "nothing was saved". A read can meet the full disk when the
 * bookkeeping it does fails (a token's last use, a session's sliding expiry, written at most once a minute) or when a
 * sort spills to a temporary file. A read never says that something was not saved: it answers 503; a write still 507.
 *
 * The full disk here is the database's own answer, SQLSTATE 53100 disk_full, raised over the real connection by a
 * trigger on the token's update (as test/crash.ts simulates a crash); the real tmpfs case is
 * test/embedded/disk.test.ts.
 */
describe('a full disk met by a read or by a write (issue 30 §9)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
    await sql
      .raw(`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`)
      .execute(h.db);
  });
  afterEach(async () => {
    await sql`DROP TRIGGER IF EXISTS disk_full ON personal_access_tokens`.execute(h.db);
  });
  afterAll(async () => {
    await sql`DROP FUNCTION IF EXISTS disk_full()`.execute(h.db);
    await h?.close();
  });

  /** A fresh token (never used: its first use is written), then the disk "fills". */
  async function tokenOnFullDisk() {
    const user = await buildUser(h.db, { superAdmin: true });
    const headers = await bearer(h.db, user.id);
    await sql`CREATE TRIGGER disk_full BEFORE UPDATE ON personal_access_tokens FOR EACH ROW EXECUTE FUNCTION disk_full()`.execute(
      h.db,
    );
    return { user, headers };
  }

  it('a read answers 503 and does not say that nothing was saved', async () => {
    const { headers } = await tokenOnFullDisk();
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await h.app.inject({ method, url: '/api/auth/user', headers });
      expect(res.statusCode).toBe(503);
      if (method === 'GET')
        expect(res.json()).toEqual({
          message: "The server's disk is full, so this cannot be shown now. Please tell your administrator.",
          error: 'Service Unavailable',
        });
    }
  });

  it('a write answers 507: nothing was saved', async () => {
    const { user, headers } = await tokenOnFullDisk();
    const res = await h.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers,
      payload: { name: 'Not saved' },
    });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({
      message: "The server's disk is full, so nothing was saved. Please tell your administrator.",
      error: 'Insufficient Storage',
    });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSIONS } from '@cc/contracts';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { webLogin } from '../../test/harness';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { buildApp } from '../app';
import { hashPassword } from '../auth/passwords';
import { openDeps } from '../bootstrap';
import { loadConfig } from '../config';
import { connect } from './connect';
import { migrate, migrateTo, migrationNames } from './migrate';

/**
 * Issue 35 §2: a database made by an earlier version, with data in it, upgrades at start (openDeps -> migrate, the
 * path `npm start` takes) to the schema a fresh install gets, and its data reads the same through today's API.
 * PostgreSQL only (DATABASE_URL): each case makes an empty database, migrates it to an early point, writes the data
 * that version would have written (plain SQL against THAT schema), then starts the current code on it.
 */
const adminUrl = process.env.DATABASE_URL;
const PASSWORD = 'Upgrade-Password-42';
const DAY = 86_400_000;
const created: TestDatabase[] = [];

afterAll(async () => {
  for (const database of created) await database.drop();
});

async function emptyDatabase(): Promise<TestDatabase> {
  if (!adminUrl) throw new Error('DATABASE_URL');
  const database = await createTestDatabase(adminUrl, 'cc_upgrade');
  created.push(database);
  return database;
}

async function withClient<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * What an install of that time held: a group with a care home under it, a role and two types, staff, a course with a
 * mandatory compliance rule on the group (inherited by the home), historical results (one in date with an older pass
 * before it, one expired), an exemption with its reason, and nobody's result for the fourth person. Only columns that
 * exist at migration 023 are named; latest_results is written as the application wrote it (user_requirements follows
 * by the triggers of migration 009).
 */
async function writeOldData(client: pg.Client) {
  const now = Date.now();
  const hash = await hashPassword(PASSWORD);
  // The catalogue as that version's start wrote it (the current start rewrites it).
  for (const p of PERMISSIONS)
    await client.query('INSERT INTO permissions (id, name, description, category) VALUES ($1, $2, $3, $4)', [
      p.id,
      p.name,
      p.description,
      p.category,
    ]);
  const one = async (text: string, values: unknown[]) => (await client.query(text, values)).rows[0];
  const group = await one(
    `INSERT INTO entities (slug, name, level) VALUES ('upgrade-group', 'Upgrade Group', 'A') RETURNING id`,
    [],
  );
  const home = await one(
    `INSERT INTO entities (slug, name, level, parent_id) VALUES ('upgrade-home', 'Upgrade Home', 'B', $1) RETURNING id`,
    [group.id],
  );
  for (const entity of [group.id, home.id])
    await client.query(
      'INSERT INTO entity_permissions (entity_id, permission_id) SELECT $1, id FROM permissions',
      [entity],
    );
  const carerRole = await one(
    `INSERT INTO entity_roles (entity_id, name) VALUES ($1, 'Carer') RETURNING id`,
    [group.id],
  );
  const staffType = await one(
    `INSERT INTO entity_types (entity_id, name) VALUES ($1, 'Staff') RETURNING id`,
    [home.id],
  );
  const managerType = await one(
    `INSERT INTO entity_types (entity_id, name) VALUES ($1, 'Manager') RETURNING id`,
    [home.id],
  );
  await client.query('INSERT INTO type_permissions (type_id, permission_id) SELECT $1, id FROM permissions', [
    managerType.id,
  ]);
  const user = (name: string, email: string, typeId: number, roleId: number | null) =>
    one(
      `INSERT INTO users (name, email, password_hash, email_verified_at, primary_entity_id, role_id, type_id,
         start_date, password_changed_at)
       VALUES ($1, $2, $3, now(), $4, $5, $6, '2020-01-01', now()) RETURNING id, uuid`,
      [name, email, hash, home.id, roleId, typeId],
    );
  const manager = await user('Mia Manager', 'mia@upgrade.test', managerType.id, null);
  const ann = await user('Ann Able', 'ann@upgrade.test', staffType.id, carerRole.id);
  const bob = await user('Bob Exempt', 'bob@upgrade.test', staffType.id, carerRole.id);
  const cara = await user('Cara Expired', 'cara@upgrade.test', staffType.id, carerRole.id);
  const dan = await user('Dan Missing', 'dan@upgrade.test', staffType.id, carerRole.id);
  const course = await one(
    `INSERT INTO courses (entity_id, title, published) VALUES ($1, 'Fire Safety', true) RETURNING id`,
    [group.id],
  );
  await client.query('INSERT INTO entity_courses (entity_id, course_id) VALUES ($1, $2), ($3, $2)', [
    group.id,
    course.id,
    home.id,
  ]);
  await client.query(
    `INSERT INTO compliance_rules (entity_id, role_id, course_id, type, validity_months)
     VALUES ($1, $2, $3, 'primary', 12)`,
    [group.id, carerRole.id, course.id],
  );
  /** A result and, when it is the newest of the (user, course), its latest_results row, as the old code wrote them. */
  const result = async (
    who: { id: number },
    type: 'historical' | 'exempt',
    completed: number,
    expires: number | null,
    latest: { count: number } | null,
    notes: string | null = null,
  ) => {
    const row = await one(
      `INSERT INTO results (user_id, entity_id, course_id, type, passed, completed_at, expires_at, notes, created_by)
       VALUES ($1, $2, $3, $4, true, $5, $6, $7, $8) RETURNING id`,
      [
        who.id,
        home.id,
        course.id,
        type,
        iso(completed),
        expires === null ? null : iso(expires),
        notes,
        manager.id,
      ],
    );
    if (latest)
      await client.query(
        `INSERT INTO latest_results (user_id, course_id, result_id, passed, completed_at, expires_at, type, result_count)
         VALUES ($1, $2, $3, true, $4, $5, $6, $7)`,
        [
          who.id,
          course.id,
          row.id,
          iso(completed),
          expires === null ? null : iso(expires),
          type,
          latest.count,
        ],
      );
    return row.id as number;
  };
  await result(ann, 'historical', now - 400 * DAY, now - 35 * DAY, null);
  const annLatest = await result(ann, 'historical', now - 60 * DAY, now + 300 * DAY, { count: 2 });
  await result(bob, 'exempt', now - 10 * DAY, null, { count: 1 }, 'Agency nurse');
  await result(cara, 'historical', now - 430 * DAY, now - 65 * DAY, { count: 1 });
  return { group, home, course, manager, ann, bob, cara, dan, annLatest };
}

/** The schema as a comparable text: tables' columns, constraints, indexes, views, functions and triggers. */
async function schemaOf(url: string): Promise<Record<string, string[]>> {
  return withClient(url, async (c) => {
    const rows = async (text: string) => (await c.query(text)).rows.map((r) => Object.values(r).join(' | '));
    return {
      columns: await rows(`SELECT table_name, column_name, ordinal_position, data_type, udt_name, is_nullable,
          column_default, character_maximum_length, numeric_precision
        FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`),
      constraints: await rows(`SELECT cl.relname, co.conname, co.contype, pg_get_constraintdef(co.oid)
        FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid JOIN pg_namespace n ON n.oid = cl.relnamespace
        WHERE n.nspname = 'public' ORDER BY cl.relname, co.conname`),
      indexes: await rows(
        `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname`,
      ),
      views: await rows(
        `SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' ORDER BY viewname`,
      ),
      functions: await rows(`SELECT p.proname, pg_get_function_identity_arguments(p.oid), md5(p.prosrc)
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
        ORDER BY p.proname, 2`),
      triggers: await rows(`SELECT c.relname, t.tgname, pg_get_triggerdef(t.oid)
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY c.relname, t.tgname`),
    };
  });
}

let freshSchema: Promise<Record<string, string[]>> | null = null;
/** A database migrated from empty by the current code, made once for the file. */
function fresh(): Promise<Record<string, string[]>> {
  freshSchema ??= (async () => {
    const database = await emptyDatabase();
    const connection = await connect({ databaseUrl: database.url, dataDir: null });
    try {
      await migrate(connection.db);
    } finally {
      await connection.close();
    }
    return schemaOf(database.url);
  })();
  return freshSchema;
}

describe.skipIf(!adminUrl)('upgrading a database made by an earlier version (issue 35 §2)', () => {
  const all = migrationNames();
  // The 20th and the 40th migration: a year's install and a later one, both well before the latest.
  const points = [all[19], all[39]].filter((n): n is string => !!n);

  it('the points are early ones', () => {
    expect(points).toHaveLength(2);
    expect(points[0]).toBe('023_messaging');
    expect(all.indexOf(points[1] as string)).toBeLessThan(all.length - 5);
  });

  for (const point of points)
    it(`from ${point}: every migration applied at start, the data readable as before, the schema a fresh one`, async () => {
      const database = await emptyDatabase();
      const early = await connect({ databaseUrl: database.url, dataDir: null });
      try {
        await migrateTo(early.db, point);
      } finally {
        await early.close();
      }
      const old = await withClient(database.url, writeOldData);
      const before = await withClient(database.url, async (c) => ({
        applied: (await c.query('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name),
        results: (
          await c.query('SELECT id, user_id, type, completed_at, expires_at, notes FROM results ORDER BY id')
        ).rows,
      }));
      expect(before.applied).toEqual(all.slice(0, all.indexOf(point) + 1));

      // The server's start: openDeps migrates (under Kysely's lock) before anything is served.
      const dataDir = mkdtempSync(path.join(tmpdir(), 'cc-upgrade-'));
      const config = loadConfig(
        { ...process.env, NODE_ENV: 'test', DATABASE_URL: database.url, SEED_DEMO: 'false' },
        { dataDir, appUrl: 'http://localhost:3000' },
      );
      const deps = await openDeps({ ...config, databaseUrl: database.url });
      const app = await buildApp(deps);
      try {
        await app.ready();
        const after = await withClient(database.url, async (c) => ({
          applied: (await c.query('SELECT name FROM kysely_migration ORDER BY name')).rows.map((r) => r.name),
          results: (
            await c.query(
              'SELECT id, user_id, type, completed_at, expires_at, notes FROM results ORDER BY id',
            )
          ).rows,
        }));
        expect(after.applied).toEqual(all);
        expect(after.results).toEqual(before.results);

        // The old password hash still signs in, and the session reads the API as before.
        const web = await webLogin(app, 'mia@upgrade.test', PASSWORD);
        expect(web.login.statusCode, web.login.body).toBeLessThan(300);
        const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
          app.inject({
            method,
            url,
            cookies: web.cookies(),
            headers: web.headers(),
            ...(payload ? { payload } : {}),
          });

        const statusOf = async (who: { uuid: string }) => {
          const res = await call('GET', `/api/users/${who.uuid}/compliance-courses`);
          expect(res.statusCode, res.body).toBe(200);
          const rows = res.json().data as {
            id?: number;
            course_id?: number;
            status: string;
            exemption?: { reason: string | null } | null;
          }[];
          expect(rows).toHaveLength(1);
          return rows[0];
        };
        expect((await statusOf(old.ann))?.status).toBe('in_date');
        const bob = await statusOf(old.bob);
        expect(bob?.status).toBe('exempt');
        expect(bob?.exemption?.reason).toBe('Agency nurse');
        expect((await statusOf(old.cara))?.status).toBe('expired');
        expect((await statusOf(old.dan))?.status).toBe('missing');

        const matrix = await call('POST', '/api/reports/matrix', {
          directFormat: 'json',
          compliance_type: 'all',
        });
        expect(matrix.statusCode, matrix.body).toBe(200);
        const cells = (
          matrix.json().data.cells as {
            user_id: number;
            status: string;
            type: string;
            result_count: number;
          }[]
        )
          .filter((c) => c.type !== 'none')
          .map((c) => [c.user_id, c.status, c.result_count])
          .sort((a, b) => Number(a[0]) - Number(b[0]));
        expect(cells).toEqual([
          [old.ann.id, 'in_date', 2],
          [old.bob.id, 'exempt', 1],
          [old.cara.id, 'expired', 1],
          [old.dan.id, 'missing', 0],
        ]);

        const history = await call('GET', `/api/users/${old.ann.uuid}/results`);
        expect(history.statusCode, history.body).toBe(200);
        const ids = (history.json().data as { id: number }[]).map((r) => r.id);
        expect(ids).toContain(old.annLatest);
        expect(ids).toHaveLength(2);
      } finally {
        await app.close();
        await deps.close();
        rmSync(dataDir, { recursive: true, force: true });
      }

      const upgraded = await schemaOf(database.url);
      const expected = await fresh();
      // Each part holds the schema (a comparison of empty lists would prove nothing).
      for (const part of ['columns', 'constraints', 'indexes', 'views', 'functions', 'triggers'])
        expect(expected[part]?.length, part).toBeGreaterThan(0);
      for (const part of Object.keys(expected))
        expect({ [part]: upgraded[part] }).toEqual({ [part]: expected[part] });
    }, 120_000);

  it('a database migrated by a newer version refuses to start, in one line, and is left as it was', async () => {
    const database = await emptyDatabase();
    const connection = await connect({ databaseUrl: database.url, dataDir: null });
    try {
      await migrateTo(connection.db, all[19] as string);
      await withClient(database.url, (c) =>
        c.query("INSERT INTO kysely_migration (name, timestamp) VALUES ('999_from_the_future', now()::text)"),
      );
      const error = await migrate(connection.db).then(
        () => null,
        (e: Error) => e,
      );
      expect(error?.message).toBe(
        'The database was updated by a newer version of CareCompliance (migration 999_from_the_future is unknown to this one): run the newer version, or restore a backup made before it.',
      );
      expect(error?.message).not.toContain('\n');
      // Nothing was applied on top of it.
      const applied = await withClient(
        database.url,
        async (c) => (await c.query('SELECT count(*)::int AS n FROM kysely_migration')).rows[0].n,
      );
      expect(applied).toBe(21);
    } finally {
      await connection.close();
    }
  });
});

import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSIONS } from '@cc/contracts';
import { sql } from 'kysely';
import pino from 'pino';
import { loadActor } from '../../src/auth/actor';
import type { Ctx } from '../../src/http/context';
import { registerImporterJobs } from '../../src/importer/jobs';
import { applyImport, planImport } from '../../src/importer/service';
import { runDueJobs } from '../../src/jobs/queue';
import { newKey } from '../../src/storage/storage';
import type { DatabaseContext } from '../run';
import { IMPORTER_SLUG_PREFIX, removeImporterData, vacuumAfterImporter } from '../seed';

/**
 * Bench measure (issue 18 "Large files stream"): a CSV of BENCH_IMPORT_ROWS (100,000) NEW PEOPLE (name, e-mail,
 * employee number, start date) planned and then applied through the importer's own service and jobs, in this
 * process: import_plan_ms, import_apply_ms, import_total_ms (target: within a minute on PostgreSQL) and this
 * process's peak resident memory while it runs, against its resident memory at the start (flat: the plan streams
 * in chunks of 1,000 rows and lives in import_rows, never in one array).
 *
 * The people go into an organisation of the measure's own (issue 36 §1): a root organisation beside the bench
 * organisation, never under it, so the measures that read the bench organisation (the matrix, its ceiling, the
 * exports, the compliance report) read the seeded people only, whatever ran before them on a kept database
 * (BENCH_REUSE=1). It is removed afterwards with set-based deletes (its people, then the organisation: the rest goes
 * by ON DELETE CASCADE; the audit trail is append-only and keeps the import's entries), and removed before the
 * measure too, so a run that crashed half-way leaves nothing the next run sees. import_cleanup_ms: that removal.
 */
export const name = 'importer 100k people';
export const needs = 'database';

export async function run(ctx: DatabaseContext): Promise<Record<string, number>> {
  const rows = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
  const { deps, rootEntityId } = ctx;
  registerImporterJobs();
  await removeImporterData(deps.db, rootEntityId);
  const stamp = Date.now().toString(36);
  const org = await deps.db
    .insertInto('entities')
    .values({
      name: 'Bench importer organisation',
      slug: `${IMPORTER_SLUG_PREFIX}${stamp}`,
      level: 'A',
      parent_id: null,
      focused_courses: '[]',
      whitelabel: '{}',
      expiry_warning: 30,
      starter_period: 90,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  let figures: Record<string, number> | undefined;
  try {
    figures = await importInto(ctx, org.id, rows, stamp);
  } finally {
    const t = performance.now();
    await removeImporterData(deps.db, rootEntityId);
    if (figures) figures.import_cleanup_ms = Math.round(performance.now() - t);
    await vacuumAfterImporter(deps.db);
  }
  return figures as Record<string, number>;
}

async function importInto(
  ctx: DatabaseContext,
  orgId: number,
  rows: number,
  stamp: string,
): Promise<Record<string, number>> {
  const { deps } = ctx;
  await sql`INSERT INTO entity_permissions (entity_id, permission_id) SELECT ${orgId}, id FROM permissions
    ON CONFLICT DO NOTHING`.execute(deps.db);
  const type = await deps.db
    .insertInto('entity_types')
    .values({ entity_id: orgId, name: 'Bench importer' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db
    .insertInto('type_permissions')
    .values(PERMISSIONS.map((p) => ({ type_id: type.id, permission_id: p.id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const importer = await deps.db
    .insertInto('users')
    .values({
      name: 'Bench importer',
      email: `bench-importer-${stamp}@bench.test`,
      password_hash: null,
      primary_entity_id: orgId,
      role_id: null,
      type_id: type.id,
      user_preferences: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const actor = await loadActor(deps.db, importer.id, { via: 'session', sessionId: 'bench' });
  if (!actor) throw new Error('bench importer not found');
  const c: Ctx = {
    ...deps,
    actor,
    ip: null,
    userAgent: null,
    log: pino({ level: 'silent' }),
    memo: new Map(),
  };

  const dir = mkdtempSync(path.join(tmpdir(), 'cc-import-'));
  const file = path.join(dir, 'people.csv');
  const out = createWriteStream(file);
  out.write('name,email,employee_number,start_date\n');
  for (let i = 0; i < rows; i++) {
    if (!out.write(`Person ${i},p${i}-${stamp}@import.test,B${stamp}${i},2024-01-0${(i % 9) + 1}\n`))
      await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const key = newKey('imports', 'csv');
  const size = await deps.storage.write(key, createReadStream(file), 'text/csv');
  rmSync(dir, { recursive: true, force: true });

  const startMb = process.memoryUsage().rss / 1048576;
  let peak = startMb;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss / 1048576);
  }, 20);
  try {
    const t0 = performance.now();
    const planned = await planImport(c, {
      kind: 'users',
      fileName: 'bench.csv',
      storageKey: key,
      size,
      truncated: false,
    });
    await runDueJobs(deps);
    const t1 = performance.now();
    await applyImport(c, planned.uuid);
    await runDueJobs(deps);
    const t2 = performance.now();
    const done = await deps.db
      .selectFrom('imports')
      .select(['status', 'created_count', 'error_count'])
      .where('uuid', '=', planned.uuid)
      .executeTakeFirstOrThrow();
    if (done.status !== 'applied' || done.created_count !== rows)
      throw new Error(
        `import ended ${done.status} with ${done.created_count} created, ${done.error_count} errors`,
      );
    return {
      import_rows: rows,
      import_plan_ms: Math.round(t1 - t0),
      import_apply_ms: Math.round(t2 - t1),
      import_total_ms: Math.round(t2 - t0),
      import_peak_rss_mb: Math.round(peak),
      import_start_rss_mb: Math.round(startMb),
    };
  } finally {
    clearInterval(timer);
  }
}

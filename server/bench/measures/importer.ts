import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSIONS } from '@cc/contracts';
import pino from 'pino';
import { loadActor } from '../../src/auth/actor';
import type { Ctx } from '../../src/http/context';
import { registerImporterJobs } from '../../src/importer/jobs';
import { applyImport, planImport } from '../../src/importer/service';
import { runDueJobs } from '../../src/jobs/queue';
import { newKey } from '../../src/storage/storage';
import type { DatabaseContext } from '../run';

/**
 * Bench measure (issue 18 "Large files stream"): a CSV of BENCH_IMPORT_ROWS (100,000) NEW PEOPLE (name, e-mail,
 * employee number, start date) planned and then applied through the importer's own service and jobs, in this
 * process: import_plan_ms, import_apply_ms, import_total_ms (target: within a minute on PostgreSQL) and this
 * process's peak resident memory while it runs, against its resident memory at the start (flat: the plan streams
 * in chunks of 1,000 rows and lives in import_rows, never in one array).
 */
export const name = 'importer 100k people';
export const needs = 'database';

export async function run(ctx: DatabaseContext): Promise<Record<string, number>> {
  const rows = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
  const { deps, rootEntityId } = ctx;
  registerImporterJobs();
  const type = await deps.db
    .insertInto('entity_types')
    .values({ entity_id: rootEntityId, name: `Bench importer ${Date.now()}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  await deps.db
    .insertInto('type_permissions')
    .values(PERMISSIONS.map((p) => ({ type_id: type.id, permission_id: p.id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const stamp = Date.now().toString(36);
  const importer = await deps.db
    .insertInto('users')
    .values({
      name: 'Bench importer',
      email: `bench-importer-${stamp}@bench.test`,
      password_hash: null,
      primary_entity_id: rootEntityId,
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

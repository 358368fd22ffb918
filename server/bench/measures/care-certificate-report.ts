import { CareCertificateReportQuery } from '@cc/contracts';
import { sql } from 'kysely';
import pino from 'pino';
import { managerWidget } from '../../src/care-certificate/dashboard';
import { careCertificateFile } from '../../src/care-certificate/export';
import { careCertificateReport, careCertificateStandardReport } from '../../src/care-certificate/report';
import type { Actor, Ctx, Deps } from '../../src/http/context';

/**
 * Bench measure (issue 16 report): the Care Certificate report over 2,000 certificates of the bench organisation
 * (seeded here once, set-based: the first 2,000 users get a 2015 certificate; every 3rd has standards approved, every
 * 5th one awaiting approval, every 2nd a competent observation on standard 1's first criteria). Figures, the median
 * of three runs after a warm-up, called as a super admin acting as the group (the services the routes call):
 * - cc_report_page_ms: GET /reports/care-certificate, a page of 50 (default flags: SQL only);
 * - cc_report_evidence_page_ms: the same with only "working towards" asked for (evidence decides, over all 2,000);
 * - cc_report_standard_ms: view=standard (every certificate's standards);
 * - cc_team_widget_ms: the manager widget;
 * - cc_export_xlsx_ms: the whole report as XLSX (2,000 rows, streamed to the end).
 */
export const name = 'care-certificate-report';
export const needs = 'database';
const CERTIFICATES = 2000;

interface BenchCtx {
  deps: Deps;
  rootEntityId: number;
}

async function seed(deps: Deps, groupId: number) {
  const db = deps.db;
  // The bench organisation's certificates only (its sites' people), never another organisation's in the database.
  const ours = sql`(SELECT c.id FROM care_certificates c JOIN users u ON u.id = c.user_id
      JOIN entities e ON e.id = u.primary_entity_id WHERE e.parent_id = ${groupId})`;
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM care_certificates c JOIN users u ON u.id = c.user_id
      JOIN entities e ON e.id = u.primary_entity_id WHERE e.parent_id = ${groupId}`.execute(db);
  if ((rows[0]?.n ?? 0) >= CERTIFICATES) return;
  await sql`
    INSERT INTO care_certificates (user_id, version_id, started_on, expected_by)
    SELECT u.id, v.id, (DATE '2026-01-01' + (u.id % 200)), (DATE '2026-01-01' + (u.id % 200) + 84)
      FROM (SELECT u.id FROM users u JOIN entities e ON e.id = u.primary_entity_id
             WHERE e.parent_id = ${groupId} ORDER BY u.id LIMIT ${CERTIFICATES}) u
     CROSS JOIN (SELECT id FROM care_certificate_versions WHERE code = '2015') v
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO care_certificate_standard_states (certificate_id, standard_id, state, submitted_at)
    SELECT c.id, s.id,
           CASE WHEN c.id % 3 = 0 AND s.number <= 4 THEN 'approved'
                WHEN c.id % 5 = 0 AND s.number = 5 THEN 'awaiting_approval' ELSE 'open' END,
           CASE WHEN c.id % 5 = 0 AND s.number = 5 THEN now() - make_interval(days => c.id % 30) END
      FROM care_certificates c JOIN care_certificate_standards s ON s.version_id = c.version_id
     WHERE c.id IN ${ours}
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`
    INSERT INTO care_certificate_observations (certificate_id, assessor_name, observed_at, place, shift, observed, outcome)
    SELECT c.id, 'Bench assessor', now(), 'Lounge', 'day', 'Observed', 'competent'
      FROM care_certificates c WHERE c.id % 2 = 0 AND c.id IN ${ours}`.execute(db);
  await sql`
    INSERT INTO care_certificate_observation_criteria (observation_id, criterion_id)
    SELECT o.id, k.id FROM care_certificate_observations o
      JOIN care_certificates c ON c.id = o.certificate_id
      JOIN care_certificate_standards s ON s.version_id = c.version_id AND s.number = 1
      JOIN care_certificate_criteria k ON k.standard_id = s.id AND k.position < 3
     WHERE c.id IN ${ours}
    ON CONFLICT DO NOTHING`.execute(db);
  await sql`ANALYZE`.execute(db);
}

export async function run(ctx: BenchCtx): Promise<Record<string, number>> {
  const { deps } = ctx;
  const root = await deps.db
    .selectFrom('entities')
    .select(['id', 'slug', 'name', 'level', 'parent_id'])
    .where('id', '=', ctx.rootEntityId)
    .executeTakeFirstOrThrow();
  const t0 = performance.now();
  await seed(deps, root.id);
  const seedMs = Math.round(performance.now() - t0);
  const actor: Actor = {
    userId: 0,
    uuid: 'bench',
    name: 'Bench',
    email: 'bench@example.test',
    superAdmin: true,
    permissions: new Set(),
    primaryEntity: root,
    aEntityId: root.id,
    actingAs: root,
    roleId: null,
    typeId: null,
    passwordChangeRequired: false,
    via: 'session',
    abilities: ['*'],
  };
  const reqCtx = (): Ctx => ({
    ...deps,
    actor,
    ip: null,
    userAgent: null,
    log: pino({ level: 'silent' }),
    memo: new Map(),
  });
  const time = async (fn: () => Promise<unknown>) => {
    await fn();
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await fn();
      runs.push(performance.now() - t);
    }
    return Math.round(runs.sort((a, b) => a - b)[1]);
  };
  const q = (extra: Record<string, unknown> = {}) =>
    CareCertificateReportQuery.parse({ per_page: 50, ...extra });
  const total = (await careCertificateReport(reqCtx(), q())).total;
  return {
    cc_certificates: total,
    cc_seed_ms: seedMs,
    cc_report_page_ms: await time(() => careCertificateReport(reqCtx(), q())),
    cc_report_evidence_page_ms: await time(() =>
      careCertificateReport(
        reqCtx(),
        q({ includeApproved: 'false', includeAwaitingApproval: 'false', includeOutstanding: 'false' }),
      ),
    ),
    cc_report_standard_ms: await time(() => careCertificateStandardReport(reqCtx(), q({ view: 'standard' }))),
    cc_team_widget_ms: await time(() => managerWidget(reqCtx())),
    cc_export_xlsx_ms: await time(async () => {
      const file = await careCertificateFile(reqCtx(), q(), 'xlsx');
      for await (const _chunk of file.stream) {
        // drain
      }
    }),
  };
}

export default { name, run };

import type { CertificateSummary, NmdsStatus, StandardStatus } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Ctx } from '../http/context';
import type { Trx } from '../results/queries';
import { presentSummary } from './presenters';
import { nmdsStatus, standardCounts, standardStatus } from './progress';
import {
  type CertificateRowDetail,
  certificateRows,
  type StandardStateRow,
  standardStates,
} from './report-queries';

/**
 * The details of a set of certificates for the report, its exports, the dashboards and the inspection pack, read in
 * three statements whatever their number: the certificates (with version, person, organisation), every standard's
 * stored state, and the evidence counts (progress.ts standardCounts, THE evidence rule).
 */
export interface CertificateDetail {
  row: CertificateRowDetail;
  summary: CertificateSummary;
  /** Standard number → what it shows. */
  standards: Record<string, StandardStatus>;
  states: StandardStateRow[];
  anyEvidence: boolean;
}

export async function certificateDetails(
  db: Db | Trx,
  ids: readonly number[],
  today: string,
): Promise<Map<number, CertificateDetail>> {
  const out = new Map<number, CertificateDetail>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return out;
  // One after another: the embedded engine (and a transaction) has one connection.
  const rows = await certificateRows(db, unique);
  const states = await standardStates(db, unique);
  const counts = await standardCounts(db, unique);
  const statesOf = new Map<number, StandardStateRow[]>();
  for (const s of states) statesOf.set(s.certificate_id, [...(statesOf.get(s.certificate_id) ?? []), s]);
  for (const row of rows) {
    const mine = statesOf.get(row.id) ?? [];
    const byStandard = counts.get(row.id);
    const standards: Record<string, StandardStatus> = {};
    let approved = 0;
    let awaiting = 0;
    let criteriaEvidenced = 0;
    for (const s of mine) {
      const c = byStandard?.get(s.standard_id) ?? { total: 0, evidenced: 0 };
      criteriaEvidenced += c.evidenced;
      // A complete certificate (historical ones too) has every standard approved.
      const status = row.status === 'complete' ? 'approved' : standardStatus(s.state, c.evidenced);
      standards[String(s.number)] = status;
      if (status === 'approved') approved += 1;
      if (status === 'awaiting_approval') awaiting += 1;
    }
    const anyEvidence = criteriaEvidenced > 0;
    out.set(row.id, {
      row,
      standards,
      states: mine,
      anyEvidence,
      // The one presenter of a summary (presenters.ts), with the standards counted as shown here.
      summary: presentSummary(
        {
          ...row,
          standards_total: mine.length,
          standards_approved: approved,
          standards_awaiting: awaiting,
        },
        byStandard,
        today,
      ),
    });
  }
  return out;
}

/** A person's workforce data set value: their most advanced certificate decides (progress.ts nmdsStatus). */
export function personNmds(details: Iterable<CertificateDetail>): NmdsStatus {
  return nmdsStatus(
    [...details].map((d) => ({
      status: d.row.status,
      anyEvidence: d.anyEvidence,
      anyDecision: d.row.any_decision,
    })),
  );
}

/**
 * Runs the report's reads with PostgreSQL's JIT off. The evidence rule's statement (progress.ts) is estimated
 * expensive (its EXISTS subplans), so PostgreSQL compiles it with JIT, which costs ~70 ms a call for a statement that
 * runs in ~20 ms (bench: care-certificate-report). SET LOCAL lasts for the transaction only. The embedded engine has
 * no JIT: it runs `fn` as is.
 */
export async function withoutJit<T>(ctx: Ctx, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  if (ctx.engine !== 'postgres') return fn(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    await sql`SET LOCAL jit = off`.execute(trx);
    return fn({ ...ctx, db: trx });
  });
}

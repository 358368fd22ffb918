import {
  type AuditEntryView,
  AuditPerm,
  type DateFormat,
  describeAuditEntry,
  formatDateTime,
} from '@cc/contracts';
import { listAuditEntries } from '../audit/queries';
import { presentAuditEntry } from '../audit/service';
import { subtreeIds } from '../entities/tree';
import { actorOf, type Ctx, can } from '../http/context';

/**
 * The audit trail in the inspection pack (issue 35 §3): who changed the home's training records, requirements, people
 * and settings in the last 12 months, newest first, in plain words. Only for a requester who may read the trail (24);
 * otherwise the pack has no such section. At most PACK_AUDIT_LIMIT entries (the pack says when there were more).
 */
export const PACK_AUDIT_LIMIT = 1000;

export interface PackAudit {
  entries: AuditEntryView[];
  total: number;
  since: Date;
}

export async function packAuditEntries(ctx: Ctx, homeId: number): Promise<PackAudit | undefined> {
  if (!can(actorOf(ctx), [AuditPerm.viewHistory])) return undefined;
  const now = ctx.clock();
  const since = new Date(now);
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  const { rows, total } = await listAuditEntries(
    ctx.db,
    { entityIds: await subtreeIds(ctx.db, homeId), from: since.toISOString().slice(0, 10) },
    { page: 1, perPage: PACK_AUDIT_LIMIT },
  );
  return { entries: rows.map(presentAuditEntry), total, since };
}

/** The section's table rows: when (the organisation's date format), what happened, from where. */
export function packAuditRows(
  audit: PackAudit,
  words: { entity: string; dateFormat: DateFormat },
): string[][] {
  return audit.entries.map((e) => [
    formatDateTime(e.occurred_at, words.dateFormat),
    describeAuditEntry(e, words),
    e.ip ?? '',
  ]);
}

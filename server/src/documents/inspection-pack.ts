import type { Db } from '../db/connect';

/**
 * Policy receipts in the inspection pack (issue 17): for each document the home's people must read (a Mandatory or
 * Required cell of the home's matrix on a document's backing course), who acknowledged which version and when, and
 * who has not. The people and their requirements come from the pack's own matrix read, so the receipts and the
 * matrix agree; two queries for the whole home.
 */
export interface ReceiptPerson {
  id: number;
  name: string;
  role: string;
  cells: { course_id: number; type: string }[];
}

export interface PolicyReceipt {
  document: string;
  version: number;
  person: string;
  role: string;
  acknowledgedVersion: number | null;
  acknowledgedAt: Date | null;
  state: 'current' | 'earlier' | 'none';
}

export async function policyReceipts(db: Db, people: ReceiptPerson[]): Promise<PolicyReceipt[]> {
  const courseIds = [
    ...new Set(people.flatMap((p) => p.cells.filter((c) => c.type !== 'none').map((c) => c.course_id))),
  ];
  if (!courseIds.length) return [];
  const documents = await db
    .selectFrom('documents as d')
    .innerJoin('document_versions as v', 'v.id', 'd.current_version_id')
    .select(['d.id', 'd.course_id', 'd.title', 'v.number'])
    .where('d.course_id', 'in', courseIds)
    .where('d.deleted_at', 'is', null)
    .execute();
  if (!documents.length) return [];
  const acks = await db
    .selectFrom('document_acknowledgements as a')
    .innerJoin('document_versions as v', 'v.id', 'a.version_id')
    .select(['a.document_id', 'a.user_id', 'v.number', 'a.acknowledged_at'])
    .where(
      'a.document_id',
      'in',
      documents.map((d) => d.id),
    )
    .where(
      'a.user_id',
      'in',
      people.map((p) => p.id),
    )
    .orderBy('v.number', 'desc')
    .execute();
  const latest = new Map<string, (typeof acks)[number]>();
  for (const a of acks)
    if (!latest.has(`${a.document_id}:${a.user_id}`)) latest.set(`${a.document_id}:${a.user_id}`, a);
  const receipts: PolicyReceipt[] = [];
  for (const d of documents)
    for (const p of people) {
      if (!p.cells.some((c) => c.course_id === d.course_id && c.type !== 'none')) continue;
      const a = latest.get(`${d.id}:${p.id}`);
      receipts.push({
        document: d.title,
        version: d.number,
        person: p.name,
        role: p.role,
        acknowledgedVersion: a?.number ?? null,
        acknowledgedAt: a ? new Date(a.acknowledged_at) : null,
        state: !a ? 'none' : a.number >= d.number ? 'current' : 'earlier',
      });
    }
  const order = { none: 0, earlier: 1, current: 2 } as const;
  return receipts.sort(
    (a, b) =>
      a.document.localeCompare(b.document) ||
      order[a.state] - order[b.state] ||
      a.person.localeCompare(b.person),
  );
}

export const RECEIPT_STATE_LABELS: Record<PolicyReceipt['state'], string> = {
  current: 'Acknowledged',
  earlier: 'New version to read',
  none: 'Not acknowledged',
};

import { NMDS_LABELS, type NmdsStatus } from '@cc/contracts';
import { londonDate } from '../bookings/session-service';
import { certificateDetails, personNmds, withoutJit } from '../care-certificate/report-details';
import { certificateIdsOfUsers, chosenCertificateIds } from '../care-certificate/report-queries';
import type { Ctx } from '../http/context';
import { whitelabelOfEntity } from '../whitelabel/service';

/**
 * The Care Certificate in the inspection pack (issue 16 "the inspection pack includes each new starter's status"):
 * for each new starter, their certificate (live, else latest historical: the report's choice), standards approved of
 * the total, the workforce data set value, expected by and whether it is overdue. Labelled with the organisation's
 * white-label name for it (certificateGroupMenuName). A fixed number of statements for all the starters.
 */
export interface PackCareCertificate {
  version: string;
  status: 'in_progress' | 'complete';
  approved: number;
  total: number;
  nmds: NmdsStatus;
  expectedBy: string | null;
  completedOn: string | null;
  overdue: boolean;
}

export interface PackCareCertificates {
  label: string;
  /** By user id; a starter without a certificate is absent. */
  byUser: Map<number, PackCareCertificate>;
}

export async function packCareCertificates(
  ctx: Ctx,
  homeId: number,
  starterIds: number[],
): Promise<PackCareCertificates> {
  const label = (await whitelabelOfEntity(ctx, homeId)).certificateGroupMenuName;
  const { chosen, details } = await withoutJit(ctx, async (c) => {
    const chosen = await chosenCertificateIds(c.db, starterIds);
    const all = await certificateIdsOfUsers(c.db, [...chosen.keys()]);
    return { chosen, details: await certificateDetails(c.db, all, londonDate(c.clock())) };
  });
  const byUser = new Map<number, PackCareCertificate>();
  for (const [userId, certId] of chosen) {
    const d = details.get(certId);
    if (!d) continue;
    const mine = [...details.values()].filter((x) => x.row.user_id === userId);
    byUser.set(userId, {
      version: d.summary.version.code,
      status: d.summary.status,
      approved: d.summary.standards_approved,
      total: d.summary.standards_total,
      nmds: personNmds(mine),
      expectedBy: d.summary.expected_by,
      completedOn: d.summary.completed_on,
      overdue: d.summary.overdue,
    });
  }
  return { label, byUser };
}

/** The pack's table cells of one starter: version, approved of total, workforce data set, expected by, overdue. */
export function packCareCertificateCells(
  c: PackCareCertificate | undefined,
  date: (d: string) => string,
): string[] {
  if (!c) return ['Not assigned', '', NMDS_LABELS.not_started, '', ''];
  return [
    c.version,
    `${c.approved} of ${c.total}${c.status === 'complete' && c.completedOn ? ` (complete ${date(c.completedOn)})` : ''}`,
    NMDS_LABELS[c.nmds],
    c.expectedBy ? date(c.expectedBy) : '',
    c.overdue ? 'Overdue' : c.status === 'complete' ? 'Complete' : 'On track',
  ];
}

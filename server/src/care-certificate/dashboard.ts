import {
  CARE_CERTIFICATE_VIEW_PERMS,
  type LearnerCareCertificateWidget,
  type ManagerCareCertificateWidget,
} from '@cc/contracts';
import { londonDate } from '../bookings/session-service';
import { actorOf, authorize, type Ctx } from '../http/context';
import { criteriaEvidenced } from './progress';
import { certificateDetails, withoutJit } from './report-details';
import { criteriaInOrder, ownCertificateId, teamFigures } from './report-queries';
import { scopedEntityIds } from './scope';

/**
 * The dashboards' Care Certificate widgets (contracts care-certificate.ts "Dashboards").
 *
 * GET /dashboard/care-certificate (any signed-in user): the caller's own certificate (live, else latest historical:
 * the report's choice) and up to NEXT_CRITERIA criteria still lacking evidence, lowest standard number first, skipping
 * standards that are approved or awaiting approval (progress.ts decides what is evidenced).
 *
 * GET /dashboard/care-certificate/team (any of CARE_CARE_VIEW_PERMS, else 403): over the people in the caller's scope
 * and their chosen certificate: working towards (in progress, no standard awaiting approval), awaiting approval (in
 * progress, any standard awaiting), overdue (in progress, expected_by before today in Europe/London; overlaps the
 * other two), complete; and up to TEAM_LIST people overdue (oldest expected_by first) and awaiting approval (longest
 * waiting first). A handful of statements whatever the organisation's size.
 */
export const NEXT_CRITERIA = 5;
export const TEAM_LIST = 10;

export async function learnerWidget(ctx: Ctx): Promise<LearnerCareCertificateWidget> {
  actorOf(ctx);
  return withoutJit(ctx, learnerWidgetOf);
}

async function learnerWidgetOf(ctx: Ctx): Promise<LearnerCareCertificateWidget> {
  const actor = actorOf(ctx);
  const id = await ownCertificateId(ctx.db, actor.userId);
  if (id === null) return { certificate: null, next: [] };
  const detail = (await certificateDetails(ctx.db, [id], londonDate(ctx.clock()))).get(id);
  if (!detail) return { certificate: null, next: [] };
  if (detail.row.status === 'complete') return { certificate: detail.summary, next: [] };
  const closed = new Set(detail.states.filter((s) => s.state !== 'open').map((s) => s.standard_id));
  const evidenced = await criteriaEvidenced(ctx.db, id);
  const next = (await criteriaInOrder(ctx.db, id))
    .filter((k) => !closed.has(k.standard_id) && !evidenced.get(k.id))
    .slice(0, NEXT_CRITERIA)
    .map((k) => ({
      standard_number: k.standard_number,
      standard_title: k.standard_title,
      code: k.code,
      text: k.text,
    }));
  return { certificate: detail.summary, next };
}

export async function managerWidget(ctx: Ctx): Promise<ManagerCareCertificateWidget> {
  authorize(ctx, CARE_CERTIFICATE_VIEW_PERMS, 'any');
  return withoutJit(ctx, managerWidgetOf);
}

async function managerWidgetOf(ctx: Ctx): Promise<ManagerCareCertificateWidget> {
  const entityIds = await scopedEntityIds(ctx);
  const today = londonDate(ctx.clock());
  const { counts, overdueIds, awaitingIds } = await teamFigures(ctx.db, entityIds, today, TEAM_LIST);
  const details = await certificateDetails(ctx.db, [...overdueIds, ...awaitingIds], today);
  const summaries = (ids: number[]) =>
    ids.flatMap((id) => {
      const d = details.get(id);
      return d ? [d.summary] : [];
    });
  return {
    ...counts,
    overdue_people: summaries(overdueIds),
    awaiting_people: summaries(awaitingIds),
  };
}

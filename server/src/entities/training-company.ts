import {
  BookingsPerm,
  type EntityDto,
  Perm,
  TrainingCompanyMessages,
  type TrainingCompanyRequest,
  type TrainingCompanyRequestsQuery,
} from '@cc/contracts';
import { actorOf, authorize, type Ctx } from '../http/context';
import { forbidden, HttpError, notFound } from '../http/errors';
import * as q from './queries';
import { entityScope, inScope } from './scope';
import { getEntity } from './service';
import {
  decideTrainingCompany,
  findTrainingCompanyRequest,
  listTrainingCompanyRequests,
  requestTrainingCompany,
  setTrainingCompanyFlag,
  type TrainingCompanyRequestRow,
} from './training-company-queries';

/**
 * Training company approval (issue 29 §7). Marking oneself a training company used to put one's external sessions on
 * every organisation's marketplace at once, with whatever link they carried. Now the organisation asks (pending) and a
 * super admin approves or refuses; the bookings capability treats only an approved training company as a provider to
 * others (marketplace, booking and ordering its sessions, its trainers on the sessions of those who book with it).
 * The organisation's own use of its sessions and its training provider settings do not wait.
 *
 * Refusals: a caller who is not a super admin is refused approving or refusing with 403 before any lookup (the same
 * for every id, so nothing is revealed); the request is the organisation's own act (2 or 110, entity in scope, else
 * 404).
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function assertSuperAdmin(ctx: Ctx) {
  if (!actorOf(ctx).superAdmin) throw forbidden();
}

/** GET /training-company-requests (super admin): one status's requests, oldest first. */
export async function trainingCompanyRequests(
  ctx: Ctx,
  query: TrainingCompanyRequestsQuery,
): Promise<{ data: TrainingCompanyRequest[]; total: number }> {
  assertSuperAdmin(ctx);
  const { rows, total } = await listTrainingCompanyRequests(ctx.db, {
    status: query.status,
    search: query.search || undefined,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
  });
  return { total, data: rows.map(presentRequest) };
}

function presentRequest(r: TrainingCompanyRequestRow): TrainingCompanyRequest {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    level: r.level,
    parent:
      r.parent_id !== null ? { id: r.parent_id, slug: r.parent_slug ?? '', name: r.parent_name ?? '' } : null,
    website: r.website,
    status: r.training_company_status,
    requested_at: iso(r.training_company_requested_at),
    decided_at: iso(r.training_company_decided_at),
    decided_by: r.decided_by_id !== null ? { id: r.decided_by_id, name: r.decided_by_name ?? '' } : null,
  };
}

/**
 * POST /entities/{id}/training-company/request: the organisation asks to be listed as a training company (again,
 * after a refusal). 422 when it is approved already. A super admin's own request is an approval.
 */
export async function requestTrainingCompanyListing(ctx: Ctx, ref: string): Promise<EntityDto> {
  const actor = actorOf(ctx);
  const row = await q.findEntityByRef(ctx.db, ref);
  if (!row || !inScope(await entityScope(ctx), row.id)) throw notFound();
  authorize(ctx, [Perm.updateEntity, BookingsPerm.trainingProvider], 'any');
  const now = ctx.clock();
  if (actor.superAdmin) {
    // The flag and the approval together: a super admin's request is its own answer.
    await ctx.db.transaction().execute(async (trx) => {
      await setTrainingCompanyFlag(trx, row.id, true, actor.userId, now);
      await decideTrainingCompany(trx, row.id, 'approved', actor.userId, now);
    });
  } else if (!(await requestTrainingCompany(ctx.db, row.id, now))) {
    throw new HttpError(422, TrainingCompanyMessages.alreadyApproved);
  }
  return getEntity(ctx, String(row.id));
}

/**
 * POST /entities/{id}/training-company/approve | /refuse (super admin). 404 when the entity is missing or is not a
 * training company (nothing to decide). Approving lists its sessions; refusing takes them off other organisations'
 * marketplace (bookings already made stay, as they do when a session stops being offered). Answers the request as
 * the list shows it: the platform's act, whatever organisation the super admin is viewing.
 */
export async function decideTrainingCompanyListing(
  ctx: Ctx,
  ref: string,
  decision: 'approved' | 'refused',
): Promise<TrainingCompanyRequest> {
  assertSuperAdmin(ctx);
  const actor = actorOf(ctx);
  const row = await q.findEntityByRef(ctx.db, ref);
  if (!row) throw notFound();
  if (!(await decideTrainingCompany(ctx.db, row.id, decision, actor.userId, ctx.clock()))) throw notFound();
  const request = await findTrainingCompanyRequest(ctx.db, row.id);
  if (!request) throw notFound();
  return presentRequest(request);
}

import { type MarketplaceQuery, BookingsPerm as P, type TrainingSessionView } from '@cc/contracts';
import { authorize, type Ctx } from '../http/context';
import { forbidden } from '../http/errors';
import { canViewExternal } from './delegate-queries';
import { openSessionsPage } from './marketplace-queries';
import { loadSessionViews } from './presenters';

/**
 * GET /marketplace: training companies' open future sessions offered to other organisations (availableTo external or
 * all), for actors holding 9 or 118 whose a_entity can view external bookings (403 otherwise).
 */
export async function marketplace(ctx: Ctx, query: MarketplaceQuery) {
  const actor = authorize(ctx, [P.createBookings, P.requestBookings], 'any');
  if (!(await canViewExternal(ctx.db, actor.aEntityId))) throw forbidden();
  const now = ctx.clock();
  const { ids, total } = await openSessionsPage(ctx.db, {
    internalOwners: [],
    external: true,
    now,
    from: query.from,
    to: query.to,
    contentId: query.content_id,
    hasPlaces: query.has_places,
    search: query.search || undefined,
    page: query.page,
    perPage: query.per_page,
  });
  const data: TrainingSessionView[] = await loadSessionViews(ctx, ids);
  return { data, total };
}

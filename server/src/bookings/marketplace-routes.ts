import { MarketplaceQuery } from '@cc/contracts';
import type { App } from '../http/app-types';
import { paginate } from '../http/envelope';
import { marketplace } from './marketplace';

/** GET /marketplace (issue 15; contracts bookings.ts "Marketplace and training orders"). */
export async function marketplaceRoutes(app: App) {
  app.get('/marketplace', { schema: { tags: ['bookings'], querystring: MarketplaceQuery } }, async (r) => {
    const { data, total } = await marketplace(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
}

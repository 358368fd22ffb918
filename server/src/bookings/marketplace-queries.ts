import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';

/** Open, future sessions someone may book (the marketplace and available training), one page and the total. */
export interface OpenSessionsFilter {
  /** Internal sessions (availableTo internal/all) owned by these entities; [] for none. */
  internalOwners: readonly number[];
  /** External sessions (availableTo external/all) of training companies. */
  external: boolean;
  /** Leave out sessions this user holds a live booking on. */
  notBookedBy?: number;
  now: Date;
  from?: string;
  to?: string;
  contentId?: number;
  hasPlaces?: boolean;
  search?: string;
  page: number;
  perPage: number;
}

export async function openSessionsPage(db: Db, f: OpenSessionsFilter) {
  let q = db
    .selectFrom('training_sessions as s')
    .innerJoin('entities as e', 'e.id', 's.entity_id')
    .innerJoin('contents as c', 'c.id', 's.content_id')
    .select(['s.id'])
    .where('s.status', 'in', ['scheduled', 'confirmed'])
    .where('s.starts_at', '>', f.now)
    .where((eb) =>
      eb.or([
        f.internalOwners.length
          ? eb.and([eb('s.available_to', '!=', 'external'), eb('s.entity_id', 'in', [...f.internalOwners])])
          : eb.lit(false),
        f.external
          ? // Issue 29 §7: a training company reaches other organisations once a super admin approved it.
            eb.and([
              eb('s.available_to', '!=', 'internal'),
              eb('e.is_training_company', '=', true),
              eb('e.training_company_status', '=', 'approved'),
            ])
          : eb.lit(false),
      ]),
    );
  if (f.notBookedBy !== undefined) {
    const userId = f.notBookedBy;
    q = q.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('session_delegates as d')
            .select('d.id')
            .whereRef('d.session_id', '=', 's.id')
            .where('d.user_id', '=', userId)
            .where('d.status', 'not in', ['declined', 'deleted']),
        ),
      ),
    );
  }
  if (f.from || f.to) {
    const { from, to } = f;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('training_session_dates as sd')
          .select('sd.id')
          .whereRef('sd.session_id', '=', 's.id')
          .$if(from !== undefined, (w) => w.where('sd.date', '>=', from as string))
          .$if(to !== undefined, (w) => w.where('sd.date', '<=', to as string)),
      ),
    );
  }
  if (f.contentId !== undefined) q = q.where('s.content_id', '=', f.contentId);
  if (f.hasPlaces) q = q.where(sql<boolean>`s.places_taken < s.max_delegates`);
  if (f.search) q = q.where('c.title', 'ilike', `%${f.search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('s.starts_at').orderBy('s.id'),
    { page: f.page, perPage: f.perPage },
  );
  return { ids: rows.map((r) => r.id), total };
}

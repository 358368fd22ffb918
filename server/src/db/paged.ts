import type { SelectQueryBuilder } from 'kysely';

/** Which page of a list: 1-based page number and its size. */
export interface PageWindow {
  page: number;
  perPage: number;
}

/** The page's rows carry the list's count in this column for one statement; no list selects a column of this name. */
const TOTAL = 'page_total__';

/**
 * One page of a list and the list's whole count, from one filtered query: `listed` adds the order (and the columns,
 * when `filtered` has none yet) to `filtered`; the count reads `filtered` without its columns, so its joins and
 * conditions can never drift from the page's. One statement (pageAndCount).
 */
export async function pageWithTotal<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  listed: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  window: PageWindow,
): Promise<{ rows: Row[]; total: number }> {
  return pageAndCount(
    listed(filtered),
    filtered.clearSelect().select((eb) => eb.fn.countAll<string>().as('n')),
    windowOf(window),
  );
}

/** A page's LIMIT and OFFSET. */
export const windowOf = (window: PageWindow) => ({
  limit: window.perPage,
  offset: (window.page - 1) * window.perPage,
});

/**
 * A page (`listed`, ordered) and the count of the whole list (`count`: one row, one column) in ONE statement: the
 * count is a scalar subquery of the page's select list, which PostgreSQL computes once (an InitPlan), so the page
 * keeps its own plan (an index or a top-N sort) and costs one round trip instead of two (issue 36 §2: at 200
 * clients, round trips queued for the pool's connections). A page past the end has no row to carry the count: then,
 * and only then, the count runs alone.
 */
export async function pageAndCount<
  DB,
  TB extends keyof DB,
  Row,
  CountDB,
  CountTB extends keyof CountDB,
  Count,
>(
  listed: SelectQueryBuilder<DB, TB, Row>,
  count: SelectQueryBuilder<CountDB, CountTB, Count>,
  window: { limit: number; offset: number },
): Promise<{ rows: Row[]; total: number }> {
  const withTotal = (await listed
    // Kysely cannot type a column added to a generic query; the statement selects `count` as TOTAL.
    .select(count.as(TOTAL) as never)
    .limit(window.limit)
    .offset(window.offset)
    .execute()) as (Row & { [TOTAL]: number | string })[];
  if (withTotal.length === 0)
    return { rows: [], total: window.offset > 0 || window.limit < 1 ? await countOnly(count) : 0 };
  const total = Number(withTotal[0]?.[TOTAL]);
  return { rows: withTotal.map(({ [TOTAL]: _, ...row }) => row as Row), total };
}

async function countOnly<CountDB, CountTB extends keyof CountDB, Count>(
  count: SelectQueryBuilder<CountDB, CountTB, Count>,
): Promise<number> {
  const row = (await count.executeTakeFirstOrThrow()) as Record<string, number | string>;
  // The one column the count selects, whatever its name.
  return Number(Object.values(row)[0]);
}

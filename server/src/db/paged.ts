import type { SelectQueryBuilder } from 'kysely';

/** Which page of a list: 1-based page number and its size. */
export interface PageWindow {
  page: number;
  perPage: number;
}

/**
 * One page of a list and the list's whole count, from one filtered query: `listed` adds the order (and the columns,
 * when `filtered` has none yet) to `filtered`; the count reads `filtered` without its columns, so its joins and
 * conditions can never drift from the page's. Both run at once on the pool.
 */
export async function pageWithTotal<DB, TB extends keyof DB, O, Row>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  listed: (q: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  window: PageWindow,
): Promise<{ rows: Row[]; total: number }> {
  const [rows, count] = await Promise.all([
    listed(filtered)
      .limit(window.perPage)
      .offset((window.page - 1) * window.perPage)
      .execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  // Kysely cannot name the alias's column through the generic tables; the statement above selects exactly `n`.
  return { rows, total: Number((count as { n: string }).n) };
}

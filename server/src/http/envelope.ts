import type { Paged } from '@cc/contracts';

/** spec 1 §7: every body is read as data, message, error and errors. */
export const ok = <T>(data: T, message?: string) => (message === undefined ? { data } : { data, message });
export const done = (message: string, data?: unknown) =>
  data === undefined ? { message } : { message, data };

export interface PageRequest {
  page: number;
  per_page: number;
}

/** Laravel-style paginator body: data, meta, links (spec 2 §3 "Paged lists carry data, meta, links"). */
export function paginate<T>(rows: T[], total: number, req: PageRequest, baseUrl: string): Paged<T> {
  const lastPage = Math.max(1, Math.ceil(total / req.per_page));
  const from = total === 0 ? null : (req.page - 1) * req.per_page + 1;
  const to = total === 0 ? null : Math.min(total, (from ?? 1) + rows.length - 1);
  const link = (page: number) => {
    const url = new URL(baseUrl, 'http://x');
    url.searchParams.set('page', String(page));
    return `${url.pathname}${url.search}`;
  };
  return {
    data: rows,
    meta: { current_page: req.page, last_page: lastPage, per_page: req.per_page, total, from, to },
    links: {
      first: link(1),
      last: link(lastPage),
      prev: req.page > 1 ? link(req.page - 1) : null,
      next: req.page < lastPage ? link(req.page + 1) : null,
    },
  };
}

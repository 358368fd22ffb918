import { PAGE_SIZE_DEFAULT } from '@cc/contracts';
import type { ArgBuilder, ObjectRef } from '@pothos/core';
import type { z } from 'zod';
import { builder } from './builder';
import { nullless, parseInput } from './input';

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** spec 2 §7: "Paged fetches take first and page and read paginatorInfo.lastPage and data" (Lighthouse's shape). */
export interface PaginatorInfo {
  count: number;
  currentPage: number;
  firstItem: number | null;
  lastItem: number | null;
  lastPage: number;
  perPage: number;
  total: number;
  hasMorePages: boolean;
}
export interface Paginator<T> {
  data: T[];
  paginatorInfo: PaginatorInfo;
}

export const PaginatorInfoRef = builder.objectRef<PaginatorInfo>('PaginatorInfo').implement({
  description: 'Where a page sits in the whole list.',
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Items on this page.' }),
    currentPage: t.exposeInt('currentPage'),
    firstItem: t.exposeInt('firstItem', {
      nullable: true,
      description: 'Position of the first item (from 1).',
    }),
    lastItem: t.exposeInt('lastItem', { nullable: true }),
    lastPage: t.exposeInt('lastPage'),
    perPage: t.exposeInt('perPage'),
    total: t.exposeInt('total'),
    hasMorePages: t.exposeBoolean('hasMorePages'),
  }),
});

/** A `<Name>Paginator` type with `data` and `paginatorInfo`. */
export function paginatorOf<T>(item: ObjectRef<Types, T>, name: string) {
  return builder.objectRef<Paginator<T>>(`${name}Paginator`).implement({
    fields: (t) => ({
      data: t.field({ type: [item], resolve: (p) => p.data }),
      paginatorInfo: t.field({ type: PaginatorInfoRef, resolve: (p) => p.paginatorInfo }),
    }),
  });
}

export function toPaginator<T>(data: T[], total: number, page: number, perPage: number): Paginator<T> {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const firstItem = data.length ? (page - 1) * perPage + 1 : null;
  return {
    data,
    paginatorInfo: {
      count: data.length,
      currentPage: page,
      firstItem,
      lastItem: firstItem === null ? null : firstItem + data.length - 1,
      lastPage,
      perPage,
      total,
      hasMorePages: page < lastPage,
    },
  };
}

/** The common paging arguments; `first` is the page size (REST's per_page). */
export const pageArgs = (arg: ArgBuilder<Types>) => ({
  first: arg.int({ defaultValue: 10, description: 'Items per page (1-100).' }),
  page: arg.int({ defaultValue: 1 }),
});

/** GraphQL paging arguments as the REST query the services parse (PageQuery: page, per_page). */
export const restPage = (args: { first?: number | null; page?: number | null }) => ({
  page: args.page ?? 1,
  per_page: args.first ?? PAGE_SIZE_DEFAULT,
});

/**
 * A paged list resolver's body: `first`/`page` and the filters parsed by the REST route's query schema (the same
 * 422s), the service's page loaded, answered as a Paginator.
 */
export async function pageOf<S extends z.ZodType<{ page: number; per_page: number }>, T>(
  schema: S,
  args: { first?: number | null; page?: number | null } & Record<string, unknown>,
  load: (query: z.output<S>) => Promise<{ data: T[]; total: number }>,
): Promise<Paginator<T>> {
  const { first, page, ...filters } = args;
  const query = parseInput(schema, { ...restPage({ first, page }), ...nullless(filters) });
  const { data, total } = await load(query);
  return toPaginator(data, total, query.page, query.per_page);
}

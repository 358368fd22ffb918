/**
 * Test helpers for screens that read through GraphQL (web/src/app/graphql): recognise a fake-fetch call as a GraphQL
 * operation and answer it the way the server does (ids as GraphQL IDs, pages as paginators).
 */

export interface GraphQLCall {
  operationName: string;
  variables: Record<string, unknown>;
}

/** The operation a fake fetch was asked for, or null for any other request. */
export function graphqlOperation(url: string | URL, body: unknown): GraphQLCall | null {
  const path = new URL(String(url), 'http://localhost').pathname;
  if (path !== '/graphql' || !body || typeof body !== 'object') return null;
  const b = body as { operationName?: string; variables?: Record<string, unknown> };
  return { operationName: b.operationName ?? '', variables: b.variables ?? {} };
}

/** A GraphQL answer. */
export const graphqlData = (data: unknown): Response =>
  new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });

/** Numbers in `id` fields become strings, as GraphQL's ID scalar sends them. */
function asGraphQL(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asGraphQL);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'id' && typeof v === 'number' ? String(v) : asGraphQL(v),
    ]),
  );
}

/** One page of rows as the server's `<Name>Paginator`. */
export function paginator(rows: unknown[], { page = 1, perPage = 10, total = rows.length } = {}) {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    data: asGraphQL(rows),
    paginatorInfo: {
      currentPage: page,
      lastPage,
      perPage,
      total,
      firstItem: rows.length ? (page - 1) * perPage + 1 : null,
      lastItem: rows.length ? (page - 1) * perPage + rows.length : null,
    },
  };
}

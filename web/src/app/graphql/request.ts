import type { ApolloClient, DocumentNode, ErrorLike, OperationVariables } from '@apollo/client';
import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import * as contracts from '@cc/contracts';
import { COURSE_LIST_DEFAULT_FIRST, GRAPHQL_FETCH_ALL_PAGE_SIZE, Messages, type Paged } from '@cc/contracts';
import { ApiError } from '../api';
import { graphqlClient, statusOfGraphQLError } from './client';

/** spec 2 §7: "Paged fetches take first and page and read paginatorInfo.lastPage and data". */
export interface PaginatorInfo {
  currentPage: number;
  lastPage: number;
  perPage: number;
  total: number;
  firstItem?: number | null;
  lastItem?: number | null;
}
export interface Paginator<T> {
  data: T[];
  paginatorInfo: PaginatorInfo;
}

/** The fields every paged query selects, so a page converts to the REST list shape the pages already read. */
export const PAGINATOR_INFO = 'paginatorInfo { currentPage lastPage perPage total firstItem lastItem }';

/**
 * Every text of the contracts' message catalogues (Messages, BookingsMessages, DocumentMessages, …): the words the
 * services refuse with and the web app already shows for REST. A GraphQL error whose message is one of them is a
 * service's refusal written for people; any other message (GraphQL's own, a masked failure) is never shown.
 */
let catalogue: Set<string> | null = null;
export function isCatalogueMessage(message: string): boolean {
  if (!catalogue) {
    catalogue = new Set();
    for (const [name, value] of Object.entries(contracts))
      if (/Messages$|Errors$/.test(name) && value && typeof value === 'object')
        for (const text of Object.values(value as Record<string, unknown>))
          if (typeof text === 'string') catalogue.add(text);
  }
  return catalogue.has(message);
}

/**
 * A GraphQL failure as the REST client's ApiError, so pages keep their one error path (isNotFound, field errors).
 * Never a raw GraphQL message (spec 2 §8): a 422 carries its field map (the catalogue's field messages, shown by the
 * fields); a service refusal keeps its text when it is one of the catalogue's; anything else is the spec's generic
 * GraphQL failure text.
 */
export function toApiError(error: ErrorLike): ApiError {
  let status = 500;
  let errors: Record<string, string[]> | undefined;
  let message: string = Messages.somethingWentWrong;
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors.find((e) => statusOfGraphQLError(e) !== null) ?? error.errors[0];
    status = (first && statusOfGraphQLError(first)) ?? 500;
    const validation = first?.extensions?.validation;
    if (status === 422 && validation && typeof validation === 'object' && Object.keys(validation).length) {
      errors = validation as Record<string, string[]>;
      message = Object.values(errors).flat()[0] ?? Messages.validationFailed;
    } else if (first && status < 500 && isCatalogueMessage(first.message)) {
      message = first.message;
    }
  } else if (ServerError.is(error)) {
    status = error.statusCode;
  } else {
    // No answer at all (offline, DNS, CORS).
    status = 0;
  }
  return new ApiError({ status, data: { message, ...(errors ? { errors } : {}) }, headers: new Headers() });
}

/** A one-off query (no cache, errors returned with data): its data, or an ApiError when anything failed. */
export async function gqlQuery<T, V extends OperationVariables = OperationVariables>(
  query: DocumentNode,
  variables?: V,
  client: ApolloClient = graphqlClient,
  context?: { actingAs?: boolean },
): Promise<T> {
  const result = await client.query({ query, variables: variables as OperationVariables, context });
  if (result.error) throw toApiError(result.error);
  return result.data as T;
}

/** A mutation: its data, or an ApiError (a 422 keeps its field map for the form). */
export async function gqlMutate<T, V extends OperationVariables = OperationVariables>(
  mutation: DocumentNode,
  variables?: V,
  client: ApolloClient = graphqlClient,
  context?: { actingAs?: boolean },
): Promise<T> {
  const result = await client.mutate({ mutation, variables: variables as OperationVariables, context });
  if (result.error) throw toApiError(result.error);
  return result.data as T;
}

/** The paginator under the operation's one root field. */
function paginatorIn<T>(data: unknown): Paginator<T> {
  const root = Object.values((data ?? {}) as Record<string, unknown>)[0] as Paginator<T> | undefined;
  if (!root || !Array.isArray(root.data) || !root.paginatorInfo)
    throw new Error('The query does not answer a paginator (data and paginatorInfo).');
  return root;
}

/**
 * Every item of a paged query (spec 2 §9: fetch-all page size 100): page 1, 2, … until paginatorInfo.lastPage. The
 * query takes $first and $page; one failed page fails the whole fetch (a partial list would look complete).
 */
export async function fetchAll<T, V extends OperationVariables = OperationVariables>(
  query: DocumentNode,
  variables?: V,
  client: ApolloClient = graphqlClient,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const data = await gqlQuery<unknown>(
      query,
      { ...variables, first: GRAPHQL_FETCH_ALL_PAGE_SIZE, page } as OperationVariables,
      client,
    );
    const paginator = paginatorIn<T>(data);
    items.push(...paginator.data);
    if (page >= paginator.paginatorInfo.lastPage || paginator.data.length === 0) return items;
  }
}

/** spec 2 §9: the course listing asks for 10 at a time unless told otherwise. */
export const courseListVariables = (page = 1, search?: string) => ({
  first: COURSE_LIST_DEFAULT_FIRST,
  page,
  ...(search ? { search } : {}),
});

/** A GraphQL page in the REST list shape ({data, meta, links}) the list pages and their pagers already read. */
export function pagedFrom<T>(paginator: Paginator<T>): Paged<T> {
  const info = paginator.paginatorInfo;
  const from = info.firstItem ?? (paginator.data.length ? (info.currentPage - 1) * info.perPage + 1 : null);
  const to = info.lastItem ?? (from === null ? null : from + paginator.data.length - 1);
  return {
    data: paginator.data,
    meta: {
      current_page: info.currentPage,
      last_page: info.lastPage,
      per_page: info.perPage,
      total: info.total,
      from,
      to,
    },
    // GraphQL pages by number; there are no page addresses to follow.
    links: { first: '', last: '', prev: null, next: null },
  };
}

/**
 * A GraphQL answer in the shape of the REST answer the pages were written for (the contracts' types): GraphQL's ID
 * scalar arrives as a string where REST sends a number, and Apollo adds __typename to every object.
 */
export function restShape<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((v) => restShape(v)) as T;
  if (value === null || typeof value !== 'object') return value as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '__typename') continue;
    out[key] = key === 'id' && typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : restShape(v);
  }
  return out as T;
}

/** A paged query's page in the REST list shape: run it, take the paginator under its one root field, convert. */
export async function gqlPage<T>(query: DocumentNode, variables: OperationVariables): Promise<Paged<T>> {
  const paginator = paginatorIn<unknown>(await gqlQuery<unknown>(query, variables));
  return restShape<Paged<T>>(pagedFrom(paginator));
}

/** Variables without the empty filters (a search box left blank is no filter, as REST's query string did). */
export function variablesOf(f: object): OperationVariables {
  const out: OperationVariables = {};
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

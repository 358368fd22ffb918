import { ContentPerm } from '@cc/contracts';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePermission } from '../app/auth';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  ButtonLink,
  Card,
  type Column,
  DataTable,
  EmptyState,
  PageHeader,
  Pagination,
  SearchInput,
  Select,
} from '../ui';
import { type DtoOf, type Kind, type ListFilters, useList } from './api';

/** Filters from the address (so a filtered list can be shared and reloaded) and back. */
export function listFiltersFromParams(params: URLSearchParams): ListFilters {
  const published = params.get('published');
  return {
    page: Math.max(1, Number(params.get('page')) || 1),
    search: params.get('search') ?? '',
    published: published === '0' || published === '1' ? published : '',
  };
}

export function paramsFromListFilters(f: ListFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.page > 1) out.set('page', String(f.page));
  if (f.search) out.set('search', f.search);
  if (f.published) out.set('published', f.published);
  return out;
}

type Row = { id: number; title: string };

/**
 * One list screen of the content creator: search, an optional published filter, server paging, the spec's
 * failure text (§8) as a notice and in the table, and an empty state whose action adds the first item.
 */
export function ResourceList<K extends Kind>({
  kind,
  title,
  description,
  singular,
  base,
  listError,
  columns,
  publishedFilter = false,
  extra = {},
  addPermission = ContentPerm.addContent,
  crumbs = [],
  rowLink,
}: {
  kind: K;
  title: string;
  description: string;
  singular: string;
  /** The screens' base path: `${base}/create`, `${base}/update/{id}`. */
  base: string;
  listError: string;
  columns: Column<DtoOf[K]>[];
  publishedFilter?: boolean;
  extra?: Partial<ListFilters>;
  addPermission?: number;
  crumbs?: { label: string; to?: string }[];
  /**
   * Where a row opens when it is not edited here (a course backed by a document or a pathway opens its own page),
   * with the action's label; null: the editor at `${base}/update/{id}`.
   */
  rowLink?: (row: DtoOf[K]) => { to: string; label: string } | null;
}) {
  const [params, setParams] = useSearchParams();
  const filters = { ...listFiltersFromParams(params), ...extra };
  const setFilters = (patch: Partial<ListFilters>) =>
    setParams(paramsFromListFilters({ ...filters, page: 1, ...patch }), {
      replace: patch.page === undefined,
    });
  const canAdd = usePermission([addPermission]);
  const list = useList(kind, filters);
  useEffect(() => {
    if (list.isError) notifyError({ message: listError }, listError);
  }, [list.isError, listError]);

  const linkOf = (row: DtoOf[K]) =>
    rowLink?.(row) ?? { to: `${base}/update/${(row as Row).id}`, label: 'Edit' };
  const titleColumn: Column<DtoOf[K]> = {
    key: 'title',
    header: 'Title',
    render: (row) => (
      <Link
        to={linkOf(row).to}
        className="focus-ring rounded font-medium break-words text-primary-800 hover:underline"
      >
        {(row as Row).title}
      </Link>
    ),
  };
  const addLink = canAdd ? <ButtonLink to={`${base}/create`}>Add {singular}</ButtonLink> : undefined;
  const filtered = Boolean(filters.search || filters.published);
  const empty = list.isError ? (
    <EmptyState title={listError} description={errorEnvelope(list.error, 'Please try again.').message} />
  ) : filtered ? (
    <EmptyState
      title={`No ${title.toLowerCase()} match`}
      description="Try another search or fewer filters."
      action={
        <button
          type="button"
          className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          onClick={() => setFilters({ search: '', published: '' })}
        >
          Clear filters
        </button>
      }
    />
  ) : (
    <EmptyState title={`No ${title.toLowerCase()} yet`} description={description} action={addLink} />
  );

  return (
    <div>
      <PageHeader
        title={title}
        description={description}
        breadcrumbs={[{ label: 'Content creator', to: '/content-creator' }, ...crumbs, { label: title }]}
        actions={addLink}
      />
      <Card padded={false}>
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-end">
          <SearchInput
            label={`Search ${title.toLowerCase()}`}
            value={filters.search}
            onSearch={(search) => setFilters({ search })}
          />
          {publishedFilter ? (
            <div className="sm:w-48">
              <Select
                label="Published"
                hideLabel
                value={filters.published}
                onChange={(e) => setFilters({ published: e.target.value as ListFilters['published'] })}
                options={[
                  { value: '', label: 'Published and drafts' },
                  { value: '1', label: 'Published only' },
                  { value: '0', label: 'Drafts only' },
                ]}
              />
            </div>
          ) : null}
        </div>
        <DataTable
          caption={title}
          columns={[titleColumn, ...columns]}
          rows={list.isError ? [] : list.data?.data}
          rowKey={(row) => (row as Row).id}
          loading={list.isLoading}
          empty={empty}
          rowActions={(row) => (
            <ButtonLink
              to={linkOf(row).to}
              variant="ghost"
              size="sm"
              aria-label={`${linkOf(row).label} ${(row as Row).title}`}
            >
              {linkOf(row).label}
            </ButtonLink>
          )}
        />
        {list.data && !list.isError ? (
          <div className="border-t border-slate-200 px-4">
            <Pagination meta={list.data.meta} onPageChange={(page) => setFilters({ page })} />
          </div>
        ) : null}
      </Card>
    </div>
  );
}

export const publishedColumn = <T extends { published: boolean }>(): Column<T> => ({
  key: 'published',
  header: 'Status',
  render: (row) =>
    row.published ? <Badge tone="success">Published</Badge> : <Badge tone="neutral">Draft</Badge>,
});

import type { ReactNode } from 'react';
import { Card } from './Card';
import { EmptyState } from './EmptyState';
import { CardPagination, type PaginationMeta } from './Pagination';

/**
 * A card holding one page of a list with its pager below: loading lines, the failure, or an empty state in its place.
 * The caller turns its query's error into words (`errorText`), so this stays free of the API client.
 */
export function PagedListCard<T extends { id: number | string }>({
  title,
  testId,
  listLabel,
  loadingLabel,
  pagesLabel,
  isLoading,
  errorTitle,
  errorText,
  empty,
  page,
  onPageChange,
  itemClassName,
  renderItem,
}: {
  title: string;
  testId: string;
  listLabel: string;
  loadingLabel: string;
  pagesLabel: string;
  isLoading: boolean;
  errorTitle: string;
  /** Set when the query failed. */
  errorText: string | undefined;
  empty: { title: string; description: string };
  page: { data: T[]; meta: PaginationMeta } | undefined;
  onPageChange: (page: number) => void;
  itemClassName: string;
  renderItem: (item: T) => ReactNode;
}) {
  return (
    <Card title={title} padded={false} data-testid={testId}>
      {errorText !== undefined ? (
        <EmptyState title={errorTitle} description={errorText} />
      ) : isLoading ? (
        <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label={loadingLabel}>
          {[0, 1, 2].map((i) => (
            <div key={i} className="cc-skeleton h-4 w-2/3 rounded bg-slate-200" />
          ))}
        </div>
      ) : !page?.data.length ? (
        <EmptyState title={empty.title} description={empty.description} />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={listLabel}>
          {page.data.map((item) => (
            <li key={item.id} className={itemClassName}>
              {renderItem(item)}
            </li>
          ))}
        </ul>
      )}
      <CardPagination meta={page?.meta} onPageChange={onPageChange} label={pagesLabel} />
    </Card>
  );
}

import { formatDate, LibraryPerm, type LibraryView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAddressFilters } from '../app/address-filters';
import { usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import {
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
} from '../ui';
import { organisationWord } from '../whitelabel/words';
import { DocumentMessages, deleteLibrary, docAction, useLibraries } from './api';
import { LibraryDialog } from './LibraryDialog';

export const documentCount = (n: number) => (n === 1 ? '1 document' : `${n} documents`);

/** `/libraries`: the libraries the person can see, searched and paged; managers add, rename and delete them. */
export default function LibrariesPage() {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const canManage = usePermission([LibraryPerm.manage]);
  const filters = useAddressFilters(['search']);
  const page = Number(filters.params.get('page')) || 1;
  const search = filters.params.get('search') || undefined;
  const list = useLibraries({ page, search });
  const [editing, setEditing] = useState<LibraryView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<LibraryView | null>(null);

  const columns: Column<LibraryView>[] = [
    {
      key: 'name',
      header: 'Library',
      render: (l) => (
        <span className="flex flex-col gap-0.5">
          <Link
            to={`/libraries/${l.id}`}
            className="focus-ring rounded font-medium text-primary-800 wrap-anywhere hover:underline"
          >
            {l.name}
          </Link>
          {l.description ? <span className="text-xs text-slate-600">{l.description}</span> : null}
          <span className="text-xs text-slate-600 sm:hidden">
            {l.entity.name} · {documentCount(l.document_count)}
          </span>
        </span>
      ),
    },
    { key: 'entity', header: organisationWord(wl), hideOnMobile: true, render: (l) => l.entity.name },
    {
      key: 'documents',
      header: 'Documents',
      hideOnMobile: true,
      render: (l) => documentCount(l.document_count),
    },
    { key: 'updated', header: 'Updated', hideOnMobile: true, render: (l) => formatDate(l.updated_at) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Libraries"
        description="Policies, procedures and other documents staff must read."
        actions={canManage ? <Button onClick={() => setEditing(null)}>Add a library</Button> : undefined}
      />
      <Card padded={false} data-testid="libraries-list">
        <div className="border-b border-slate-200 p-4">
          <SearchInput
            label="Search libraries"
            placeholder="Library name"
            value={search ?? ''}
            onSearch={(value) => filters.set({ search: value })}
          />
        </div>
        {list.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(list.error, 'The libraries could not be loaded.').message}
          </p>
        ) : (
          <DataTable
            caption="Libraries"
            columns={columns}
            rows={list.data?.data}
            rowKey={(l) => l.id}
            loading={list.isLoading}
            rowActions={
              canManage
                ? (l) =>
                    l.can.manage ? (
                      <span className="flex gap-2">
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`Rename ${l.name}`}
                          onClick={() => setEditing(l)}
                        >
                          Rename
                        </Button>
                        <Button
                          size="sm"
                          variant="danger"
                          aria-label={`Delete ${l.name}`}
                          onClick={() => setDeleting(l)}
                        >
                          Delete
                        </Button>
                      </span>
                    ) : null
                : undefined
            }
            empty={
              <EmptyState
                title={search ? 'No library matches your search' : 'No libraries yet'}
                description={
                  search
                    ? 'Try another name, or clear the search.'
                    : canManage
                      ? 'Add a library, then upload the policies staff must read.'
                      : 'Libraries your organisation shares with you appear here.'
                }
                action={
                  search ? (
                    <Button size="sm" variant="secondary" onClick={filters.clear}>
                      Clear search
                    </Button>
                  ) : canManage ? (
                    <Button size="sm" onClick={() => setEditing(null)}>
                      Add a library
                    </Button>
                  ) : undefined
                }
              />
            }
          />
        )}
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(p) => filters.set({ page: String(p) })}
          label="Library pages"
        />
      </Card>
      <LibraryDialog library={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this library?"
        message={
          deleting?.document_count
            ? `${deleting.name} still holds ${documentCount(deleting.document_count)}: delete them first.`
            : `${deleting?.name ?? ''} will be deleted.`
        }
        onConfirm={async () => {
          if (deleting)
            await docAction(queryClient, () => deleteLibrary(deleting.id), DocumentMessages.libraryDeleted);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

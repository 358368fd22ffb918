import { type DocumentSummary, formatDate } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAddressFilters } from '../app/address-filters';
import { errorEnvelope, isNotFound, LoadError, LoadingCard } from '../entities/shared';
import {
  Badge,
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
import { DocumentMessages, deleteDocument, docAction, useLibrary, useLibraryDocuments } from './api';
import { DOCUMENT_STATUS } from './labels';
import { UploadDocumentDialog } from './UploadDocumentDialog';

/** `/libraries/{id}`: the library's documents with the person's own status; managers upload and delete. */
export default function LibraryPage() {
  const id = Number(useParams().id) || 0;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const library = useLibrary(id);
  const filters = useAddressFilters(['search']);
  const page = Number(filters.params.get('page')) || 1;
  const search = filters.params.get('search') || undefined;
  const documents = useLibraryDocuments(id, { page, search });
  const [uploading, setUploading] = useState(false);
  const [deleting, setDeleting] = useState<DocumentSummary | null>(null);
  const missing = id === 0 || isNotFound(library.error);
  useEffect(() => {
    if (missing) navigate('/404?resource=library', { replace: true });
  }, [missing, navigate]);

  if (library.isPending) return <LoadingCard label="Loading the library" />;
  if (!library.data)
    return (
      <LoadError
        error={library.error}
        fallback="The library could not be loaded."
        onRetry={library.refetch}
      />
    );
  const lib = library.data;
  const canManage = lib.can.manage;

  const columns: Column<DocumentSummary>[] = [
    {
      key: 'title',
      header: 'Document',
      render: (d) => (
        <span className="flex flex-col gap-1">
          <Link
            to={`/document/${d.id}`}
            className="focus-ring rounded font-medium text-primary-800 wrap-anywhere hover:underline"
          >
            {d.title}
          </Link>
          <span className="text-xs text-slate-600">
            Version {d.version} · updated {formatDate(d.updated_at)}
          </span>
          <span className="sm:hidden">
            <StatusBadge status={d.my_status} />
          </span>
        </span>
      ),
    },
    { key: 'version', header: 'Version', hideOnMobile: true, render: (d) => d.version },
    { key: 'updated', header: 'Updated', hideOnMobile: true, render: (d) => formatDate(d.updated_at) },
    {
      key: 'status',
      header: 'Your status',
      hideOnMobile: true,
      render: (d) => <StatusBadge status={d.my_status} />,
    },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title={lib.name}
        description={lib.description ?? `Shared by ${lib.entity.name}.`}
        breadcrumbs={[{ label: 'Libraries', to: '/libraries' }, { label: lib.name }]}
        actions={
          canManage ? <Button onClick={() => setUploading(true)}>Upload a document</Button> : undefined
        }
      />
      <Card padded={false} data-testid="library-documents">
        <div className="border-b border-slate-200 p-4">
          <SearchInput
            label="Search documents"
            placeholder="Document title"
            value={search ?? ''}
            onSearch={(value) => filters.set({ search: value })}
          />
        </div>
        {documents.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(documents.error, 'The documents could not be loaded.').message}
          </p>
        ) : (
          <DataTable
            caption={`Documents in ${lib.name}`}
            columns={columns}
            rows={documents.data?.data}
            rowKey={(d) => d.id}
            loading={documents.isLoading}
            rowActions={
              canManage
                ? (d) => (
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Delete ${d.title}`}
                      onClick={() => setDeleting(d)}
                    >
                      Delete
                    </Button>
                  )
                : undefined
            }
            empty={
              <EmptyState
                title={search ? 'No document matches your search' : 'No documents yet'}
                description={
                  search
                    ? 'Try another title, or clear the search.'
                    : canManage
                      ? 'Upload a policy or procedure, then choose the job roles who must read it.'
                      : 'Documents added to this library appear here.'
                }
                action={
                  search ? (
                    <Button size="sm" variant="secondary" onClick={filters.clear}>
                      Clear search
                    </Button>
                  ) : canManage ? (
                    <Button size="sm" onClick={() => setUploading(true)}>
                      Upload a document
                    </Button>
                  ) : undefined
                }
              />
            }
          />
        )}
        <CardPagination
          meta={documents.data?.meta}
          onPageChange={(p) => filters.set({ page: String(p) })}
          label="Document pages"
        />
      </Card>
      <UploadDocumentDialog libraryId={lib.id} open={uploading} onClose={() => setUploading(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this document?"
        message={`${deleting?.title ?? ''} and all its versions will be deleted. Staff will no longer be asked to read it.`}
        onConfirm={async () => {
          if (deleting)
            await docAction(queryClient, () => deleteDocument(deleting.id), DocumentMessages.documentDeleted);
        }}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

export function StatusBadge({ status }: { status: DocumentSummary['my_status'] }) {
  const s = DOCUMENT_STATUS[status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

import { type DocumentVersionView, formatDate, LibraryPerm } from '@cc/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { usePermission } from '../app/auth';
import { isNotFound, LoadError, LoadingCard } from '../entities/shared';
import { Button, Card, PageHeader } from '../ui';
import { AcknowledgementsCard } from './AcknowledgementsCard';
import { AcknowledgePanel } from './AcknowledgePanel';
import { type DocumentPageView, downloadVersion, useDocument } from './api';
import { fileSize } from './checks';
import { DocumentViewer } from './DocumentViewer';
import { StatusBadge } from './LibraryPage';
import { EditDocumentDialog, NewVersionDialog } from './ManageDialogs';
import { RequirementsCard } from './RequirementsCard';

/**
 * `/document/{id}`: the current version in the page with the acknowledgement beside it (below it on a phone), the
 * "what changed" note of a new version above, the history of versions; for managers the new version, edit, "who
 * must read this" and (136) "who has read it".
 */
export default function DocumentPage() {
  const id = Number(useParams().id) || 0;
  const navigate = useNavigate();
  // Someone asked to read a document may not browse the libraries (134): the breadcrumb then names, not links.
  const canBrowse = usePermission([LibraryPerm.view]);
  const query = useDocument(id);
  const [opened, setOpened] = useState(false);
  const markOpened = useCallback(() => setOpened(true), []);
  const [dialog, setDialog] = useState<'version' | 'edit' | null>(null);
  const missing = id === 0 || isNotFound(query.error);
  useEffect(() => {
    if (missing) navigate('/404?resource=document', { replace: true });
  }, [missing, navigate]);
  // A new version must be opened again before it is acknowledged.
  const currentNumber = query.data?.current.number;
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the current version changes
  useEffect(() => setOpened(false), [currentNumber]);

  if (query.isPending) return <LoadingCard label="Loading the document" />;
  if (!query.data)
    return (
      <LoadError error={query.error} fallback="The document could not be loaded." onRetry={query.refetch} />
    );
  const doc = query.data;

  return (
    <div className="space-y-6">
      <PageHeader
        title={doc.title}
        description={doc.description ?? undefined}
        breadcrumbs={
          canBrowse
            ? [
                { label: 'Libraries', to: '/libraries' },
                { label: doc.library.name, to: `/libraries/${doc.library.id}` },
                { label: doc.title },
              ]
            : [{ label: doc.library.name }, { label: doc.title }]
        }
        actions={
          doc.can.manage ? (
            <>
              <Button onClick={() => setDialog('version')}>Upload a new version</Button>
              <Button variant="secondary" onClick={() => setDialog('edit')}>
                Edit
              </Button>
            </>
          ) : undefined
        }
      />
      <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
        <StatusBadge status={doc.my_status} />
        <span>
          Version {doc.current.number}, {formatDate(doc.current.created_at)}
        </span>
      </p>
      <WhatChanged doc={doc} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <DocumentViewer documentId={doc.id} title={doc.title} version={doc.current} onOpened={markOpened} />
        </div>
        <div className="min-w-0 space-y-6">
          <AcknowledgePanel doc={doc} opened={opened} />
        </div>
      </div>
      <HistoryCard doc={doc} />
      {doc.can.manage ? <RequirementsCard doc={doc} /> : null}
      {doc.can.acknowledgements ? <AcknowledgementsCard documentId={doc.id} /> : null}
      {doc.can.manage ? (
        <>
          <NewVersionDialog doc={doc} open={dialog === 'version'} onClose={() => setDialog(null)} />
          <EditDocumentDialog doc={doc} open={dialog === 'edit'} onClose={() => setDialog(null)} />
        </>
      ) : null}
    </div>
  );
}

/** A later version's note: highlighted when the person must read it again. */
function WhatChanged({ doc }: { doc: DocumentPageView }) {
  const note = doc.current.change_note;
  if (doc.current.number < 2 || !note) return null;
  const again = doc.my_status === 'new_version';
  return (
    <section
      aria-label="What changed"
      data-testid="what-changed"
      className={
        again
          ? 'rounded-xl border border-warning-500 bg-warning-100 p-4 text-sm text-slate-900'
          : 'rounded-xl border border-slate-200 bg-white p-4 text-sm text-slate-800'
      }
    >
      <p className="font-semibold">
        {again
          ? `Version ${doc.current.number} is new: please read it again.`
          : `What changed in version ${doc.current.number}`}
      </p>
      <p className="mt-1 whitespace-pre-line wrap-anywhere">{note}</p>
    </section>
  );
}

/** Every version, newest first: number, date, who, what changed, and its file. */
function HistoryCard({ doc }: { doc: DocumentPageView }) {
  const versions = [...doc.versions].sort((a, b) => b.number - a.number);
  return (
    <Card title="History" padded={false} data-testid="history">
      <ol className="divide-y divide-slate-100" aria-label="Versions">
        {versions.map((v) => (
          <HistoryRow key={v.id} documentId={doc.id} version={v} current={v.number === doc.current.number} />
        ))}
      </ol>
    </Card>
  );
}

function HistoryRow({
  documentId,
  version: v,
  current,
}: {
  documentId: number;
  version: DocumentVersionView;
  current: boolean;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <li className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="font-medium text-slate-900">
          Version {v.number}
          {current ? ' (current)' : ''}
        </p>
        <p className="text-slate-600">
          {formatDate(v.created_at)}
          {v.created_by ? `, by ${v.created_by.name}` : ''} · {v.file_name}, {fileSize(v.size_bytes)}
        </p>
        {v.change_note ? (
          <p className="whitespace-pre-line text-slate-800 wrap-anywhere">{v.change_note}</p>
        ) : null}
      </div>
      <Button
        size="sm"
        variant="secondary"
        loading={busy}
        aria-label={`Download version ${v.number}`}
        onClick={async () => {
          setBusy(true);
          await downloadVersion(documentId, v);
          setBusy(false);
        }}
      >
        Download
      </Button>
    </li>
  );
}

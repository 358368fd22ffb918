import type { DocumentVersionView } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { errorEnvelope } from '../entities/shared';
import { Button, Card, Spinner } from '../ui';
import { docKeys, downloadVersion, fetchVersionFile } from './api';
import { fileSize } from './checks';

// pdf.js is large: loaded only when a PDF is shown.
const PdfViewer = lazy(() => import('./PdfViewer'));

/**
 * The current version in the page: a PDF drawn by pdf.js, an image as <img> from a blob: address, an office file as
 * a download button. Fetching the file is what records that the person opened it (the server's rule before an
 * acknowledgement), so `onOpened` tells the page when that has happened.
 */
export function DocumentViewer({
  documentId,
  title,
  version,
  onOpened,
}: {
  documentId: number;
  title: string;
  version: DocumentVersionView;
  onOpened: () => void;
}) {
  const inline = version.display === 'inline';
  const file = useQuery({
    // Outside ['documents']: a change elsewhere on the page must not fetch (and redraw) the same file again.
    queryKey: docKeys.file(documentId, version.number),
    enabled: inline,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 60_000,
    retry: false,
    queryFn: () => fetchVersionFile(documentId, version.number),
  });
  useEffect(() => {
    if (file.data) onOpened();
  }, [file.data, onOpened]);
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    if (await downloadVersion(documentId, version)) onOpened();
    setDownloading(false);
  };

  const downloadButton = (label: string) => (
    <Button variant="secondary" size="sm" loading={downloading} onClick={() => void download()}>
      {label}
    </Button>
  );
  return (
    <Card
      title={`Version ${version.number}`}
      actions={inline ? downloadButton('Download') : undefined}
      data-testid="document-viewer"
    >
      {!inline ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-sm text-slate-700">
            {version.file_name} ({fileSize(version.size_bytes)}) opens in your own application, such as Word
            or Excel.
          </p>
          <Button loading={downloading} onClick={() => void download()}>
            Download to read
          </Button>
        </div>
      ) : file.isError ? (
        <p role="alert" className="text-sm text-danger-800">
          {errorEnvelope(file.error, 'The document could not be opened.').message}
        </p>
      ) : !file.data ? (
        <Spinner label="Opening the document" />
      ) : version.mime_type === 'application/pdf' ? (
        <Suspense fallback={<Spinner label="Opening the document" />}>
          <PdfViewer data={file.data} title={title} fileName={version.file_name} />
        </Suspense>
      ) : (
        <BlobImage blob={file.data} alt={title} />
      )}
    </Card>
  );
}

/** An image from its bytes through a blob: address, released when it changes or leaves the page. */
function BlobImage({ blob, alt }: { blob: Blob; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(blob);
    setSrc(url);
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return src ? <img src={src} alt={alt} className="mx-auto block h-auto max-w-full" /> : null;
}

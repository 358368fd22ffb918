import type { PDFDocumentProxy } from 'pdfjs-dist';
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// The worker is bundled by Vite as a file of the app (same origin; no CDN, no eval).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages drawn at most this wide in CSS pixels (a readable column on a wide screen). */
const MAX_WIDTH = 900;

/**
 * A PDF drawn by pdf.js onto canvases, one per page, scrolled continuously: the file's bytes never become a page of
 * the app's origin, and pdf.js runs with `isEvalSupported: false` (no font code compiled from the file). Pages fit
 * the width of their column (375 px phones included) and are redrawn when it changes.
 */
export default function PdfViewer({ data, title }: { data: Blob; title: string }) {
  const frame = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const width = useWidth(frame);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setFailed(false);
    (async () => {
      try {
        const bytes = new Uint8Array(await data.arrayBuffer());
        const task = getDocument({ data: bytes, isEvalSupported: false, enableXfa: false });
        loaded = await task.promise;
        if (cancelled) void loaded.destroy();
        else setPdf(loaded);
      } catch {
        if (!cancelled) setFailed(true);
      }
    })();
    return () => {
      cancelled = true;
      void loaded?.destroy();
      setPdf(null);
    };
  }, [data]);

  if (failed)
    return (
      <p role="alert" className="p-4 text-sm text-danger-800">
        This PDF could not be shown here. Download it to read it.
      </p>
    );
  return (
    <div ref={frame} className="space-y-3" data-testid="pdf-viewer">
      {pdf ? (
        <>
          <p className="text-xs text-slate-600" aria-live="polite">
            {pdf.numPages === 1 ? '1 page.' : `${pdf.numPages} pages: scroll to read them all.`}
          </p>
          {pageNumbers(pdf.numPages).map((n) => (
            <PdfPage key={n} pdf={pdf} number={n} width={width} title={title} />
          ))}
        </>
      ) : (
        <p className="p-4 text-sm text-slate-600" role="status">
          Opening the document…
        </p>
      )}
    </div>
  );
}

const pageNumbers = (count: number) => Array.from({ length: count }, (_, i) => i + 1);

function PdfPage({
  pdf,
  number,
  width,
  title,
}: {
  pdf: PDFDocumentProxy;
  number: number;
  width: number;
  title: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!width) return;
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    (async () => {
      const page = await pdf.getPage(number);
      const el = canvas.current;
      if (cancelled || !el) return;
      const cssWidth = Math.min(width, MAX_WIDTH);
      const scale = cssWidth / page.getViewport({ scale: 1 }).width;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
      el.style.width = `${Math.floor(viewport.width / ratio)}px`;
      el.style.height = `${Math.floor(viewport.height / ratio)}px`;
      const context = el.getContext('2d');
      if (!context) return;
      const task = page.render({ canvasContext: context, viewport });
      cancelRender = () => task.cancel();
      await task.promise.catch(() => undefined);
    })();
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [pdf, number, width]);
  return (
    <canvas
      ref={canvas}
      className="mx-auto block max-w-full bg-white shadow ring-1 ring-slate-200"
      role="img"
      aria-label={`${title}, page ${number} of ${pdf.numPages}`}
      data-page={number}
    />
  );
}

/** The element's content width, kept up to date (rounded, so sub-pixel changes don't redraw every page). */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.round(el.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

import type { PDFDocumentProxy } from 'pdfjs-dist';
import { GlobalWorkerOptions, getDocument, TextLayer } from 'pdfjs-dist';
// The worker is bundled by Vite as a file of the app (same origin; no CDN, no eval).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../ui';
import { OpenInPdfApp } from './OpenInPdfApp';
import { canvasRatio, fitScale, MAX_ZOOM, MIN_ZOOM, zoomIn, zoomKey, zoomLabel, zoomOut } from './zoom';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages fitted at most this wide in CSS pixels (a readable column on a wide screen). */
const MAX_WIDTH = 900;

/**
 * A PDF drawn by pdf.js onto canvases, one per page, scrolled continuously: the file's bytes never become a page of
 * the app's origin, and pdf.js runs with `isEvalSupported: false` (no font code compiled from the file).
 *
 * Issue 31 §5 (a policy read on a 375 px phone): pages fit the width of their column by default and are redrawn
 * when it changes; Zoom in / Zoom out / Fit to width (buttons, and + - 0 in the document) draw them larger, and a
 * zoomed page scrolls sideways in its own region. Each page carries pdf.js's text layer, so its words can be
 * selected, found and read by a screen reader. Nothing here blocks the browser's own pinch zoom. In the mobile app,
 * "Open in your PDF app" hands the same bytes to the device's viewer (native/files.ts).
 */
export default function PdfViewer({
  data,
  title,
  fileName,
}: {
  data: Blob;
  title: string;
  fileName: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  /** null: fit to width; else the scale every page is drawn at. */
  const [zoom, setZoom] = useState<number | null>(null);
  /** The first page's width in points: what "Zoom in" steps from while the pages fit. */
  const [firstWidth, setFirstWidth] = useState(0);
  const width = useWidth(frame);

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    setFailed(false);
    setZoom(null);
    (async () => {
      try {
        const bytes = new Uint8Array(await data.arrayBuffer());
        const task = getDocument({ data: bytes, isEvalSupported: false, enableXfa: false });
        loaded = await task.promise;
        if (cancelled) {
          void loaded.destroy();
          return;
        }
        const first = await loaded.getPage(1);
        if (cancelled) return;
        setFirstWidth(first.getViewport({ scale: 1 }).width);
        setPdf(loaded);
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

  const scale = zoom ?? fitScale(firstWidth, width, MAX_WIDTH);
  const act = (action: 'in' | 'out' | 'fit') =>
    setZoom(action === 'fit' ? null : action === 'in' ? zoomIn(scale) : zoomOut(scale));

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
          <div className="flex flex-wrap items-center gap-2">
            {/* aria-disabled, not disabled: a button that stops taking focus would drop the keyboard user's place. */}
            <fieldset className="flex items-center gap-1" aria-label="Zoom">
              <Button
                variant="secondary"
                size="sm"
                aria-label="Zoom out"
                aria-keyshortcuts="-"
                aria-disabled={scale <= MIN_ZOOM + 0.01 || undefined}
                onClick={() => act('out')}
              >
                <span aria-hidden="true" className="text-lg leading-none">
                  −
                </span>
              </Button>
              <output
                className="min-w-12 text-center text-sm tabular-nums text-slate-700"
                aria-live="polite"
                data-testid="pdf-zoom"
              >
                {zoomLabel(scale)}
              </output>
              <Button
                variant="secondary"
                size="sm"
                aria-label="Zoom in"
                aria-keyshortcuts="+"
                aria-disabled={scale >= MAX_ZOOM - 0.01 || undefined}
                onClick={() => act('in')}
              >
                <span aria-hidden="true" className="text-lg leading-none">
                  +
                </span>
              </Button>
              <Button
                variant="secondary"
                size="sm"
                aria-keyshortcuts="0"
                aria-pressed={zoom === null}
                onClick={() => act('fit')}
              >
                Fit to width
              </Button>
            </fieldset>
            <OpenInPdfApp data={data} fileName={fileName} />
          </div>
          <p className="text-xs text-slate-600" aria-live="polite">
            {pdf.numPages === 1 ? '1 page.' : `${pdf.numPages} pages: scroll to read them all.`}
          </p>
          <section
            // Focusable so a keyboard can scroll a zoomed page sideways, and + - 0 zoom while reading.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe)
            tabIndex={0}
            aria-label={`${title} (${zoom === null ? 'fitted to the width' : `zoom ${zoomLabel(scale)}`})`}
            className="focus-ring -mx-1 overflow-x-auto rounded-md px-1 pb-1"
            data-testid="pdf-pages"
            onKeyDown={(e) => {
              const action = zoomKey(e);
              if (!action) return;
              e.preventDefault();
              act(action);
            }}
          >
            <div className="mx-auto w-max min-w-full space-y-3">
              {pageNumbers(pdf.numPages).map((n) => (
                <PdfPage key={n} pdf={pdf} number={n} width={width} zoom={zoom} title={title} />
              ))}
            </div>
          </section>
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
  zoom,
  title,
}: {
  pdf: PDFDocumentProxy;
  number: number;
  width: number;
  zoom: number | null;
  title: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!width) return;
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    let textLayer: TextLayer | null = null;
    (async () => {
      const page = await pdf.getPage(number);
      const el = canvas.current;
      const holder = box.current;
      const layer = text.current;
      if (cancelled || !el || !holder || !layer) return;
      const scale = zoom ?? fitScale(page.getViewport({ scale: 1 }).width, width, MAX_WIDTH);
      const cssViewport = page.getViewport({ scale });
      const cssWidth = Math.floor(cssViewport.width);
      const cssHeight = Math.floor(cssViewport.height);
      const ratio = canvasRatio(cssWidth, cssHeight, window.devicePixelRatio);
      const viewport = page.getViewport({ scale: scale * ratio });
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
      el.style.width = `${cssWidth}px`;
      el.style.height = `${cssHeight}px`;
      holder.style.width = `${cssWidth}px`;
      holder.style.height = `${cssHeight}px`;
      holder.style.setProperty('--scale-factor', String(scale));
      const context = el.getContext('2d');
      if (!context) return;
      const task = page.render({ canvasContext: context, viewport });
      cancelRender = () => task.cancel();
      // The words over the drawing, transparent: selectable, searchable, read by screen readers.
      layer.replaceChildren();
      textLayer = new TextLayer({
        textContentSource: page.streamTextContent(),
        container: layer,
        viewport: cssViewport,
      });
      await Promise.all([task.promise.catch(() => undefined), textLayer.render().catch(() => undefined)]);
    })();
    return () => {
      cancelled = true;
      cancelRender?.();
      textLayer?.cancel();
    };
  }, [pdf, number, width, zoom]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a page is a drawing and its words, not a set of form fields
    <div
      ref={box}
      role="group"
      aria-label={`${title}, page ${number} of ${pdf.numPages}`}
      className="relative mx-auto bg-white shadow ring-1 ring-slate-200"
      data-page={number}
    >
      <canvas ref={canvas} className="block" />
      <div ref={text} className="textLayer" />
    </div>
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

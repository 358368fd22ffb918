import type { PDFDocumentProxy } from 'pdfjs-dist';
import { GlobalWorkerOptions, getDocument, TextLayer } from 'pdfjs-dist';
// The worker is bundled by Vite as a file of the app (same origin; no CDN, no eval).
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../ui';
import { OpenInPdfApp } from './OpenInPdfApp';
import { canvasRatio, fitScale, MAX_ZOOM, MIN_ZOOM, zoomIn, zoomKey, zoomLabel, zoomOut } from './zoom';

GlobalWorkerOptions.workerSrc = workerUrl;

/** A page's size in PDF points (scale 1), read once when the file opens. */
interface PageSize {
  width: number;
  height: number;
}

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
  /**
   * Every page's size, known before any is drawn: the pages take their final height at once (the scroll position
   * holds while they draw), and a zoom keeps the reader's place (see `act`).
   */
  const [sizes, setSizes] = useState<PageSize[]>([]);
  /** Where the reader was when they zoomed: a page, how far down it, and how far across the page region. */
  const anchor = useRef<{ page: number; down: number; across: number } | null>(null);
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
        const doc = loaded;
        const measured = await Promise.all(
          pageNumbers(doc.numPages).map(async (n) => {
            const { width, height } = (await doc.getPage(n)).getViewport({ scale: 1 });
            return { width, height };
          }),
        );
        if (cancelled) return;
        setSizes(measured);
        setPdf(doc);
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

  const scale = zoom ?? fitScale(sizes[0]?.width ?? 0, width, MAX_WIDTH);
  const act = (action: 'in' | 'out' | 'fit') => {
    anchor.current = readingPlace(frame.current);
    setZoom(action === 'fit' ? null : action === 'in' ? zoomIn(scale) : zoomOut(scale));
  };
  // After a zoom the same line of the same page is back under the header, and the region as far across as it was.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the zoom changed the pages' size
  useLayoutEffect(() => {
    const place = anchor.current;
    anchor.current = null;
    if (place) restoreReadingPlace(frame.current, place);
  }, [zoom]);

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
                <PdfPage
                  key={n}
                  pdf={pdf}
                  number={n}
                  size={sizes[n - 1] ?? { width: 0, height: 0 }}
                  scale={zoom ?? fitScale(sizes[n - 1]?.width ?? 0, width, MAX_WIDTH)}
                  title={title}
                />
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
  size,
  scale,
  title,
}: {
  pdf: PDFDocumentProxy;
  number: number;
  size: PageSize;
  /** CSS pixels per PDF point: the fit of this page's width, or the zoom. */
  scale: number;
  title: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const cssWidth = Math.floor(size.width * scale);
  const cssHeight = Math.floor(size.height * scale);
  useEffect(() => {
    if (!scale) return;
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    let textLayer: TextLayer | null = null;
    (async () => {
      const page = await pdf.getPage(number);
      const el = canvas.current;
      const layer = text.current;
      if (cancelled || !el || !layer) return;
      const cssViewport = page.getViewport({ scale });
      const ratio = canvasRatio(cssViewport.width, cssViewport.height, window.devicePixelRatio);
      const viewport = page.getViewport({ scale: scale * ratio });
      // Until this draw ends the previous drawing is stretched to the new size (the canvas is sized by its CSS).
      const context = el.getContext('2d');
      if (!context) return;
      el.width = Math.floor(viewport.width);
      el.height = Math.floor(viewport.height);
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
  }, [pdf, number, scale]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a page is a drawing and its words, not a set of form fields
    <div
      role="group"
      aria-label={`${title}, page ${number} of ${pdf.numPages}`}
      className="relative mx-auto bg-white shadow ring-1 ring-slate-200"
      style={{ width: cssWidth, height: cssHeight, ['--scale-factor' as string]: scale }}
      data-page={number}
    >
      <canvas ref={canvas} className="block h-full w-full" />
      <div ref={text} className="textLayer" />
    </div>
  );
}

/** The line just under the app's sticky header (64 px) and a little space: where a reader's eyes are. */
const READING_LINE = 80;

/**
 * The page at the reading line, how far down it (0-1), and how far across the page region is scrolled (0-1). After
 * the zoom the same place is put back (restoreReadingPlace), so zooming in on page 12 stays on page 12.
 */
function readingPlace(root: HTMLElement | null) {
  if (!root) return null;
  const region = root.querySelector<HTMLElement>('[data-testid=pdf-pages]');
  const across =
    region && region.scrollWidth > region.clientWidth
      ? region.scrollLeft / (region.scrollWidth - region.clientWidth)
      : 0; // From a fitted page: the start of its lines.
  for (const page of root.querySelectorAll<HTMLElement>('[data-page]')) {
    const box = page.getBoundingClientRect();
    if (box.bottom <= READING_LINE) continue;
    // The document starts below the reading line: nothing to keep but the sideways place.
    if (box.top >= READING_LINE) return { page: 0, down: 0, across };
    return { page: Number(page.dataset.page), down: (READING_LINE - box.top) / box.height, across };
  }
  return { page: 0, down: 0, across };
}

function restoreReadingPlace(
  root: HTMLElement | null,
  place: { page: number; down: number; across: number },
) {
  if (!root) return;
  const region = root.querySelector<HTMLElement>('[data-testid=pdf-pages]');
  if (region && region.scrollWidth > region.clientWidth)
    region.scrollLeft = place.across * (region.scrollWidth - region.clientWidth);
  const page = place.page ? root.querySelector<HTMLElement>(`[data-page="${place.page}"]`) : null;
  if (!page) return;
  const box = page.getBoundingClientRect();
  window.scrollBy(0, box.top + place.down * box.height - READING_LINE);
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

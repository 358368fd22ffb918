/**
 * The PDF viewer's zoom (issue 31 §5): a page is drawn to fit the width of its column until the reader zooms; then
 * every page is drawn at one scale (1 = the PDF's own size, 72 points to 96 CSS pixels as pdf.js counts them).
 * Zooming steps through ZOOM_STEPS from the scale in view, so the first "Zoom in" from a phone's fit (about 0.6) is
 * the next step up, not a jump to a fixed size.
 */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1] as number;

/** The next step above `scale` (the largest when none is). */
export function zoomIn(scale: number): number {
  return ZOOM_STEPS.find((s) => s > scale + 0.01) ?? MAX_ZOOM;
}

/** The next step below `scale` (the smallest when none is). */
export function zoomOut(scale: number): number {
  return [...ZOOM_STEPS].reverse().find((s) => s < scale - 0.01) ?? MIN_ZOOM;
}

/** The scale that fits a page `pageWidth` points wide into `columnWidth` CSS pixels, at most `maxWidth` wide. */
export function fitScale(pageWidth: number, columnWidth: number, maxWidth: number): number {
  if (!(pageWidth > 0) || !(columnWidth > 0)) return 0;
  return Math.min(columnWidth, maxWidth) / pageWidth;
}

/** "60%": the scale in view, as a reader reads it. */
export const zoomLabel = (scale: number) => `${Math.round(scale * 100)}%`;

/**
 * The device pixels per CSS pixel of a page's canvas: the screen's ratio, lowered when the canvas would pass
 * `maxPixels` (a zoomed page on a 3x phone would ask for a canvas larger than mobile browsers draw, and go blank).
 */
export function canvasRatio(cssWidth: number, cssHeight: number, devicePixelRatio: number, maxPixels = 16e6) {
  const ratio = devicePixelRatio || 1;
  const area = cssWidth * cssHeight * ratio * ratio;
  return area > maxPixels ? Math.sqrt(maxPixels / (cssWidth * cssHeight)) : ratio;
}

/** The key a reader pressed in the viewer, as a zoom action: + and = zoom in, - zooms out, 0 fits the width. */
export function zoomKey(e: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }) {
  // Ctrl/Cmd with + and - is the browser's own zoom: left to it.
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  if (e.key === '+' || e.key === '=') return 'in' as const;
  if (e.key === '-' || e.key === '_') return 'out' as const;
  if (e.key === '0') return 'fit' as const;
  return null;
}

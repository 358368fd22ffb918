import { describe, expect, it } from 'vitest';
import { canvasRatio, fitScale, MAX_ZOOM, MIN_ZOOM, zoomIn, zoomKey, zoomLabel, zoomOut } from './zoom';

describe('PDF zoom (issue 31 §5)', () => {
  it('fits an A4 page to a 375 px phone column and to at most 900 px on a desktop', () => {
    // 343 px: a 375 px screen less the page's padding.
    expect(fitScale(595, 343, 900)).toBeCloseTo(0.576, 3);
    expect(fitScale(595, 1200, 900)).toBeCloseTo(900 / 595, 5);
    expect(fitScale(0, 343, 900)).toBe(0);
    expect(fitScale(595, 0, 900)).toBe(0);
  });

  it('zooms in and out by steps from the scale in view, within the limits', () => {
    expect(zoomIn(0.576)).toBe(0.75);
    expect(zoomIn(0.75)).toBe(1);
    expect(zoomIn(1.51)).toBe(2);
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOut(0.576)).toBe(0.5);
    expect(zoomOut(1)).toBe(0.75);
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM);
    expect(zoomLabel(0.576)).toBe('58%');
  });

  it('lowers the canvas resolution of a large zoomed page so a phone can still draw it', () => {
    expect(canvasRatio(343, 485, 3)).toBe(3);
    const ratio = canvasRatio(2380, 3368, 3);
    expect(ratio).toBeLessThan(3);
    expect(2380 * 3368 * ratio * ratio).toBeLessThanOrEqual(16e6 + 1);
    expect(canvasRatio(100, 100, 0)).toBe(1);
  });

  it('reads + = - and 0 as zoom keys, and leaves Ctrl/Cmd zoom to the browser', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
      zoomKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
    expect(key('+')).toBe('in');
    expect(key('=')).toBe('in');
    expect(key('-')).toBe('out');
    expect(key('0')).toBe('fit');
    expect(key('a')).toBeNull();
    expect(key('+', { ctrlKey: true })).toBeNull();
    expect(key('-', { metaKey: true })).toBeNull();
  });
});

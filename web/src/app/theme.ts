import { DEFAULT_WHITELABEL, THEME_CONTRAST_THRESHOLD, THEME_SHADES, type Whitelabel } from '@cc/contracts';

/**
 * White-label theme maths (spec 2 §3, §9): each colour yields nine shades 100–900 where 500 is the base,
 * lighter shades mixed towards white and darker ones towards black, and each shade gets a text colour chosen
 * by the 0.5 contrast threshold on its perceived brightness (YIQ, 0–1): brighter than 0.5 → dark text.
 */
export type Shade = (typeof THEME_SHADES)[number];
export const THEME_COLOURS = ['primary', 'secondary', 'accent', 'danger', 'warning', 'success'] as const;
export type ThemeColour = (typeof THEME_COLOURS)[number];

export const DARK_TEXT = '#111827';
export const LIGHT_TEXT = '#ffffff';

type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  let h = hex.trim().replace(/^#/, '');
  if (h.length === 3)
    h = h
      .split('')
      .map((c) => c + c)
      .join('');
  if (!/^[0-9a-fA-F]{6}$/.test(h)) throw new Error(`Not a hex colour: ${hex}`);
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function mix(a: Rgb, b: Rgb, weightOfB: number): Rgb {
  return [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * weightOfB) as Rgb;
}

/** How far each shade moves from the base: towards white (100–400) or black (600–900). */
const SHADE_MIX: Record<Shade, number> = {
  100: 0.8,
  200: 0.6,
  300: 0.4,
  400: 0.2,
  500: 0,
  600: 0.2,
  700: 0.4,
  800: 0.6,
  900: 0.8,
};

export function shades(base: string): Record<Shade, string> {
  const rgb = parseHex(base);
  const out = {} as Record<Shade, string>;
  for (const shade of THEME_SHADES) {
    const target: Rgb = shade < 500 ? [255, 255, 255] : [0, 0, 0];
    out[shade] = shade === 500 ? toHex(rgb) : toHex(mix(rgb, target, SHADE_MIX[shade]));
  }
  return out;
}

/** Perceived brightness 0–1 (YIQ weights). */
export function brightness(hex: string): number {
  const [r, g, b] = parseHex(hex);
  return (r * 299 + g * 587 + b * 114) / 1000 / 255;
}

export function textColourFor(hex: string): string {
  return brightness(hex) > THEME_CONTRAST_THRESHOLD ? DARK_TEXT : LIGHT_TEXT;
}

/** The CSS variables for a white-label: --cc-<colour>-<shade> and --cc-<colour>-<shade>-text. */
export function themeVariables(wl: Partial<Pick<Whitelabel, ThemeColour>>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const colour of THEME_COLOURS) {
    const base = safeColour(wl[colour], DEFAULT_WHITELABEL[colour]);
    const scale = shades(base);
    for (const shade of THEME_SHADES) {
      vars[`--cc-${colour}-${shade}`] = scale[shade];
      vars[`--cc-${colour}-${shade}-text`] = textColourFor(scale[shade]);
    }
  }
  return vars;
}

function safeColour(value: string | undefined | null, fallback: string): string {
  if (!value) return fallback;
  try {
    parseHex(value);
    return value;
  } catch {
    return fallback;
  }
}

/** Written on :root, where Tailwind's theme (index.css) reads them. */
export function applyThemeVariables(
  vars: Record<string, string>,
  root: HTMLElement = document.documentElement,
) {
  for (const [name, value] of Object.entries(vars)) root.style.setProperty(name, value);
}

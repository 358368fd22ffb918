/**
 * Fast text for big streamed PDFs (the matrix: a date in each of ~1.5M cells). pdfkit's `doc.text` lays every string
 * out (line breaking, word cache, a q/cm/BT/Tm/Tf/TJ/ET/Q block each): tens of µs a call, over a minute for a big
 * matrix. PageText collects the page's text runs in PDF's standard fonts (Helvetica: Windows-1252 text) as raw
 * operators and writes them as ONE text object per page (`flush`), about 1 µs a run. Text the standard fonts cannot
 * encode is refused (`add` returns false) so the caller draws it with doc.text and the embedded font (fonts.ts).
 *
 * Coordinates are pdfkit's (origin top left, y down); `y` is the top of the text box, as in doc.text.
 */

/** The parts of pdfkit's document and font objects PageText reads (pdfkit 0.x internals, stable for years). */
interface PdfFont {
  id: string;
  ascender: number;
  ref(): unknown;
  widthOfString(text: string, size: number): number;
}
interface PdfDoc {
  font(name: string): unknown;
  addContent(data: string): unknown;
  page: { height: number; fonts: Record<string, unknown> };
}

export interface RunStyle {
  /** A standard font name (STANDARD_FONT in fonts.ts). */
  font: string;
  size: number;
  /** '#rrggbb' */
  colour?: string;
  /** Degrees, counter-clockwise as the reader sees it (60: rising to the right). */
  angle?: number;
}

// Windows-1252 as PDF's standard fonts encode it: ASCII and Latin-1's upper half map to themselves.
const ENCODABLE = /^[\x20-\x7e\xa0-\xff]*$/;

/** A PDF literal string of Windows-1252 text: the markup bytes escaped, the upper half as octal escapes. */
export function literal(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 41 || c === 92) out += `\\${text[i]}`;
    else if (c > 126) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += text[i];
  }
  return `(${out})`;
}

const num = (n: number) => (Math.round(n * 100) / 100).toString();

function rgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `${num(((n >> 16) & 255) / 255)} ${num(((n >> 8) & 255) / 255)} ${num((n & 255) / 255)} rg`;
}

export class PageText {
  private ops: string[] = [];
  private fonts = new Map<string, PdfFont>();
  private used = new Set<string>();
  private current = '';
  private colour = '';
  /** Where the text line matrix stands (Td moves from it); false after a rotated run (Tm sets it again). */
  private lx = 0;
  private ly = 0;
  private upright = true;

  constructor(private readonly doc: PdfDoc) {}

  /** The standard font object of `name` (pdfkit makes it once per document). */
  fontOf(name: string): PdfFont {
    let f = this.fonts.get(name);
    if (!f) {
      this.doc.font(name);
      f = (this.doc as unknown as { _font: PdfFont })._font;
      this.fonts.set(name, f);
    }
    return f;
  }

  /** Whether the standard fonts can write this text. */
  static encodable(text: string): boolean {
    return ENCODABLE.test(text);
  }

  widthOf(text: string, font: string, size: number): number {
    return this.fontOf(font).widthOfString(text, size);
  }

  /** `text` shortened with an ellipsis to fit `width` (standard-font text). */
  fitWidth(text: string, font: string, size: number, width: number): string {
    if (this.widthOf(text, font, size) <= width) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.widthOf(`${text.slice(0, mid).trimEnd()}…`, font, size) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${text.slice(0, lo).trimEnd()}…`;
  }

  /** Queues `text` at (x, y); false (nothing queued) when the standard fonts cannot encode it. */
  add(text: string, x: number, y: number, style: RunStyle): boolean {
    if (!ENCODABLE.test(text)) return false;
    if (!text) return true;
    this.addLiteral(literal(text), x, y, style);
    return true;
  }

  /**
   * Queues a literal made by `literal()` (the caller caches it: a matrix repeats a few thousand dates). Upright runs
   * move with relative Td (short operators: less to write and to deflate per cell).
   */
  addLiteral(lit: string, x: number, y: number, style: RunStyle): void {
    const f = this.fontOf(style.font);
    this.used.add(style.font);
    const key = `/${f.id} ${num(style.size)} Tf`;
    if (key !== this.current) {
      this.ops.push(key);
      this.current = key;
    }
    const colour = style.colour ?? '#111827';
    if (colour !== this.colour) {
      this.ops.push(rgb(colour));
      this.colour = colour;
    }
    // The baseline is the ascender below the box's top; PDF's own y runs up from the bottom.
    const ascent = (f.ascender / 1000) * style.size;
    const h = this.doc.page.height;
    if (style.angle) {
      const a = (style.angle * Math.PI) / 180;
      const cos = Math.cos(a);
      const sin = Math.sin(a);
      // The box's top-left corner is (x, y); the baseline starts `ascent` below it, across the rotated line.
      const bx = x + ascent * sin;
      const by = h - y - ascent * cos;
      this.ops.push(`${num(cos)} ${num(sin)} ${num(-sin)} ${num(cos)} ${num(bx)} ${num(by)} Tm ${lit} Tj`);
      this.upright = false;
      return;
    }
    const bx = Math.round(x * 100) / 100;
    const by = Math.round((h - y - ascent) * 100) / 100;
    if (this.upright) this.ops.push(`${num(bx - this.lx)} ${num(by - this.ly)} Td ${lit} Tj`);
    else this.ops.push(`1 0 0 1 ${num(bx)} ${num(by)} Tm ${lit} Tj`);
    this.upright = true;
    this.lx = bx;
    this.ly = by;
  }

  /** Writes the queued runs to the current page as one text object (call before the page ends). */
  flush(): void {
    if (!this.ops.length) return;
    for (const name of this.used) {
      const f = this.fontOf(name);
      this.doc.page.fonts[f.id] ??= f.ref();
    }
    // pdfkit's pages draw with y flipped (1 0 0 -1 0 h cm); text is set in PDF's own orientation inside q … Q.
    this.doc.addContent(`q 1 0 0 -1 0 ${num(this.doc.page.height)} cm BT ${this.ops.join('\n')} ET Q`);
    this.ops = [];
    this.used.clear();
    this.current = '';
    this.colour = '';
    this.lx = 0;
    this.ly = 0;
    this.upright = true;
  }
}

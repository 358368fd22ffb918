/**
 * One date format everywhere a user reads a date (pages, PDFs, XLSX): the organisation's choice, DD/MM/YYYY
 * unless it chose otherwise. Dates are shown in UK time, where the product's users are; a calendar date
 * ('2026-11-25', no time) is shown as that day whatever the zone.
 */
export const DATE_FORMATS = ['DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DEFAULT_DATE_FORMAT: DateFormat = 'DD/MM/YYYY';
export const DISPLAY_TIME_ZONE = 'Europe/London';

let currentFormat: DateFormat = DEFAULT_DATE_FORMAT;

/** The web app sets the signed-in organisation's format once its white-label settings arrive. */
export function setDateFormat(format: DateFormat | null | undefined): void {
  currentFormat =
    format && (DATE_FORMATS as readonly string[]).includes(format) ? format : DEFAULT_DATE_FORMAT;
}
export const dateFormat = (): DateFormat => currentFormat;

type DateInput = string | Date | null | undefined;
const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

interface DayParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
}

const zoned = new Intl.DateTimeFormat('en-GB', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function partsOf(value: DateInput): DayParts | null {
  if (value == null || value === '') return null;
  if (typeof value === 'string') {
    const day = CALENDAR_DAY.exec(value);
    if (day) return { year: day[1] ?? '', month: day[2] ?? '', day: day[3] ?? '', hour: '00', minute: '00' };
  }
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const parts = Object.fromEntries(zoned.formatToParts(date).map((p) => [p.type, p.value]));
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute };
}

function dayText(p: DayParts, format: DateFormat): string {
  if (format === 'MM/DD/YYYY') return `${p.month}/${p.day}/${p.year}`;
  if (format === 'YYYY-MM-DD') return `${p.year}-${p.month}-${p.day}`;
  return `${p.day}/${p.month}/${p.year}`;
}

/** '25/11/2026'; `fallback` (default '') for no date or an unreadable one. */
export function formatDate(value: DateInput, format: DateFormat = currentFormat, fallback = ''): string {
  const p = partsOf(value);
  return p ? dayText(p, format) : fallback;
}

/** '25/11/2026 14:05' (24-hour clock, UK time). */
export function formatDateTime(value: DateInput, format: DateFormat = currentFormat, fallback = ''): string {
  const p = partsOf(value);
  return p ? `${dayText(p, format)} ${p.hour}:${p.minute}` : fallback;
}

const dayOnly = new Intl.DateTimeFormat('en-CA', {
  timeZone: DISPLAY_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * The UK calendar day of an instant ('2026-11-25'): "today" for an organisation is calendarDay(the server's clock).
 * Calendar dates the product stores (a completed date, a session's day) compare with it as strings.
 */
export function calendarDay(at: Date): string {
  return dayOnly.format(at);
}

/** `at` moved by whole calendar months (UTC), the day kept or clamped to the month's last: 31 January + 1 month is the
 * last day of February, not 3 March; 31 March - 1 month likewise. */
export function plusMonths(at: Date, months: number): Date {
  const d = new Date(at.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

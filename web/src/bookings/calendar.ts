import type { TrainingSessionView } from '@cc/contracts';

/**
 * Calendar arithmetic on ISO calendar days ('2026-11-25'), done in UTC so no time zone or summer-time change can
 * shift a day. Weeks start on Monday (UK).
 */

export type CalendarView = 'month' | 'week';

const toDate = (iso: string) => new Date(`${iso}T00:00:00Z`);
const toIso = (d: Date) => d.toISOString().slice(0, 10);

export function addDays(iso: string, n: number): string {
  const d = toDate(iso);
  d.setUTCDate(d.getUTCDate() + n);
  return toIso(d);
}

export function addMonths(iso: string, n: number): string {
  const d = toDate(iso);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  return toIso(target);
}

/** The Monday on or before the day. */
export function startOfWeek(iso: string): string {
  const day = toDate(iso).getUTCDay(); // 0 = Sunday
  return addDays(iso, -((day + 6) % 7));
}

export const startOfMonth = (iso: string) => `${iso.slice(0, 7)}-01`;

/** The days shown: 7 for a week; whole weeks covering the month (5 or 6 rows) for a month. */
export function visibleDays(anchor: string, view: CalendarView): string[] {
  if (view === 'week') {
    const start = startOfWeek(anchor);
    return Array.from({ length: 7 }, (_, i) => addDays(start, i));
  }
  const first = startOfMonth(anchor);
  const last = addDays(addMonths(first, 1), -1);
  const start = startOfWeek(first);
  const days: string[] = [];
  for (let d = start; d <= last || days.length % 7 !== 0; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Where `previous`/`next` go. */
export function step(anchor: string, view: CalendarView, dir: 1 | -1): string {
  return view === 'week' ? addDays(startOfWeek(anchor), 7 * dir) : addMonths(anchor, dir);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const monthName = (iso: string) => MONTHS[Number(iso.slice(5, 7)) - 1] ?? '';

/** "November 2026" or "Week of 23 November 2026". */
export function periodTitle(anchor: string, view: CalendarView): string {
  if (view === 'month') return `${monthName(anchor)} ${anchor.slice(0, 4)}`;
  const start = startOfWeek(anchor);
  return `Week of ${Number(start.slice(8, 10))} ${monthName(start)} ${start.slice(0, 4)}`;
}

/** "Wednesday 25 November 2026": the accessible name of a day. */
export function dayName(iso: string): string {
  const weekday = WEEKDAYS[(toDate(iso).getUTCDay() + 6) % 7];
  return `${weekday} ${Number(iso.slice(8, 10))} ${monthName(iso)} ${iso.slice(0, 4)}`;
}

export interface CalendarEntry {
  session: TrainingSessionView;
  startTime: string;
  endTime: string;
  /** 1-based day of a multi-day session, with the count. */
  day: number;
  days: number;
}

/** Each session's days placed on their dates, earliest start first. */
export function entriesByDay(sessions: TrainingSessionView[]): Map<string, CalendarEntry[]> {
  const map = new Map<string, CalendarEntry[]>();
  for (const session of sessions) {
    const dates = session.dates?.length
      ? session.dates
      : [{ date: session.date, startTime: session.startTime, endTime: session.endTime }];
    dates.forEach((d, i) => {
      const list = map.get(d.date) ?? [];
      list.push({ session, startTime: d.startTime, endTime: d.endTime, day: i + 1, days: dates.length });
      map.set(d.date, list);
    });
  }
  for (const list of map.values()) list.sort((a, b) => a.startTime.localeCompare(b.startTime));
  return map;
}

/** Today in the UK as an ISO day. */
export function todayIso(now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/London',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return parts;
}

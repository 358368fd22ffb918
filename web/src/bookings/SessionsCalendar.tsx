import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Badge, Button, ButtonLink, Card, cx, EmptyState } from '../ui';
import { useSessions } from './api';
import {
  type CalendarEntry,
  type CalendarView,
  dayName,
  entriesByDay,
  periodTitle,
  step,
  todayIso,
  visibleDays,
  WEEKDAYS,
} from './calendar';
import { hhmm, SESSION_STATUS, sessionWhere } from './labels';
import type { FiltersState } from './SessionsList';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The sessions on a month or week calendar (`?cal=month|week&d=2026-11-25`). Each session day is a link to the
 * session. Keyboard: Tab reaches the controls and the sessions; inside the grid the arrow keys move between days
 * (Home/End: the week's ends) and Enter goes to the day's first session. Below 640 px the days with sessions show as
 * a list (a seven-column grid is unreadable at 375 px).
 */
export function SessionsCalendar({ filters, canCreate }: { filters: FiltersState; canCreate: boolean }) {
  const [params, setParams] = useSearchParams();
  const view: CalendarView = params.get('cal') === 'week' ? 'week' : 'month';
  const today = todayIso();
  const raw = params.get('d') ?? '';
  const anchor = ISO_DAY.test(raw) ? raw : today;
  const days = useMemo(() => visibleDays(anchor, view), [anchor, view]);
  const from = days[0] ?? anchor;
  const to = days[days.length - 1] ?? anchor;
  const { page: _page, from: _from, to: _to, ...rest } = filters.query;
  const list = useSessions({ ...rest, from, to, per_page: 100 });
  const byDay = useMemo(() => entriesByDay(list.data?.data ?? []), [list.data]);
  const go = (patch: Record<string, string>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) next.set(k, v);
        return next;
      },
      { replace: true },
    );
  const title = periodTitle(anchor, view);
  const month = anchor.slice(0, 7);
  // The list (narrow screens) keeps to the month itself; the grid also shows the edges of the weeks around it.
  const listed = view === 'month' ? days.filter((d) => d.startsWith(anchor.slice(0, 7))) : days;
  const anyInView = listed.some((d) => byDay.has(d));

  return (
    <Card padded={false} aria-label={`Calendar, ${title}`}>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-4">
        <h2 className="text-base font-semibold text-slate-900" aria-live="polite">
          {title}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <fieldset className="inline-flex rounded-lg ring-1 ring-slate-300">
            <legend className="sr-only">Calendar view</legend>
            {(['month', 'week'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => go({ cal: v })}
                className={cx(
                  'focus-ring h-9 px-3 text-sm font-medium',
                  v === 'month' ? 'rounded-l-lg' : 'rounded-r-lg',
                  view === v
                    ? 'bg-primary-700 text-on-primary-700'
                    : 'bg-white text-slate-700 hover:bg-slate-50',
                )}
              >
                {v === 'month' ? 'Month' : 'Week'}
              </button>
            ))}
          </fieldset>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => go({ d: step(anchor, view, -1) })}
            aria-label={view === 'month' ? 'Previous month' : 'Previous week'}
          >
            Previous
          </Button>
          <Button variant="secondary" size="sm" onClick={() => go({ d: today })}>
            Today
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => go({ d: step(anchor, view, 1) })}
            aria-label={view === 'month' ? 'Next month' : 'Next week'}
          >
            Next
          </Button>
        </div>
      </div>
      {list.isLoading ? (
        <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label="Loading sessions">
          {[0, 1, 2].map((i) => (
            <div key={i} className="cc-skeleton h-4 w-2/3 rounded bg-slate-200" />
          ))}
        </div>
      ) : (
        <>
          <CalendarGrid days={days} byDay={byDay} view={view} month={month} today={today} />
          <div className="sm:hidden">
            {anyInView ? (
              <ol className="divide-y divide-slate-100" aria-label={`Sessions, ${title}`}>
                {listed
                  .filter((d) => byDay.has(d))
                  .map((d) => (
                    <li key={d} className="px-4 py-3">
                      <h3
                        className={cx(
                          'text-sm font-semibold',
                          d === today ? 'text-primary-800' : 'text-slate-900',
                        )}
                      >
                        {dayName(d)}
                        {d === today ? ' (today)' : ''}
                      </h3>
                      <ul className="mt-2 space-y-2">
                        {byDay.get(d)?.map((e) => (
                          <li key={`${e.session.id}-${e.day}`}>
                            <EntryLink entry={e} />
                          </li>
                        ))}
                      </ul>
                    </li>
                  ))}
              </ol>
            ) : null}
          </div>
          {!anyInView ? (
            <div className="sm:hidden">
              <EmptyState
                title={view === 'month' ? 'No sessions this month' : 'No sessions this week'}
                description={canCreate ? 'Create one, or move to another period.' : 'Move to another period.'}
                action={
                  canCreate ? <ButtonLink to="/manage-bookings/new">New session</ButtonLink> : undefined
                }
              />
            </div>
          ) : null}
          {!anyInView && view === 'week' ? (
            <p className="hidden border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:block">
              No sessions this week.
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}

function EntryLink({ entry, compact = false }: { entry: CalendarEntry; compact?: boolean }) {
  const s = entry.session;
  const status = SESSION_STATUS[s.status];
  const cancelled = s.status === 'cancelled';
  return (
    <Link
      to={`/manage-bookings/${s.id}`}
      className={cx(
        'focus-ring block rounded-md border-l-4 px-2 py-1 text-xs hover:bg-primary-100',
        cancelled
          ? 'border-danger-600 bg-danger-100/40 text-slate-600 line-through'
          : 'border-primary-700 bg-primary-100/50 text-slate-900',
      )}
    >
      <span className="font-semibold">{hhmm(entry.startTime)}</span> {s.content.title}
      {entry.days > 1 ? (
        <span className="text-slate-600">
          {' '}
          (day {entry.day} of {entry.days})
        </span>
      ) : null}
      {compact ? (
        cancelled ? (
          <span className="sr-only"> ({status.label})</span>
        ) : null
      ) : (
        <span className="mt-0.5 flex flex-wrap items-center gap-1 text-slate-600 no-underline">
          {hhmm(entry.startTime)}–{hhmm(entry.endTime)} · {sessionWhere(s)} · {s.places_free} free
          <Badge tone={status.tone}>{status.label}</Badge>
        </span>
      )}
    </Link>
  );
}

function CalendarGrid({
  days,
  byDay,
  view,
  month,
  today,
}: {
  days: string[];
  byDay: Map<string, CalendarEntry[]>;
  view: CalendarView;
  month: string;
  today: string;
}) {
  const [focused, setFocused] = useState<string>(() => (days.includes(today) ? today : (days[0] ?? today)));
  const cells = useRef(new Map<string, HTMLTableCellElement>());
  const moved = useRef(false);
  useEffect(() => {
    if (!days.includes(focused)) setFocused(days.includes(today) ? today : (days[0] ?? today));
  }, [days, focused, today]);
  useEffect(() => {
    if (moved.current) cells.current.get(focused)?.focus();
    moved.current = false;
  }, [focused]);
  const onKey = (e: React.KeyboardEvent, day: string) => {
    if (e.target !== e.currentTarget) return;
    const i = days.indexOf(day);
    const col = i % 7;
    const delta: Record<string, number> = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -7,
      ArrowDown: 7,
      Home: -col,
      End: 6 - col,
    };
    if (e.key === 'Enter') {
      const link = cells.current.get(day)?.querySelector('a');
      if (link) {
        e.preventDefault();
        link.focus();
      }
      return;
    }
    const d = delta[e.key];
    if (d === undefined) return;
    e.preventDefault();
    const next = days[Math.min(days.length - 1, Math.max(0, i + d))];
    if (next) {
      moved.current = true;
      setFocused(next);
    }
  };
  const weeks = Array.from({ length: days.length / 7 }, (_, w) => days.slice(w * 7, w * 7 + 7));
  return (
    <div className="hidden sm:block">
      <table className="w-full table-fixed border-collapse text-sm" aria-label="Sessions by day">
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th
                key={d}
                scope="col"
                className="border-b border-slate-200 px-2 py-2 text-left text-xs font-semibold text-slate-600"
              >
                <span aria-hidden="true">{d.slice(0, 3)}</span>
                <span className="sr-only">{d}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((day) => {
                const entries = byDay.get(day) ?? [];
                const outside = view === 'month' && !day.startsWith(month);
                return (
                  <td
                    key={day}
                    ref={(el) => {
                      if (el) cells.current.set(day, el);
                      else cells.current.delete(day);
                    }}
                    tabIndex={focused === day ? 0 : -1}
                    onKeyDown={(e) => onKey(e, day)}
                    onFocus={(e) => {
                      if (e.target === e.currentTarget) setFocused(day);
                    }}
                    aria-label={`${dayName(day)}${entries.length ? `, ${entries.length} ${entries.length === 1 ? 'session' : 'sessions'}` : ', no sessions'}`}
                    className={cx(
                      'focus-ring border border-slate-100 p-1.5 align-top',
                      view === 'month' ? 'h-28' : 'h-48',
                      outside ? 'bg-slate-50 text-slate-500' : 'bg-white',
                    )}
                  >
                    <span
                      className={cx(
                        'mb-1 inline-flex h-6 min-w-6 items-center justify-center rounded-full px-1 text-xs font-semibold',
                        day === today
                          ? 'bg-primary-700 text-on-primary-700'
                          : outside
                            ? 'text-slate-500'
                            : 'text-slate-700',
                      )}
                      aria-hidden="true"
                    >
                      {Number(day.slice(8, 10))}
                    </span>
                    <ul className="space-y-1">
                      {entries.map((e) => (
                        <li key={`${e.session.id}-${e.day}`}>
                          <EntryLink entry={e} compact={view === 'month'} />
                        </li>
                      ))}
                    </ul>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { formatDateTime, type Notification } from '@cc/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../ui';
import { useNotificationActions, useNotifications } from './api';

/**
 * The header's bell (issue 14): the unread count, and a panel of the caller's notifications, newest first, each
 * with its link (opening it marks it read), mark read / unread, and dismiss (asked first: a dismissed one is gone
 * from the panel).
 */
export function NotificationBell() {
  const query = useNotifications(true);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // A plain disclosure (not a headless popover, whose focus sentinels are aria-hidden yet focusable): closes on
  // Escape (focus back on the bell) and on a click outside.
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const unread = query.data?.unread_count ?? 0;
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <div className="relative" ref={root}>
      <button
        ref={button}
        type="button"
        data-testid="notification-bell"
        aria-label={label}
        title={label}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((v) => !v)}
        className="focus-ring relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" aria-hidden="true" fill="none">
          <path
            d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10.3 20a1.94 1.94 0 0 0 3.4 0"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        {unread ? (
          <span
            data-testid="notification-count"
            className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-danger-700 px-1 text-xs font-semibold text-on-danger-700"
            aria-hidden="true"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <section
          id={panelId}
          aria-label="Notifications"
          data-testid="notification-panel"
          className="fixed inset-x-2 top-16 z-50 flex max-h-[70vh] flex-col rounded-xl bg-white shadow-lg ring-1 ring-slate-200 sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-2 sm:w-96"
        >
          <Panel query={query} close={() => setOpen(false)} />
        </section>
      ) : null}
    </div>
  );
}

function Panel({ query, close }: { query: ReturnType<typeof useNotifications>; close: () => void }) {
  const { readAll } = useNotificationActions();
  const items = query.data?.data ?? [];
  return (
    <>
      <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
        <div className="flex items-center gap-1">
          {query.data?.unread_count ? (
            <button
              type="button"
              className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-primary-700 hover:bg-slate-100"
              onClick={() => readAll.mutate()}
              disabled={readAll.isPending}
            >
              Mark all read
            </button>
          ) : null}
          <Link
            to="/account/notifications"
            onClick={() => close()}
            className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
          >
            Settings
          </Link>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending ? (
          <div className="flex items-center gap-2 px-4 py-6 text-sm text-slate-600">
            <Spinner /> Loading notifications…
          </div>
        ) : query.isError ? (
          <p className="px-4 py-6 text-sm text-danger-700" role="alert">
            The notifications could not be loaded. {query.error.message}
          </p>
        ) : items.length === 0 ? (
          <p className="px-4 py-6 text-sm text-slate-600">
            No notifications. Reminders before your training expires appear here.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {items.map((n) => (
              <NotificationItem key={n.id} n={n} close={close} />
            ))}
          </ul>
        )}
      </div>
    </>
  );
}

function NotificationItem({ n, close }: { n: Notification; close: () => void }) {
  const { setRead, dismiss } = useNotificationActions();
  const [confirming, setConfirming] = useState(false);
  return (
    <li className={n.read ? 'px-4 py-3' : 'bg-slate-50 px-4 py-3'} data-testid="notification">
      <div className="flex items-start gap-2">
        {n.read ? null : (
          <span className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-primary-700" aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <Link
            to={n.link}
            onClick={() => {
              if (!n.read) setRead.mutate({ id: n.id, read: true });
              close();
            }}
            className="focus-ring block rounded text-sm font-medium text-slate-900 hover:underline"
          >
            {n.title}
            {n.read ? null : <span className="sr-only"> (unread)</span>}
          </Link>
          <p className="mt-0.5 line-clamp-3 whitespace-pre-line text-xs text-slate-600">{n.body}</p>
          <p className="mt-1 text-xs text-slate-500">{formatDateTime(n.created_at)}</p>
        </div>
      </div>
      <div className="mt-2 flex flex-wrap justify-end gap-1">
        {confirming ? (
          <>
            <span className="self-center text-xs text-slate-700">Dismiss this notification?</span>
            <button
              type="button"
              className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-danger-700 hover:bg-slate-100"
              onClick={() => dismiss.mutate(n.id)}
              disabled={dismiss.isPending}
            >
              Dismiss
            </button>
            <button
              type="button"
              className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"
              onClick={() => setConfirming(false)}
            >
              Keep
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"
              onClick={() => setRead.mutate({ id: n.id, read: !n.read })}
              disabled={setRead.isPending}
            >
              {n.read ? 'Mark unread' : 'Mark read'}
            </button>
            <button
              type="button"
              className="focus-ring rounded-md px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-100"
              onClick={() => setConfirming(true)}
              aria-label={`Dismiss “${n.title}”`}
            >
              Dismiss…
            </button>
          </>
        )}
      </div>
      {setRead.isError || dismiss.isError ? (
        <p className="mt-1 text-xs text-danger-700" role="alert">
          {(setRead.error ?? dismiss.error)?.message ?? 'That did not work.'}
        </p>
      ) : null}
    </li>
  );
}

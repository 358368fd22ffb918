import { type Notification, notificationsStore, removeNotification } from './notifications';
import { useStore } from './store';

const TONE: Record<Notification['type'], string> = {
  success: 'border-success-500 bg-white',
  info: 'border-primary-500 bg-white',
  warning: 'border-warning-500 bg-white',
  error: 'border-danger-600 bg-white',
};

/** The notification region: announced politely to screen readers, each notice dismissible. */
export function Toasts() {
  const notifications = useStore(notificationsStore);
  return (
    <section
      aria-live="polite"
      aria-label="Notifications"
      className="pointer-events-none fixed right-0 bottom-0 z-[300] flex w-full max-w-sm flex-col gap-2 p-4"
    >
      {notifications.map((n) => (
        <div
          key={n.id}
          role={n.type === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border-l-4 px-4 py-3 text-sm text-slate-800 shadow-lg ring-1 ring-slate-200 ${TONE[n.type]}`}
        >
          <p className="flex-1 whitespace-pre-line break-words">{n.message}</p>
          <button
            type="button"
            onClick={() => removeNotification(n.id)}
            className="focus-ring -m-1 rounded p-1 text-slate-500 hover:text-slate-800"
            aria-label="Dismiss notification"
          >
            <svg viewBox="0 0 20 20" className="h-4 w-4" aria-hidden="true">
              <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      ))}
    </section>
  );
}

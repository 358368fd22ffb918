import { Link } from 'react-router';
import { useActiveTaskCount } from './api';

/**
 * The header's count of the user's running tasks (issue 18), linking to /tasks-in-progress. It polls slowly (15 s)
 * and faster while something runs; `taskStarted()` refreshes it the moment the app starts a job.
 */
export function TasksBadge({ enabled = true }: { enabled?: boolean }) {
  const { data } = useActiveTaskCount(enabled);
  const count = data ?? 0;
  return (
    <Link
      to="/tasks-in-progress"
      className="focus-ring relative rounded-full p-2 text-slate-600 hover:bg-slate-100"
      aria-label={`Tasks in progress: ${count}`}
      title={`Tasks in progress: ${count}`}
      data-testid="tasks-badge"
    >
      <svg
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        aria-hidden="true"
      >
        <path d="M12 7v5l3 2M12 21a9 9 0 100-18 9 9 0 000 18z" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {count > 0 ? (
        <span
          className="absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-primary-700 px-1 text-xs font-semibold text-on-primary-700"
          aria-hidden="true"
          data-testid="tasks-count"
        >
          {count > 99 ? '99+' : count}
        </span>
      ) : null}
    </Link>
  );
}

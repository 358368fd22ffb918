import type { AuthMetricBucket, MetricPeriod } from '@cc/contracts';
import { formatDate } from '@cc/contracts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A bucket's label: "09:00" by hour, the day by day or week, "Jul 2026" by month. */
export function bucketLabel(start: string, period: MetricPeriod): string {
  if (period === 'h') return start.slice(11, 16);
  if (period === 'm') return `${MONTHS[Number(start.slice(5, 7)) - 1]} ${start.slice(0, 4)}`;
  const day = formatDate(start.slice(0, 10));
  return period === 'w' ? `Week of ${day}` : day;
}

/** The short axis label under a bar. */
function axisLabel(start: string, period: MetricPeriod): string {
  if (period === 'h') return start.slice(11, 13);
  if (period === 'm') return MONTHS[Number(start.slice(5, 7)) - 1] ?? '';
  return formatDate(start.slice(0, 10)).slice(0, 5);
}

/**
 * Sign-ins per bucket as bars (failed sign-ins stacked in red above them), every bucket present; the same figures in a
 * table for screen readers.
 */
export function SignInChart({ buckets, period }: { buckets: AuthMetricBucket[]; period: MetricPeriod }) {
  const max = Math.max(2, ...buckets.map((b) => b.sign_ins + b.failed));
  const every = buckets.length > 16 ? Math.ceil(buckets.length / 8) : buckets.length > 12 ? 2 : 1;
  const top = niceTop(max);
  return (
    <figure className="m-0">
      <div className="flex gap-2" aria-hidden="true">
        <div className="flex h-44 flex-col justify-between text-right text-xs text-slate-500">
          <span>{top}</span>
          <span>{top % 2 === 0 ? top / 2 : ''}</span>
          <span>0</span>
        </div>
        <div className="min-w-0 flex-1">
          <div className="relative flex h-44 items-end gap-px border-b border-l border-slate-300 sm:gap-1">
            <div className="pointer-events-none absolute inset-x-0 top-0 border-t border-dashed border-slate-200" />
            <div className="pointer-events-none absolute inset-x-0 top-1/2 border-t border-dashed border-slate-200" />
            {buckets.map((b) => (
              <div
                key={b.start}
                className="group relative flex h-full min-w-0 flex-1 flex-col justify-end"
                title={`${bucketLabel(b.start, period)}: ${b.sign_ins} sign-ins by ${b.users} ${b.users === 1 ? 'person' : 'people'}, ${b.failed} failed`}
              >
                {b.failed ? (
                  <div
                    className="w-full rounded-t-sm bg-rose-400"
                    style={{ height: `${(b.failed / top) * 100}%` }}
                  />
                ) : null}
                {b.sign_ins ? (
                  <div
                    className={`w-full bg-primary-600 group-hover:bg-primary-800 ${b.failed ? '' : 'rounded-t-sm'}`}
                    style={{ height: `${(b.sign_ins / top) * 100}%` }}
                  />
                ) : null}
              </div>
            ))}
          </div>
          <div className="mt-1 flex gap-px text-[11px] text-slate-600 sm:gap-1">
            {buckets.map((b, i) => (
              <div key={b.start} className="min-w-0 flex-1 overflow-visible text-center whitespace-nowrap">
                {i % every === 0 ? axisLabel(b.start, period) : ''}
              </div>
            ))}
          </div>
        </div>
      </div>
      <figcaption className="mt-3 flex flex-wrap gap-4 text-xs text-slate-600">
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm bg-primary-600" aria-hidden="true" /> Sign-ins
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block h-3 w-3 rounded-sm bg-rose-400" aria-hidden="true" /> Failed sign-ins
        </span>
      </figcaption>
      <table className="sr-only">
        <caption>
          Sign-ins per {period === 'h' ? 'hour' : period === 'd' ? 'day' : period === 'w' ? 'week' : 'month'}
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Sign-ins</th>
            <th scope="col">People</th>
            <th scope="col">Failed sign-ins</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((b) => (
            <tr key={b.start}>
              <th scope="row">{bucketLabel(b.start, period)}</th>
              <td>{b.sign_ins}</td>
              <td>{b.users}</td>
              <td>{b.failed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** 1, 2, 5, 10, 20, 50, ... at or above n. */
function niceTop(n: number): number {
  let step = 1;
  for (;;) {
    for (const m of [1, 2, 5]) if (m * step >= n) return m * step;
    step *= 10;
  }
}

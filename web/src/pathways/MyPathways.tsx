import {
  type AllocationStepView,
  type AllocationSummary,
  type AllocationView,
  formatDate,
} from '@cc/contracts';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type Envelope } from '../app/api';
import { Meter } from '../care-certificate/StandardsAccordion';
import { errorEnvelope } from '../entities/shared';
import { Badge, Card, EmptyState } from '../ui';
import { pathwayKeys, useMyPathways } from './api';
import { ALLOCATION_STATUS } from './labels';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/** "3 of 5 steps done". */
export const progressText = (a: Pick<AllocationSummary, 'steps_done' | 'steps_total'>) =>
  `${a.steps_done} of ${a.steps_total} step${a.steps_total === 1 ? '' : 's'} done`;

/** One allocation as a line: its pathway (opening the person's own view), status, progress and next due date. */
export function AllocationLine({ a, children }: { a: AllocationSummary; children?: React.ReactNode }) {
  const status = ALLOCATION_STATUS[a.status];
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link to={`/pathways/${a.pathway.id}`} className={linkClass}>
          {a.pathway.title}
        </Link>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      <Meter done={a.steps_done} total={a.steps_total} label={`${a.pathway.title}: steps done`} />
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-600">
        <span>{progressText(a)}</span>
        {a.completed_at ? (
          <span>Completed {formatDate(a.completed_at)}</span>
        ) : a.next_due_on ? (
          <span>Next due {formatDate(a.next_due_on)}</span>
        ) : null}
      </p>
      {children}
    </div>
  );
}

/**
 * "My pathways" at the top of /pathways: the caller's own allocations with their progress. Hidden for someone
 * with none when `hideWhenEmpty` (a manager's page then starts with their list); a learner sees an empty state.
 */
export function MyPathwaysCard({ hideWhenEmpty }: { hideWhenEmpty: boolean }) {
  const mine = useMyPathways(true);
  if (mine.isError)
    return (
      <Card title="My pathways">
        <p role="alert" className="text-sm text-danger-800">
          {errorEnvelope(mine.error, 'Your pathways could not be loaded.').message}
        </p>
      </Card>
    );
  if (mine.isLoading) return <Card title="My pathways" aria-busy="true" />;
  const rows = (mine.data ?? []).filter((a) => a.status !== 'withdrawn');
  if (!rows.length && hideWhenEmpty) return null;
  return (
    <Card title="My pathways" padded={false} data-testid="my-pathways">
      {rows.length ? (
        <ul className="divide-y divide-slate-100">
          {rows.map((a) => (
            <li key={a.uuid} className="p-4 sm:px-5">
              <AllocationLine a={a} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          title="You have no pathways yet"
          description="When your manager gives you a pathway, its steps appear here in order."
        />
      )}
    </Card>
  );
}

/** The first step still to do (the one a sequential pathway unlocks next). */
export function nextStep(view: AllocationView): AllocationStepView | null {
  return view.steps.find((s) => s.status !== 'done' && s.status !== 'locked') ?? null;
}

/**
 * The learner dashboard's card: each live pathway with its next step and a link to do it. Hidden without any.
 */
export function MyPathwaysWidget() {
  const mine = useMyPathways(false);
  const live = (mine.data ?? []).filter(
    (a) => a.status === 'in_progress' || a.status === 'awaiting_sign_off',
  );
  const views = useQueries({
    queries: live.slice(0, 5).map((a) => ({
      queryKey: pathwayKeys.allocation(a.uuid),
      queryFn: async () =>
        (await api.get<Envelope<AllocationView>>(`/pathway-allocations/${a.uuid}`)).data.data,
    })),
  });
  if (!live.length) return null;
  return (
    <Card
      title="My pathways"
      padded={false}
      data-testid="my-pathways-widget"
      actions={
        <Link to="/pathways" className={linkClass}>
          All my pathways
        </Link>
      }
    >
      <ul className="divide-y divide-slate-100">
        {live.slice(0, 5).map((a, i) => {
          const view = views[i]?.data;
          const next = view ? nextStep(view) : null;
          return (
            <li key={a.uuid} className="p-4 sm:px-5">
              <AllocationLine a={a}>
                {a.status === 'awaiting_sign_off' ? (
                  <p className="text-sm text-slate-700">
                    Every step is done: waiting for your manager to sign it off.
                  </p>
                ) : next ? (
                  <p className="text-sm text-slate-800">
                    Next:{' '}
                    {next.href ? (
                      <Link to={next.href} className={linkClass}>
                        {next.title}
                      </Link>
                    ) : (
                      <span className="font-medium">{next.title}</span>
                    )}
                    {next.type === 'sign_off' ? ' (a manager signs this off)' : null}
                    {next.due_on ? (
                      <span
                        className={next.status === 'overdue' ? 'font-semibold text-danger-700' : undefined}
                      >
                        {' '}
                        · {next.status === 'overdue' ? 'overdue since' : 'due'} {formatDate(next.due_on)}
                      </span>
                    ) : null}
                  </p>
                ) : null}
              </AllocationLine>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

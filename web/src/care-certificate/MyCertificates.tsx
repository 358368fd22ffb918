import { type CertificateView, formatDate } from '@cc/contracts';
import { useWhitelabel } from '../app/whitelabel';
import { LoadError, LoadingCard } from '../entities/shared';
import { Badge, ButtonLink, Card, EmptyState } from '../ui';
import { useMyCertificates } from './api';
import { GapsBanner } from './GapsBanner';
import {
  CERTIFICATE_STATUS,
  criteriaText,
  learnerHint,
  learnerNext,
  nextCriteria,
  standardsText,
} from './labels';
import { Meter, StandardsAccordion } from './StandardsAccordion';

/**
 * The learner's own certificate: progress, what happens next in her words (issue 32 §4: never told to do what she
 * cannot), which standards have no criteria yet, and the standards with their criteria.
 */
export function MyCertificateCard({ view, own = false }: { view: CertificateView; own?: boolean }) {
  const next = nextCriteria(view);
  const status = CERTIFICATE_STATUS[view.status];
  return (
    <Card
      title={own ? `Yours: ${view.version.title}` : view.version.title}
      padded={false}
      data-testid="my-certificate"
      actions={
        <ButtonLink to={`/care-certificate/${view.uuid}`} size="sm" variant="secondary">
          Open
        </ButtonLink>
      }
    >
      <div className="space-y-4 p-4 sm:p-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
          <Badge tone={status.tone}>{status.label}</Badge>
          {view.overdue ? <Badge tone="danger">Overdue</Badge> : null}
          <span>Started {formatDate(view.started_on)}</span>
          {view.completed_on ? (
            <span>Completed {formatDate(view.completed_on)}</span>
          ) : view.expected_by ? (
            <span>Expected by {formatDate(view.expected_by)}</span>
          ) : null}
        </div>
        <div className="space-y-1">
          <div className="flex flex-wrap justify-between gap-2 text-sm">
            <span className="font-medium text-slate-900">{standardsText(view)}</span>
            <span className="text-slate-600">
              {criteriaText(view.criteria_evidenced, view.criteria_total)}
            </span>
          </div>
          <Meter done={view.criteria_evidenced} total={view.criteria_total} label="Criteria evidenced" />
        </div>
        <p className="rounded-lg bg-primary-100 px-3 py-2 text-sm text-primary-900" data-testid="what-next">
          {learnerNext(view, view.can.submit)}
        </p>
        <GapsBanner view={view} learner />
        {view.status !== 'complete' ? (
          <section aria-labelledby={`next-${view.uuid}`}>
            <h3 id={`next-${view.uuid}`} className="text-sm font-semibold text-slate-900">
              Next
            </h3>
            {next.length ? (
              <ol className="mt-2 space-y-2" data-testid="next-criteria">
                {next.map(({ standard, criterion }) => (
                  <li key={criterion.id} className="text-sm text-slate-800">
                    <span className="font-semibold">{criterion.code}</span> {criterion.text}
                    <span className="block text-xs text-slate-600">
                      {learnerHint(criterion)} (Standard {standard.number}: {standard.title})
                    </span>
                  </li>
                ))}
              </ol>
            ) : (
              <p className="mt-1 text-sm text-slate-600">
                Every criterion has evidence so far: your assessor checks each standard and approves it.
              </p>
            )}
          </section>
        ) : null}
      </div>
      <div className="border-t border-slate-200">
        <StandardsAccordion view={view} learner />
      </div>
    </Card>
  );
}

/** The signed-in user's certificates; `alone` says whether the page has nothing else (then an empty state shows). */
export function MyCertificates({ alone }: { alone: boolean }) {
  const wl = useWhitelabel();
  const mine = useMyCertificates();
  if (mine.isLoading) return <LoadingCard label={`Loading your ${wl.certificateGroupMenuName}`} />;
  if (mine.isError)
    return (
      <LoadError
        error={mine.error}
        fallback="Your certificate could not be loaded."
        onRetry={() => void mine.refetch()}
      />
    );
  const list = mine.data ?? [];
  if (!list.length)
    return alone ? (
      <Card>
        <EmptyState
          title={`You have not started the ${wl.certificateGroupMenuName} yet`}
          description="Your manager assigns it when you start: it then shows here with what to do next."
        />
      </Card>
    ) : null;
  return (
    <div className="space-y-6">
      {list.map((view) => (
        <MyCertificateCard key={view.uuid} view={view} own={!alone} />
      ))}
    </div>
  );
}

import {
  type CertificateView,
  type CriterionProgress,
  formatDate,
  formatDateTime,
  type StandardProgress,
} from '@cc/contracts';
import { type ReactNode, useId, useState } from 'react';
import { Badge, cx } from '../ui';
import { fileHref } from './api';
import { criteriaText, learnerHint, NO_CRITERIA, OUTCOME_LABEL, percent, STANDARD_STATUS } from './labels';

/** A thin bar with its value as text for screen readers. */
export function Meter({ done, total, label }: { done: number; total: number; label: string }) {
  const value = percent(done, total);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className="h-full rounded-full bg-primary-700" style={{ width: `${value}%` }} />
    </div>
  );
}

export function StandardBadge({ standard }: { standard: Pick<StandardProgress, 'status'> }) {
  const s = STANDARD_STATUS[standard.status];
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

/** One criterion with what evidences it: results (course, date), files (download), observations. */
function CriterionRow({
  criterion,
  view,
  learner,
}: {
  criterion: CriterionProgress;
  view: CertificateView | null;
  learner: boolean;
}) {
  const files = view ? view.files.filter((f) => criterion.file_ids.includes(f.id)) : [];
  const observations = view
    ? view.observations.filter((o) => criterion.observation_ids.includes(o.id) && o.superseded_by_id === null)
    : [];
  return (
    <li className="py-3" data-testid={`criterion-${criterion.code}`}>
      <div className="flex items-start gap-3">
        <span
          className={cx(
            'mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full text-xs font-bold',
            criterion.evidenced ? 'bg-success-100 text-success-800' : 'bg-slate-100 text-slate-500',
          )}
          aria-hidden="true"
        >
          {criterion.evidenced ? '✓' : '•'}
        </span>
        <div className="min-w-0 flex-1 space-y-1">
          <p className="text-sm text-slate-900">
            <span className="font-semibold">{criterion.code}</span> {criterion.text}
          </p>
          <p className="text-xs text-slate-600">
            {learner ? (
              learnerHint(criterion)
            ) : (
              <>
                {criterion.evidenced ? 'Evidenced' : 'No evidence yet'}
                {criterion.requires_observation ? ' · needs an observation at work' : ''}
              </>
            )}
          </p>
          {criterion.results.length || files.length || observations.length ? (
            <ul className="space-y-1 text-xs text-slate-700" aria-label={`Evidence for ${criterion.code}`}>
              {criterion.results.map((r) => (
                <li key={`r-${r.result_id}`}>
                  Training: {r.course_title}, completed {formatDate(r.completed_at)}
                  {r.automatic ? '' : ' (linked by hand)'}
                </li>
              ))}
              {files.map((f) => (
                <li key={`f-${f.id}`}>
                  File:{' '}
                  <a
                    href={fileHref(view?.uuid ?? '', f.id)}
                    className="focus-ring rounded font-medium text-primary-800 underline"
                    download
                  >
                    {f.description || f.original_name}
                  </a>
                </li>
              ))}
              {observations.map((o) => (
                <li key={`o-${o.id}`}>
                  Observation: {OUTCOME_LABEL[o.outcome]} by {o.assessor.name},{' '}
                  {formatDateTime(o.observed_at)}
                  {o.approved_at ? ' (approved)' : ''}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
    </li>
  );
}

/** A standard's outcomes and criteria with their evidence, or the note that it has no criteria yet. */
export function StandardBody({
  standard,
  view,
  learner = false,
}: {
  standard: StandardProgress;
  view: CertificateView | null;
  learner?: boolean;
}) {
  if (standard.criteria_total === 0)
    return (
      <p className="py-3 text-sm text-slate-700">
        {learner ? 'Nothing to do here yet: this standard has no assessment criteria so far.' : NO_CRITERIA}
      </p>
    );
  return (
    <div className="space-y-4">
      {standard.outcomes
        .filter((o) => o.criteria.length)
        .map((o) => (
          <section key={o.id} aria-label={`Outcome ${o.code}`}>
            <h4 className="text-sm font-semibold text-slate-800">
              {o.code}
              {o.title ? ` ${o.title}` : ''}
            </h4>
            <ul className="divide-y divide-slate-100">
              {o.criteria.map((c) => (
                <CriterionRow key={c.id} criterion={c} view={view} learner={learner} />
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}

/**
 * The standards as an accordion: each header is a button (Enter/Space toggles, Tab moves on) with the standard's
 * status as text and its criteria count; opening one shows its outcomes and criteria with evidence. `actions`
 * renders a standard's buttons (select for approval, approve, reject) inside its panel. `learner`: the person's own
 * view, in her words (issue 32 §4).
 */
export function StandardsAccordion({
  view,
  actions,
  initiallyOpen = [],
  learner = false,
}: {
  view: CertificateView;
  actions?: (standard: StandardProgress) => ReactNode;
  initiallyOpen?: number[];
  learner?: boolean;
}) {
  const [open, setOpen] = useState<Set<number>>(() => new Set(initiallyOpen));
  const base = useId();
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const standards = [...view.standards].sort((a, b) => a.number - b.number);
  return (
    <ul className="divide-y divide-slate-200" aria-label="Standards">
      {standards.map((s) => {
        const isOpen = open.has(s.id);
        const panelId = `${base}-panel-${s.id}`;
        return (
          <li key={s.id} data-testid={`standard-${s.number}`}>
            <h3>
              <button
                type="button"
                aria-expanded={isOpen}
                aria-controls={panelId}
                onClick={() => toggle(s.id)}
                className="focus-ring flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-slate-50 sm:px-5"
              >
                <span
                  aria-hidden="true"
                  className={cx('mt-0.5 text-slate-500 transition-transform', isOpen && 'rotate-90')}
                >
                  ▸
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-semibold text-slate-900">
                    Standard {s.number}: {s.title}
                  </span>
                  <span className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600">
                    <StandardBadge standard={s} />
                    <span>
                      {view.historical
                        ? 'Completed elsewhere'
                        : criteriaText(s.criteria_evidenced, s.criteria_total)}
                    </span>
                  </span>
                </span>
              </button>
            </h3>
            <div id={panelId} hidden={!isOpen} className="px-4 pb-4 sm:px-5 sm:pl-11">
              {isOpen ? (
                <>
                  {s.rejection_reasons && s.state !== 'approved' ? (
                    <p className="mb-3 rounded-lg bg-warning-100 px-3 py-2 text-sm text-warning-800">
                      Returned with reasons: {s.rejection_reasons}
                    </p>
                  ) : null}
                  {s.state === 'approved' && s.decided_at ? (
                    <p className="mb-3 text-sm text-success-800">
                      Approved {formatDate(s.decided_at)}
                      {s.decided_by ? ` by ${s.decided_by}` : ''}
                    </p>
                  ) : null}
                  {learner && s.state === 'awaiting_approval' ? (
                    <p className="mb-3 text-sm text-slate-700">
                      With your assessor: they approve it or tell you what to add.
                    </p>
                  ) : null}
                  <StandardBody standard={s} view={view} learner={learner} />
                  {actions ? <div className="mt-3 flex flex-wrap gap-2">{actions(s)}</div> : null}
                </>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

import {
  BEHIND_KIND_LABELS,
  BEHIND_KINDS,
  type BehindFilter,
  type BehindItem,
  type BehindPerson,
  type BehindSummary,
  DashboardsPerm,
  formatDate,
  Messages,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePermission } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { ComposeDialog } from '../messaging/ComposeDialog';
import { MessagePeopleButton } from '../messaging/MessagePeople';
import { Button, Card, EmptyState, PageHeader, Pagination, Select, Spinner } from '../ui';
import { organisationWord } from '../whitelabel/words';
import {
  behindKeys,
  fetchBehindPeople,
  remindBehind,
  useBehindPeople,
  useBehindSummary,
  useScopeEntities,
} from './ManagerDashboardApi';
import { DashboardError, DashboardLoading, plural } from './ManagerDashboardParts';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/** What each kind's "behind" means, in the manager's words (contracts dashboards.ts BEHIND_KINDS). */
export const BEHIND_MEANING: Record<(typeof BEHIND_KINDS)[number], string> = {
  care_certificate: 'in progress and past the date it was expected to be complete',
  pathway: 'a step of a pathway they are on is past its due date',
  document: 'a document their job role must read is not read, and its due date has passed',
};

const EMPTY: Record<BehindFilter, string> = {
  all: 'No one is behind on the Care Certificate, pathways or documents to read.',
  care_certificate: 'No one is behind on the Care Certificate.',
  pathway: 'No one has an overdue pathway step.',
  document: 'No one is behind on reading a document.',
};

const FILTERS: BehindFilter[] = ['all', ...BEHIND_KINDS];

/** The filter's name with its count: "Pathways (2)". */
function filterLabel(f: BehindFilter, s: BehindSummary) {
  if (f === 'all') return `Everything (${s.people})`;
  return `${BEHIND_KIND_LABELS[f]} (${s.counts[f] ?? 0})`;
}

function ItemLine({ item }: { item: BehindItem }) {
  return (
    <li className="text-sm">
      <span className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
        {BEHIND_KIND_LABELS[item.kind]}
      </span>{' '}
      <Link to={item.href} className={linkClass}>
        {item.title}
      </Link>{' '}
      <span className="font-medium text-danger-700">{item.detail}</span>
      {item.due ? (
        <span className="text-slate-600">
          {' '}
          · {item.kind === 'care_certificate' ? 'expected by' : 'due'} {formatDate(item.due)}
        </span>
      ) : null}
    </li>
  );
}

function PersonRow({ p, showEntity }: { p: BehindPerson; showEntity: boolean }) {
  return (
    <li className="border-t border-slate-100 py-3" data-testid="behind-person">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <Link to={`/users/${p.uuid}`} className={linkClass}>
          {p.name}
        </Link>
        <span className="text-xs text-slate-600">
          {[p.role, showEntity ? p.entity.name : null].filter(Boolean).join(' · ')}
        </span>
      </div>
      <ul className="mt-1 space-y-1 pl-0 sm:pl-3">
        {p.items.map((i) => (
          <ItemLine key={`${i.kind}:${i.href}:${i.title}`} item={i} />
        ))}
      </ul>
    </li>
  );
}

/** "Remind these people": one in-app notice and e-mail each, at most once a day per thing (the ledger decides). */
function RemindButton({ entity, kind, total }: { entity: string; kind: BehindFilter; total: number }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  if (total === 0) return null;
  const remind = async () => {
    setBusy(true);
    try {
      const res = await remindBehind(entity, kind);
      notifySuccess(res.data.message ?? 'Reminders sent.');
      await queryClient.invalidateQueries({ queryKey: behindKeys.all });
    } catch (error) {
      notifyError(errorEnvelope(error, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" size="sm" loading={busy} onClick={() => void remind()}>
      Remind these people
    </Button>
  );
}

/** The list of one filter: people, the two actions, paging, and its own empty state. */
function BehindList({ entity, entityId, kind }: { entity: string; entityId: number; kind: BehindFilter }) {
  const [page, setPage] = useState(1);
  const list = useBehindPeople(entity, kind, page);
  if (list.isError) return <DashboardError error={list.error} name="list" />;
  if (!list.data)
    return (
      <div className="flex items-center gap-2 py-3 text-sm text-slate-600" aria-live="polite">
        <Spinner /> Loading…
      </div>
    );
  const { data, meta } = list.data;
  if (meta.total === 0)
    return (
      <EmptyState
        title="No one is behind"
        description={kind === 'all' ? `${EMPTY.all} Everyone’s checks are up to date.` : EMPTY[kind]}
      />
    );
  return (
    <div>
      <div className="mb-2 flex flex-wrap items-center gap-2">
        <p className="mr-auto text-sm text-slate-700" aria-live="polite">
          {plural(meta.total, 'person', 'people')} behind
        </p>
        <MessagePeopleButton
          total={meta.total}
          fetchPage={(p, perPage) => fetchBehindPeople(entity, kind, p, perPage)}
        />
        <RemindButton entity={entity} kind={kind} total={meta.total} />
      </div>
      <ul data-testid="behind-list">
        {data.map((p) => (
          <PersonRow key={p.id} p={p} showEntity={p.entity.id !== entityId} />
        ))}
      </ul>
      {meta.last_page > 1 ? (
        <div className="mt-3">
          <Pagination meta={meta} onPageChange={setPage} label="Pages of people behind" />
        </div>
      ) : null}
    </div>
  );
}

/**
 * /manager-dashboard/behind (105): a manager's own checks of one home — who is behind on the Care Certificate,
 * pathways and documents to read, in one list (longest overdue first), with "Message these people" and "Remind
 * these people". `?entity=` the home (default: the caller's own), `?kind=` one kind. Kinds the caller may not see
 * are left out.
 */
export default function BehindPage() {
  const wl = useWhitelabel();
  const allowed = usePermission([DashboardsPerm.managerDashboard]);
  const [search, setSearch] = useSearchParams();
  const entityParam = search.get('entity') || undefined;
  const rawKind = search.get('kind') as BehindFilter | null;
  const summary = useBehindSummary(entityParam, allowed);
  const entities = useScopeEntities(allowed);
  const s = summary.data;
  const kinds = s ? FILTERS.filter((f) => f === 'all' || s.counts[f] !== null) : FILTERS;
  const kind: BehindFilter = rawKind && kinds.includes(rawKind) ? rawKind : 'all';
  const set = (key: 'entity' | 'kind', value: string) =>
    setSearch(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (key === 'kind' && value === 'all') next.delete('kind');
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );
  const options = (entities.data?.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name));
  const word = organisationWord(wl).toLowerCase();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Who is behind"
        breadcrumbs={[
          {
            label: 'Manager dashboard',
            to: `/manager-dashboard${entityParam ? `?entity=${entityParam}` : ''}`,
          },
          { label: 'Who is behind' },
        ]}
        description={`Your own checks of a ${word}: the Care Certificate, pathways and documents to read, in one list.`}
      />
      {!allowed ? (
        <Card>
          <p role="alert" className="text-sm text-danger-700">
            You do not have access to the list of who is behind. Ask an administrator if you need it.
          </p>
        </Card>
      ) : summary.isError ? (
        <DashboardError error={summary.error} name="list of who is behind" />
      ) : !s ? (
        <DashboardLoading />
      ) : (
        <>
          <Card>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 sm:items-end">
              <div>
                <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">
                  {s.entity.level === 'A' ? 'Organisation' : organisationWord(wl)}
                </p>
                <h2 className="text-2xl font-semibold text-slate-900" data-testid="behind-entity">
                  {s.entity.name}
                </h2>
              </div>
              {options.length > 1 ? (
                <Select
                  label="Show"
                  value={s.entity.id}
                  onChange={(e) => set('entity', e.target.value)}
                  options={options.map((o) => ({ value: o.id, label: o.name }))}
                />
              ) : null}
            </div>
          </Card>
          <Card title="Who is behind" data-testid="behind-card">
            <div className="space-y-4">
              <fieldset>
                <legend className="sr-only">Behind on</legend>
                <div className="flex flex-wrap gap-2">
                  {kinds.map((f) => (
                    <button
                      key={f}
                      type="button"
                      aria-pressed={kind === f}
                      onClick={() => set('kind', f)}
                      className={`focus-ring rounded-full px-3 py-1.5 text-sm font-medium ring-1 ${
                        kind === f
                          ? 'bg-primary-700 text-white ring-primary-700'
                          : 'bg-white text-slate-700 ring-slate-300 hover:ring-primary-400'
                      }`}
                    >
                      {filterLabel(f, s)}
                    </button>
                  ))}
                </div>
              </fieldset>
              <p className="text-sm text-slate-600">
                {kind === 'all'
                  ? 'Behind means: Care Certificate in progress and past its expected date; a pathway step past its due date; a required document not read after its due date. Longest overdue first.'
                  : `Behind means: ${BEHIND_MEANING[kind]}. Longest overdue first.`}
              </p>
              <BehindList
                key={`${s.entity.id}:${kind}`}
                entity={String(s.entity.id)}
                entityId={s.entity.id}
                kind={kind}
              />
            </div>
          </Card>
        </>
      )}
      <ComposeDialog />
    </div>
  );
}

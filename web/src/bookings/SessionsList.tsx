import {
  BookingsPerm,
  ContentPerm,
  Perm,
  SESSION_STATUSES,
  type SessionStatus,
  type TrainingSessionView,
} from '@cc/contracts';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useAddressFilters } from '../app/address-filters';
import { usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Picker } from '../results/Picker';
import {
  Badge,
  ButtonLink,
  Card,
  CardPagination,
  Checkbox,
  type Column,
  DataTable,
  EmptyState,
  FoldingFilters,
  SearchInput,
  Select,
  TextField,
} from '../ui';
import { type PickItem, type SessionFilters, searchFace2face, searchTrainers, useSessions } from './api';
import { placesText, SESSION_STATUS, sessionWhen, sessionWhere } from './labels';

/** The list's filters, read from and written to the address (`?search=&content=12:Fire safety&…`). */
export interface FiltersState {
  query: SessionFilters;
  content: PickItem | null;
  trainer: PickItem | null;
  active: boolean;
  set: (patch: Record<string, string | null>) => void;
  clear: () => void;
}

const pick = (raw: string | null): PickItem | null => {
  if (!raw) return null;
  const at = raw.indexOf(':');
  const id = Number(at < 0 ? raw : raw.slice(0, at));
  return Number.isInteger(id) && id > 0 ? { id, label: at < 0 ? `#${id}` : raw.slice(at + 1) } : null;
};
const FILTER_KEYS = ['search', 'content', 'trainer', 'status', 'from', 'to', 'mine'];

export function useSessionFilters(trainerOnly: boolean): FiltersState {
  const { params, set, active, clear } = useAddressFilters(FILTER_KEYS);
  const content = pick(params.get('content'));
  const trainer = pick(params.get('trainer'));
  const status = params.get('status');
  const query: SessionFilters = {
    page: Number(params.get('page')) || 1,
    search: params.get('search') || undefined,
    content_id: content?.id,
    trainer_id: trainer?.id,
    status: (SESSION_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as SessionStatus)
      : undefined,
    from: params.get('from') || undefined,
    to: params.get('to') || undefined,
    mine: trainerOnly || params.get('mine') === '1' ? true : undefined,
  };
  return {
    query,
    content,
    trainer,
    active,
    set,
    clear,
  };
}

export function SessionFiltersBar({
  filters,
  trainerOnly,
  dates = true,
}: {
  filters: FiltersState;
  trainerOnly: boolean;
  dates?: boolean;
}) {
  const { query, set } = filters;
  // The pickers search GET /content?type=face2face (63, 9 or 11) and GET /users (21): without those they are not
  // offered, rather than fail.
  const can = usePermissionChecker();
  const canContent = can(
    [ContentPerm.contentCreator, BookingsPerm.createBookings, BookingsPerm.editBooking],
    'any',
  );
  const canTrainers = !trainerOnly && can([Perm.searchUsers]);
  return (
    <Card padded={false}>
      {/* Narrow screens fold the filters away behind one button, so the sessions come first. */}
      <FoldingFilters
        summary={filters.active ? 'Filtered' : 'All sessions'}
        onClear={filters.active ? filters.clear : null}
        align="start"
      >
        <div className="space-y-1.5">
          <span className="block text-sm font-medium text-slate-800">Search</span>
          <SearchInput
            label="Search sessions"
            placeholder="Course, venue, trainer…"
            value={query.search ?? ''}
            onSearch={(search) => set({ search })}
          />
        </div>
        {canContent ? (
          <Picker
            label="Course content"
            queryKey="face2face-content"
            search={searchFace2face}
            placeholder="Any face-to-face content"
            value={filters.content}
            onChange={(c) => set({ content: c ? `${c.id}:${c.label}` : null })}
          />
        ) : null}
        {!canTrainers ? null : (
          <Picker
            label="Trainer"
            queryKey="trainers"
            search={searchTrainers}
            placeholder="Any trainer"
            value={filters.trainer}
            onChange={(t) => set({ trainer: t ? `${t.id}:${t.label}` : null })}
          />
        )}
        <Select
          label="Status"
          options={[
            { value: '', label: 'Any status' },
            ...SESSION_STATUSES.map((s) => ({ value: s, label: SESSION_STATUS[s].label })),
          ]}
          value={query.status ?? ''}
          onChange={(e) => set({ status: e.target.value })}
        />
        {dates ? (
          <>
            <TextField
              label="From"
              type="date"
              value={query.from ?? ''}
              onChange={(e) => set({ from: e.target.value })}
            />
            <TextField
              label="To"
              type="date"
              value={query.to ?? ''}
              onChange={(e) => set({ to: e.target.value })}
            />
          </>
        ) : null}
        {trainerOnly ? null : (
          <div className="flex h-10 items-center sm:self-end">
            <Checkbox
              label="Only sessions I train"
              checked={query.mine === true}
              onChange={(e) => set({ mine: e.target.checked ? '1' : null })}
            />
          </div>
        )}
      </FoldingFilters>
    </Card>
  );
}

export function SessionTitle({ s }: { s: TrainingSessionView }) {
  return (
    <span className="flex flex-col">
      <Link
        to={`/manage-bookings/${s.id}`}
        className="focus-ring rounded font-medium text-primary-800 hover:underline"
      >
        {s.content.title}
      </Link>
      <span className="text-xs text-slate-600">{s.course.title}</span>
      <span className="text-xs text-slate-600 md:hidden">{sessionWhen(s)}</span>
    </span>
  );
}

export function SessionsList({
  filters,
  canCreate,
  trainerOnly,
}: {
  filters: FiltersState;
  canCreate: boolean;
  trainerOnly: boolean;
}) {
  const list = useSessions(filters.query);
  useEffect(() => {
    if (list.isError)
      notifyError(
        errorEnvelope(list.error, 'Sessions could not be loaded.'),
        'Sessions could not be loaded.',
      );
  }, [list.isError, list.error]);
  const columns: Column<TrainingSessionView>[] = [
    { key: 'session', header: 'Session', render: (s) => <SessionTitle s={s} /> },
    { key: 'when', header: 'When', hideOnMobile: true, render: (s) => sessionWhen(s) },
    { key: 'where', header: 'Where', hideOnMobile: true, render: (s) => sessionWhere(s) },
    { key: 'trainer', header: 'Trainer', hideOnMobile: true, render: (s) => s.trainer?.name ?? '—' },
    { key: 'places', header: 'Places', hideOnMobile: true, render: (s) => placesText(s) },
    {
      key: 'status',
      header: 'Status',
      render: (s) => <Badge tone={SESSION_STATUS[s.status].tone}>{SESSION_STATUS[s.status].label}</Badge>,
    },
  ];
  const empty = list.isError ? (
    <EmptyState
      title="Sessions could not be loaded"
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : filters.active ? (
    <EmptyState
      title="No sessions match"
      description="Try fewer filters."
      action={
        <button
          type="button"
          className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          onClick={filters.clear}
        >
          Clear filters
        </button>
      }
    />
  ) : trainerOnly ? (
    <EmptyState
      title="No sessions to train yet"
      description="Sessions you are the trainer of appear here, with their delegates and check-in code."
    />
  ) : (
    <EmptyState
      title="No sessions yet"
      description={
        canCreate
          ? 'Create one: choose face-to-face content, dates, a trainer and a venue.'
          : 'Sessions of your organisation appear here once they are scheduled.'
      }
      action={canCreate ? <ButtonLink to="/manage-bookings/new">Create a session</ButtonLink> : undefined}
    />
  );
  return (
    <Card padded={false}>
      <DataTable
        caption="Training sessions"
        columns={columns}
        rows={list.data?.data}
        rowKey={(s) => s.id}
        loading={list.isLoading}
        empty={empty}
      />
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(page) => filters.set({ page: String(page) })}
        label="Session pages"
      />
    </Card>
  );
}

import { BookingsMessages, TrainingOrderBody, type TrainingSessionView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../app/api';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import {
  Button,
  Card,
  CardPagination,
  Checkbox,
  type Column,
  DataTable,
  EmptyState,
  FormDialog,
  SearchInput,
  TextArea,
  TextField,
} from '../ui';
import { bookingAction, type PickItem, useMarketplace } from './api';
import { PeopleChooser } from './DelegatesCard';
import { sessionWhen, sessionWhere } from './labels';

/** Training providers' sessions open to other organisations (GET /marketplace), with "Order places". */
export function MarketplacePanel() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [hasPlaces, setHasPlaces] = useState(true);
  const list = useMarketplace({ page, search: search || undefined, has_places: hasPlaces || undefined });
  const [ordering, setOrdering] = useState<TrainingSessionView | null>(null);
  const columns: Column<TrainingSessionView>[] = [
    {
      key: 'session',
      header: 'Session',
      render: (s) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900">{s.content.title}</span>
          <span className="text-xs text-slate-600">
            {s.course.title} · by {s.entity.name}
          </span>
          <span className="text-xs text-slate-600 md:hidden">
            {sessionWhen(s)} · {sessionWhere(s)}
          </span>
        </span>
      ),
    },
    { key: 'when', header: 'When', hideOnMobile: true, render: (s) => sessionWhen(s) },
    {
      key: 'where',
      header: 'Where',
      hideOnMobile: true,
      render: (s) => [sessionWhere(s), s.area].filter(Boolean).join(' · '),
    },
    {
      key: 'places',
      header: 'Places free',
      render: (s) => (s.places_free > 0 ? `${s.places_free} of ${s.maxDelegates}` : 'Full'),
    },
  ];
  return (
    <Card title="Training providers' sessions" padded={false}>
      <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          label="Search the marketplace"
          placeholder="Course, provider, area…"
          value={search}
          onSearch={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
        <Checkbox
          label="Only sessions with places free"
          checked={hasPlaces}
          onChange={(e) => {
            setHasPlaces(e.target.checked);
            setPage(1);
          }}
        />
      </div>
      <DataTable
        caption="Marketplace sessions"
        columns={columns}
        rows={list.data?.data}
        rowKey={(s) => s.id}
        loading={list.isLoading}
        empty={
          list.isError ? (
            <EmptyState
              title="The marketplace could not be loaded"
              description={errorEnvelope(list.error, 'Please try again.').message}
            />
          ) : (
            <EmptyState
              title="No sessions on the marketplace"
              description={
                hasPlaces
                  ? 'Nothing with places free right now. Show full sessions too, or look again later.'
                  : 'Training providers have not published sessions yet.'
              }
            />
          )
        }
        rowActions={(s) =>
          s.places_free > 0 ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setOrdering(s)}
              aria-label={`Order places on ${s.content.title}`}
            >
              Order places
            </Button>
          ) : null
        }
      />
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Marketplace pages" />
      {ordering ? <OrderDialog session={ordering} onClose={() => setOrdering(null)} /> : null}
    </Card>
  );
}

function OrderDialog({ session, onClose }: { session: TrainingSessionView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [places, setPlaces] = useState('1');
  const [people, setPeople] = useState<PickItem[]>([]);
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const count = places.trim() === '' ? undefined : Number(places);
    const parsed = TrainingOrderBody.safeParse({
      session_id: session.id,
      places: count,
      users: people.map((p) => p.id),
      notes: notes.trim() || null,
    });
    const errs: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error);
    if (count !== undefined && people.length > count)
      errs.users = ['Name no more people than the places ordered.'];
    if (count !== undefined && count > session.places_free) errs.places = [BookingsMessages.notEnoughPlaces];
    if (!parsed.success || Object.keys(errs).length) return setErrors(errs);
    setErrors({});
    setBusy(true);
    try {
      await bookingAction(
        queryClient,
        () => api.post('/training-orders', parsed.data),
        BookingsMessages.orderPlaced,
      );
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open
      title="Order places"
      description={`${session.content.title}, ${sessionWhen(session)}, by ${session.entity.name}. ${session.places_free} free.`}
      submitLabel="Place order"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField
        label="Places"
        type="number"
        inputMode="numeric"
        min={1}
        max={session.places_free}
        required
        value={places}
        onChange={(e) => setPlaces(e.target.value)}
        error={errors.places}
      />
      <PeopleChooser
        label="Name delegates now (optional)"
        chosen={people}
        onChange={setPeople}
        error={errors.users}
      />
      <p className="text-xs text-slate-600">
        Places you do not name now stay reserved: name them later under Training orders.
      </p>
      <TextArea
        label="Notes for the provider"
        maxLength={2000}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        error={errors.notes}
      />
    </FormDialog>
  );
}

import {
  BookingsMessages,
  formatDateTime,
  NameOrderDelegatesBody,
  type TrainingOrderView,
  type TrainingSessionView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../app/api';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  FormDialog,
} from '../ui';
import { bookingAction, type PickItem, useOrders } from './api';
import { PeopleChooser } from './DelegatesCard';
import { sessionWhen } from './labels';

const unnamed = (o: TrainingOrderView) => Math.max(0, o.places - o.named);

function orderColumns(showSession: boolean): Column<TrainingOrderView>[] {
  return [
    ...(showSession
      ? [
          {
            key: 'session',
            header: 'Session',
            render: (o: TrainingOrderView) => (
              <span className="flex flex-col">
                <span className="font-medium text-slate-900">{o.session.content.title}</span>
                <span className="text-xs text-slate-600">
                  {sessionWhen(o.session)} · by {o.session.entity.name}
                </span>
              </span>
            ),
          },
        ]
      : [
          {
            key: 'entity',
            header: 'Ordered by',
            render: (o: TrainingOrderView) => (
              <span className="flex flex-col">
                <span className="font-medium text-slate-900">{o.entity.name}</span>
                <span className="text-xs text-slate-600">{o.ordered_by?.name ?? ''}</span>
              </span>
            ),
          },
        ]),
    {
      key: 'places',
      header: 'Places',
      render: (o) => (
        <span className="flex flex-col">
          <span>
            {o.places} ordered, {o.named} named
          </span>
          {o.status === 'placed' && unnamed(o) > 0 ? (
            <span className="text-xs text-warning-800">{unnamed(o)} still to name</span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (o) =>
        o.status === 'placed' ? <Badge tone="success">Placed</Badge> : <Badge tone="danger">Cancelled</Badge>,
    },
    { key: 'created', header: 'Ordered', hideOnMobile: true, render: (o) => formatDateTime(o.created_at) },
  ];
}

function OrderActions({
  o,
  onName,
  onCancel,
}: {
  o: TrainingOrderView;
  onName: () => void;
  onCancel: () => void;
}) {
  if (o.status !== 'placed') return null;
  return (
    <>
      {unnamed(o) > 0 ? (
        <Button
          variant="ghost"
          size="sm"
          onClick={onName}
          aria-label={`Name delegates on the order for ${o.session.content.title}`}
        >
          Name delegates
        </Button>
      ) : null}
      <Button
        variant="ghost"
        size="sm"
        onClick={onCancel}
        aria-label={`Cancel the order for ${o.session.content.title}`}
      >
        Cancel order
      </Button>
    </>
  );
}

function OrderDialogs({
  naming,
  cancelling,
  onCloseNaming,
  onCloseCancelling,
}: {
  naming: TrainingOrderView | null;
  cancelling: TrainingOrderView | null;
  onCloseNaming: () => void;
  onCloseCancelling: () => void;
}) {
  const queryClient = useQueryClient();
  return (
    <>
      {naming ? <NameDelegatesDialog order={naming} onClose={onCloseNaming} /> : null}
      <ConfirmDialog
        open={cancelling !== null}
        title="Cancel this training order?"
        message={
          cancelling
            ? `The ${unnamed(cancelling)} unnamed ${unnamed(cancelling) === 1 ? 'place goes' : 'places go'} back to the provider and the ${cancelling.named} named ${cancelling.named === 1 ? 'delegate is' : 'delegates are'} removed from ${cancelling.session.content.title}.`
            : null
        }
        confirmLabel="Cancel order"
        cancelLabel="Keep order"
        onConfirm={() =>
          cancelling
            ? bookingAction(
                queryClient,
                () => api.delete(`/training-orders/${cancelling.id}`),
                BookingsMessages.orderCancelled,
              )
            : undefined
        }
        onClose={onCloseCancelling}
      />
    </>
  );
}

/** My organisations' training orders (GET /training-orders): name delegates on unnamed places, cancel. */
export function OrdersPanel() {
  const [page, setPage] = useState(1);
  const list = useOrders({ page });
  const [naming, setNaming] = useState<TrainingOrderView | null>(null);
  const [cancelling, setCancelling] = useState<TrainingOrderView | null>(null);
  return (
    <Card title="Your training orders" padded={false}>
      <DataTable
        caption="Your training orders"
        columns={orderColumns(true)}
        rows={list.data?.data}
        rowKey={(o) => o.id}
        loading={list.isLoading}
        empty={
          list.isError ? (
            <EmptyState
              title="Orders could not be loaded"
              description={errorEnvelope(list.error, 'Please try again.').message}
            />
          ) : (
            <EmptyState
              title="No training orders yet"
              description="Order places on a training provider's session from the marketplace: the order shows here, and you can name its delegates now or later."
            />
          )
        }
        rowActions={(o) => (
          <OrderActions o={o} onName={() => setNaming(o)} onCancel={() => setCancelling(o)} />
        )}
      />
      <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Order pages" />
      <OrderDialogs
        naming={naming}
        cancelling={cancelling}
        onCloseNaming={() => setNaming(null)}
        onCloseCancelling={() => setCancelling(null)}
      />
    </Card>
  );
}

/** The training orders on one session (shown on the session's page). */
export function SessionOrders({ session }: { session: TrainingSessionView }) {
  const list = useOrders({ session_id: session.id, page: 1 });
  const rows = list.data?.data.filter((o) => o.session.id === session.id);
  const [naming, setNaming] = useState<TrainingOrderView | null>(null);
  const [cancelling, setCancelling] = useState<TrainingOrderView | null>(null);
  if (!list.isLoading && !rows?.length) return null;
  return (
    <Card title="Training orders" padded={false}>
      <DataTable
        caption="Training orders on this session"
        columns={orderColumns(false)}
        rows={rows}
        rowKey={(o) => o.id}
        loading={list.isLoading}
        rowActions={(o) => (
          <OrderActions o={o} onName={() => setNaming(o)} onCancel={() => setCancelling(o)} />
        )}
      />
      <OrderDialogs
        naming={naming}
        cancelling={cancelling}
        onCloseNaming={() => setNaming(null)}
        onCloseCancelling={() => setCancelling(null)}
      />
    </Card>
  );
}

function NameDelegatesDialog({ order, onClose }: { order: TrainingOrderView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [people, setPeople] = useState<PickItem[]>([]);
  const [errors, setErrors] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);
  const left = unnamed(order);
  const submit = async () => {
    if (people.length > left) return setErrors([`Name at most ${left} ${left === 1 ? 'person' : 'people'}.`]);
    const parsed = NameOrderDelegatesBody.safeParse({ users: people.map((p) => p.id) });
    if (!parsed.success) return setErrors(['Choose who to add.']);
    setBusy(true);
    try {
      await bookingAction(
        queryClient,
        () => api.post(`/training-orders/${order.id}/delegates`, parsed.data),
        BookingsMessages.orderUpdated,
      );
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error).users);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open
      title="Name delegates"
      description={`${order.session.content.title}: ${left} unnamed ${left === 1 ? 'place' : 'places'} on this order.`}
      submitLabel="Name delegates"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <PeopleChooser label="People" chosen={people} onChange={setPeople} error={errors} />
    </FormDialog>
  );
}

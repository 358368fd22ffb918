import { formatDateTime, type WebhookEndpointView } from '@cc/contracts';
import { useState } from 'react';
import { useAddressFilters } from '../app/address-filters';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, CardPagination, type Column, DataTable, EmptyState, PageHeader } from '../ui';
import { useWebhooks } from './api';
import { DeliveryStatusChip } from './DeliveryLog';
import { EndpointDialog } from './EndpointDialog';
import { EndpointPanel } from './EndpointPanel';

const eventCount = (n: number) => (n === 1 ? '1 event' : `${n} events`);

/**
 * `/webhooks` (permission 112): the organisation's endpoints, each with its events, status and last delivery; the
 * chosen one (?endpoint=) below with its secret, test event, delivery log and resend. A signing secret is shown once
 * (issue 29 §14): the answer of the create or rotation that made it is kept here, in memory only, until copied.
 */
export default function WebhooksPage() {
  const filters = useAddressFilters(['endpoint']);
  const page = Number(filters.params.get('page')) || 1;
  const selected = Number(filters.params.get('endpoint')) || null;
  const list = useWebhooks(page);
  const [editing, setEditing] = useState<WebhookEndpointView | null | undefined>(undefined);
  const [newSecret, setNewSecret] = useState<{ id: number; secret: string } | null>(null);
  const open = (id: number | null) => filters.set({ endpoint: id ? String(id) : '', page: String(page) });

  const columns: Column<WebhookEndpointView>[] = [
    {
      key: 'url',
      header: 'Endpoint',
      render: (w) => (
        <span className="flex flex-col gap-0.5">
          <button
            type="button"
            className="focus-ring rounded text-left font-medium text-primary-800 wrap-anywhere hover:underline"
            aria-current={selected === w.id ? 'true' : undefined}
            onClick={() => open(w.id)}
          >
            {w.url}
          </button>
          {w.description ? <span className="text-xs text-slate-600">{w.description}</span> : null}
          <span className="text-xs text-slate-600">
            {w.entity.name} · {eventCount(w.event_types.length)}
          </span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (w) => (w.enabled ? <Badge tone="success">On</Badge> : <Badge>Paused</Badge>),
    },
    {
      key: 'last',
      header: 'Last delivery',
      hideOnMobile: true,
      render: (w) =>
        w.last_delivery ? (
          <span className="flex flex-col items-start gap-1">
            <DeliveryStatusChip status={w.last_delivery.status} />
            <span className="text-xs text-slate-600">{formatDateTime(w.last_delivery.at)}</span>
          </span>
        ) : (
          <span className="text-sm text-slate-600">None yet</span>
        ),
    },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Webhooks"
        description="Send events (results, compliance changes, new staff, bookings…) to your other systems as they happen."
        actions={<Button onClick={() => setEditing(null)}>Add an endpoint</Button>}
      />
      <Card padded={false} data-testid="webhooks-list">
        {list.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(list.error, 'The endpoints could not be loaded.').message}
          </p>
        ) : (
          <DataTable
            caption="Webhook endpoints"
            columns={columns}
            rows={list.data?.data}
            rowKey={(w) => w.id}
            loading={list.isLoading}
            rowActions={(w) => (
              <Button size="sm" variant="secondary" aria-label={`Open ${w.url}`} onClick={() => open(w.id)}>
                Open
              </Button>
            )}
            empty={
              <EmptyState
                title="No endpoints yet"
                description="Add the address of a system that should hear about events, such as your HR or rota system."
                action={
                  <Button size="sm" onClick={() => setEditing(null)}>
                    Add an endpoint
                  </Button>
                }
              />
            }
          />
        )}
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(p) => filters.set({ page: String(p) })}
          label="Endpoint pages"
        />
      </Card>
      {selected ? (
        <EndpointPanel
          id={selected}
          onEdit={(w) => setEditing(w)}
          onDeleted={() => open(null)}
          newSecret={newSecret?.id === selected ? newSecret.secret : null}
          onNewSecret={(secret) => setNewSecret({ id: selected, secret })}
          onSecretShown={() => setNewSecret(null)}
        />
      ) : null}
      <EndpointDialog
        endpoint={editing}
        onClose={() => setEditing(undefined)}
        onSaved={(saved) => {
          if (saved.secret) setNewSecret({ id: saved.id, secret: saved.secret });
          open(saved.id);
        }}
      />
    </div>
  );
}

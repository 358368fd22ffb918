import {
  formatDateTime,
  WEBHOOK_DELIVERY_STATUSES,
  type WebhookDeliveryStatus,
  type WebhookDeliveryView,
  WebhookMessages,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, CardPagination, EmptyState, Select } from '../ui';
import { resend, useDeliveries, webhookAction } from './api';

const STATUS_LABEL: Record<WebhookDeliveryStatus, string> = {
  pending: 'Retrying',
  succeeded: 'Delivered',
  failed: 'Failed',
};

/** A pending delivery never attempted yet is waiting for its first try, not retrying (issue 28). */
export function deliveryStatusLabel(status: WebhookDeliveryStatus, attempts?: number): string {
  return status === 'pending' && attempts === 0 ? 'Waiting' : STATUS_LABEL[status];
}

export function DeliveryStatusChip({
  status,
  attempts,
}: {
  status: WebhookDeliveryStatus;
  attempts?: number;
}) {
  const tone = status === 'succeeded' ? 'success' : status === 'failed' ? 'danger' : 'warning';
  return <Badge tone={tone}>{deliveryStatusLabel(status, attempts)}</Badge>;
}

/** The endpoint's delivery log: newest first, by status, each with its last attempt, body excerpt and Resend. */
export function DeliveryLog({ endpointId }: { endpointId: number }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const log = useDeliveries(endpointId, page, status || undefined);

  return (
    <Card padded={false} data-testid="delivery-log">
      <div className="flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 p-4">
        <h3 className="text-base font-semibold text-slate-900">Delivery log</h3>
        <div className="w-full sm:w-56">
          <Select
            label="Show"
            placeholder="All deliveries"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as WebhookDeliveryStatus | '');
              setPage(1);
            }}
            options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
          />
        </div>
      </div>
      {log.isError ? (
        <p role="alert" className="p-4 text-sm text-danger-800">
          {errorEnvelope(log.error, 'The delivery log could not be loaded.').message}
        </p>
      ) : log.data && log.data.data.length === 0 ? (
        <EmptyState
          title={status ? 'No deliveries with this status' : 'No deliveries yet'}
          description={
            status ? 'Choose another status.' : 'Send a test event, or wait for one of the chosen events.'
          }
        />
      ) : (
        <ul className="divide-y divide-slate-200" aria-busy={log.isLoading}>
          {(log.data?.data ?? []).map((d) => (
            <DeliveryRow key={d.id} delivery={d} />
          ))}
        </ul>
      )}
      <CardPagination meta={log.data?.meta} onPageChange={setPage} label="Delivery log pages" />
    </Card>
  );
}

function DeliveryRow({ delivery: d }: { delivery: WebhookDeliveryView }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const a = d.last_attempt;
  const again = async () => {
    setBusy(true);
    try {
      await webhookAction(queryClient, () => resend(d.id), WebhookMessages.resent);
    } catch {
      // webhookAction showed the message
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className="space-y-2 p-4" data-testid="delivery-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <DeliveryStatusChip status={d.status} attempts={d.attempts} />
          <span className="font-mono text-xs wrap-anywhere">{d.event_type}</span>
        </div>
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => void again()}>
          {busy ? 'Sending…' : 'Resend'}
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-600">Sent</dt>
          <dd>{a ? formatDateTime(a.attempted_at) : 'Not yet'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Answer</dt>
          <dd data-testid="response-code">{a?.response_code ?? (a ? 'None' : '–')}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Took</dt>
          <dd>{a ? `${a.duration_ms} ms` : '–'}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-600">Attempts</dt>
          <dd>{d.attempts}</dd>
        </div>
      </dl>
      {d.status === 'pending' && d.next_attempt_at && d.attempts > 0 ? (
        <p className="text-xs text-slate-600">Next try {formatDateTime(d.next_attempt_at)}.</p>
      ) : null}
      {a?.error ? <p className="text-sm text-danger-800">{a.error}</p> : null}
      <details className="text-sm">
        <summary className="focus-ring cursor-pointer rounded text-primary-800">Details</summary>
        <div className="mt-2 space-y-2">
          <p className="text-xs text-slate-600">
            Message id <span className="font-mono wrap-anywhere">{d.event_id}</span>
          </p>
          {a?.response_body ? (
            <>
              <p className="text-xs text-slate-600">Answer (first 1 KB)</p>
              <pre className="max-h-48 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap wrap-anywhere">
                {a.response_body}
              </pre>
            </>
          ) : null}
          <p className="text-xs text-slate-600">Event data</p>
          <pre className="max-h-48 overflow-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap wrap-anywhere">
            {JSON.stringify(d.payload, null, 2)}
          </pre>
        </div>
      </details>
    </li>
  );
}

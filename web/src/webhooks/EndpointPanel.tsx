import { formatDateTime, WEBHOOK_EVENT_DOCS, type WebhookEndpointView, WebhookMessages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, ConfirmDialog, Spinner } from '../ui';
import { attemptSummary, deleteWebhook, rotateSecret, sendTest, useWebhook, webhookAction } from './api';
import { DeliveryLog } from './DeliveryLog';

/** One endpoint: its events, signing secret (reveal, copy, rotate), test event, delete, and its delivery log. */
export function EndpointPanel({
  id,
  onEdit,
  onDeleted,
}: {
  id: number;
  onEdit: (w: WebhookEndpointView) => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const endpoint = useWebhook(id);
  const [revealed, setRevealed] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [testing, setTesting] = useState(false);
  const [testOutcome, setTestOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  if (endpoint.isLoading) return <Spinner label="Loading the endpoint" />;
  if (endpoint.isError || !endpoint.data)
    return (
      <Card>
        <p role="alert" className="text-sm text-danger-800">
          {errorEnvelope(endpoint.error, 'This endpoint could not be loaded.').message}
        </p>
      </Card>
    );
  const w = endpoint.data;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(w.secret ?? '');
      notifySuccess('Signing secret copied.');
    } catch {
      notifyError(null, 'The secret could not be copied: reveal it and copy it by hand.');
    }
  };
  const test = async () => {
    setTesting(true);
    setTestOutcome(null);
    try {
      const attempt = await webhookAction(queryClient, () => sendTest(w.id), WebhookMessages.testSent);
      if (attempt) setTestOutcome({ ok: attempt.succeeded, text: attemptSummary(attempt) });
    } catch {
      // webhookAction showed the message
    } finally {
      setTesting(false);
    }
  };

  return (
    <section aria-labelledby="endpoint-title" className="space-y-6" data-testid="endpoint-panel">
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0 space-y-1">
            <h2 id="endpoint-title" className="text-lg font-semibold text-slate-900 wrap-anywhere">
              {w.url}
            </h2>
            <p className="text-sm text-slate-600">
              {w.description ? `${w.description} · ` : ''}
              {w.entity.name} · added {formatDateTime(w.created_at)}
            </p>
          </div>
          {w.enabled ? <Badge tone="success">On</Badge> : <Badge>Paused</Badge>}
        </div>
        <div className="mt-4 flex flex-wrap gap-2">
          <Button onClick={() => void test()} disabled={testing}>
            {testing ? 'Sending…' : 'Send test event'}
          </Button>
          <Button variant="secondary" onClick={() => onEdit(w)}>
            Edit
          </Button>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        </div>
        {testOutcome ? (
          <p
            role="status"
            data-testid="test-outcome"
            className={`mt-3 text-sm ${testOutcome.ok ? 'text-success-800' : 'text-danger-800'}`}
          >
            {testOutcome.text}
          </p>
        ) : null}

        <h3 className="mt-6 text-sm font-semibold text-slate-900">Events</h3>
        <ul className="mt-2 space-y-1 text-sm">
          {w.event_types.map((t) => (
            <li key={t}>
              <span className="font-mono text-xs wrap-anywhere">{t}</span>
              <span className="text-slate-600"> · {WEBHOOK_EVENT_DOCS[t].description}</span>
            </li>
          ))}
        </ul>

        <h3 className="mt-6 text-sm font-semibold text-slate-900">Signing secret</h3>
        <p className="mt-1 text-sm text-slate-600">
          Your system checks each message's webhook-signature header with this secret (the Standard Webhooks
          convention). Keep it private.
        </p>
        <div className="mt-2 flex flex-wrap items-center gap-2">
          <code
            data-testid="signing-secret"
            className="min-w-0 max-w-full rounded bg-slate-100 px-2 py-1 font-mono text-xs wrap-anywhere"
          >
            {revealed ? w.secret : 'whsec_••••••••••••••••••••••••'}
          </code>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => setRevealed((r) => !r)}
            aria-pressed={revealed}
          >
            {revealed ? 'Hide' : 'Reveal'}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void copy()}>
            Copy
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setRotating(true)}>
            Rotate secret
          </Button>
        </div>
        {w.previous_secret_expires_at && new Date(w.previous_secret_expires_at) > new Date() ? (
          <p className="mt-2 text-sm text-warning-800">
            The previous secret also signs messages until {formatDateTime(w.previous_secret_expires_at)}.
          </p>
        ) : null}
      </Card>

      <DeliveryLog endpointId={w.id} />

      <ConfirmDialog
        open={rotating}
        title="Rotate the signing secret?"
        message="A new secret is created now. The old one keeps working for 24 hours, so you have time to update your system."
        confirmLabel="Rotate secret"
        tone="primary"
        onConfirm={async () => {
          await webhookAction(queryClient, () => rotateSecret(w.id), WebhookMessages.rotated);
          setRevealed(true);
        }}
        onClose={() => setRotating(false)}
      />
      <ConfirmDialog
        open={deleting}
        title="Delete this endpoint?"
        message={`${w.url} will receive no more events, and its delivery log is deleted.`}
        onConfirm={async () => {
          await webhookAction(queryClient, () => deleteWebhook(w.id), WebhookMessages.deleted);
          onDeleted();
        }}
        onClose={() => setDeleting(false)}
      />
    </section>
  );
}

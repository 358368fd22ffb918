import { formatDateTime, WEBHOOK_EVENT_DOCS, type WebhookEndpointView, WebhookMessages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorEnvelope } from '../entities/shared';
import { Badge, Button, Card, ConfirmDialog, Spinner } from '../ui';
import { attemptSummary, deleteWebhook, rotateSecret, sendTest, useWebhook, webhookAction } from './api';
import { DeliveryLog } from './DeliveryLog';
import { OneTimeSecret } from './OneTimeSecret';

/**
 * One endpoint: its events, signing secret (rotate; a new one shown once), test event, delete, and its delivery log.
 * `newSecret`: the secret the create or rotation just answered (issue 29 §14: no read shows it again), kept by the
 * page until `onSecretShown` says it was copied.
 */
export function EndpointPanel({
  id,
  onEdit,
  onDeleted,
  newSecret,
  onNewSecret,
  onSecretShown,
}: {
  id: number;
  onEdit: (w: WebhookEndpointView) => void;
  onDeleted: () => void;
  newSecret: string | null;
  onNewSecret: (secret: string) => void;
  onSecretShown: () => void;
}) {
  const queryClient = useQueryClient();
  const endpoint = useWebhook(id);
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
          convention). For safety it is shown only once, when the endpoint is added and each time the secret
          is rotated. Lost it? Rotate the secret to get a new one.
        </p>
        {newSecret ? <OneTimeSecret secret={newSecret} onDone={onSecretShown} /> : null}
        <div className="mt-2 flex flex-wrap items-center gap-2">
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
        message="A new secret is created now and shown to you once. The old one keeps working for 24 hours, so you have time to update your system."
        confirmLabel="Rotate secret"
        tone="primary"
        onConfirm={async () => {
          const rotated = await webhookAction<WebhookEndpointView>(
            queryClient,
            () => rotateSecret(w.id),
            WebhookMessages.rotated,
          );
          if (rotated?.secret) onNewSecret(rotated.secret);
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

import {
  CreateWebhookBody,
  SUBSCRIBABLE_WEBHOOK_EVENT_TYPES,
  UpdateWebhookBody,
  WEBHOOK_EVENT_DOCS,
  type WebhookEndpointView,
  WebhookMessages,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useWhitelabel } from '../app/whitelabel';
import { useEntityOptions } from '../entities/queries';
import { useFormSave } from '../entities/shared';
import { Checkbox, FormDialog, Select, TextArea, TextField } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { createWebhook, updateWebhook, webhookAction } from './api';

/**
 * `endpoint`: undefined = closed, null = add one, an endpoint = edit it. `onSaved` gets the saved endpoint (after a
 * create, with its signing secret: the one time it is shown).
 */
export function EndpointDialog({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpointView | null | undefined;
  onClose: () => void;
  onSaved?: (saved: WebhookEndpointView) => void;
}) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const creating = endpoint === null;
  const entities = useEntityOptions(creating);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [enabled, setEnabled] = useState(true);
  const [entity, setEntity] = useState('');
  // A server key such as `event_types.0` belongs to the `event_types` field.
  const save = useFormSave('The endpoint could not be saved.', {
    fieldKey: (key) => key.split('.')[0] as string,
  });
  const { errors, reset } = save;
  useEffect(() => {
    if (endpoint === undefined) return;
    setUrl(endpoint?.url ?? '');
    setDescription(endpoint?.description ?? '');
    setEvents(endpoint?.event_types ?? []);
    setEnabled(endpoint?.enabled ?? true);
    setEntity('');
    reset();
  }, [endpoint, reset]);

  const toggle = (type: string, on: boolean) =>
    setEvents((now) => (on ? [...now, type] : now.filter((t) => t !== type)));

  const submit = () => {
    if (endpoint === undefined) return;
    const body = {
      url: url.trim(),
      description: description.trim() || null,
      event_types: events,
      enabled,
      ...(creating && entity ? { entity } : {}),
    };
    if (!save.check(creating ? CreateWebhookBody.safeParse(body) : UpdateWebhookBody.safeParse(body))) return;
    void save.run(
      () =>
        webhookAction<WebhookEndpointView>(
          queryClient,
          () => (endpoint ? updateWebhook(endpoint.id, body) : createWebhook(body)),
          endpoint ? WebhookMessages.updated : WebhookMessages.created,
          { quietErrors: true },
        ),
      (saved) => {
        onClose();
        if (saved && typeof saved === 'object' && 'id' in saved) onSaved?.(saved);
      },
    );
  };

  return (
    <FormDialog
      open={endpoint !== undefined}
      title={creating ? 'Add an endpoint' : 'Edit endpoint'}
      description="We send a signed message to this address each time one of the chosen events happens."
      submitLabel={creating ? 'Add endpoint' : 'Save'}
      busy={save.busy}
      refusal={save.refusal}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label="Endpoint address"
        hint="The https:// address of the system that receives the events."
        required
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/webhooks/carecompliance"
        value={url}
        maxLength={2000}
        onChange={(e) => setUrl(e.target.value)}
        error={errors.url}
      />
      <TextArea
        label="Description"
        hint="Optional: what receives these events, so colleagues know."
        value={description}
        maxLength={500}
        onChange={(e) => setDescription(e.target.value)}
        error={errors.description}
      />
      {creating && (entities.data?.length ?? 0) > 1 ? (
        <Select
          label={organisationWord(wl)}
          hint={`Events of this ${organisationWord(wl).toLowerCase()} and those below it are sent.`}
          placeholder={`Your own ${organisationWord(wl).toLowerCase()}`}
          value={entity}
          onChange={(e) => setEntity(e.target.value)}
          options={(entities.data ?? []).map((e) => ({
            value: e.slug,
            label: e.parent ? `${e.name} (${e.parent})` : e.name,
          }))}
          error={errors.entity}
        />
      ) : null}
      <fieldset
        className="space-y-3"
        aria-describedby={errors.event_types ? 'webhook-events-error' : undefined}
      >
        <legend className="text-sm font-medium text-slate-800">Events to send</legend>
        {SUBSCRIBABLE_WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox
            key={type}
            label={<span className="font-mono text-xs wrap-anywhere">{type}</span>}
            hint={WEBHOOK_EVENT_DOCS[type].description}
            checked={events.includes(type)}
            onChange={(e) => toggle(type, e.target.checked)}
          />
        ))}
        {errors.event_types ? (
          <p id="webhook-events-error" className="text-sm text-danger-700">
            {errors.event_types[0]}
          </p>
        ) : null}
      </fieldset>
      <Checkbox
        label="Send events to this endpoint"
        hint="Turn it off to pause deliveries without deleting the endpoint."
        checked={enabled}
        onChange={(e) => setEnabled(e.target.checked)}
      />
    </FormDialog>
  );
}

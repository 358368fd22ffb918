import {
  BookingsMessages,
  type TrainingProviderSettings,
  TrainingProviderSettingsBody,
  type UnderMinimumAction,
} from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import {
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  useNotFoundRedirect,
  zodFieldErrors,
} from '../entities/shared';
import { RequestTrainingCompanyButton, TrainingCompanyStatusNotice } from '../entities/training-company';
import { Button, PageHeader, Select, TextField } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { bookingKeys, useProviderSettings } from './api';

type NumberKey = Exclude<keyof TrainingProviderSettingsBody, 'under_minimum_action'>;
type Form = Record<NumberKey, string> & { under_minimum_action: UnderMinimumAction };

/** Every number setting with its label and help text, grouped as the page shows them. */
export const PROVIDER_FIELDS: {
  title: string;
  description: string;
  fields: { key: NumberKey; label: string; hint: string; unit?: string }[];
}[] = [
  {
    title: 'Delegates',
    description: 'How bookings from other organisations are handled.',
    fields: [
      {
        key: 'delegate_auto_accept_period',
        label: 'Accept bookings automatically after (hours)',
        hint: 'A booking waiting for you is accepted on its own after this many hours. 0 accepts at once.',
      },
      {
        key: 'delegate_removal_cutoff_hours',
        label: 'Removal cut-off (hours before the start)',
        hint: 'After this, delegates cannot cancel and can only be removed by someone who may edit bookings.',
      },
    ],
  },
  {
    title: 'Session sizes',
    description: 'The usual fewest and most delegates, offered when a session is scheduled.',
    fields: [
      {
        key: 'practical_min_delegates',
        label: 'Practical sessions: fewest delegates',
        hint: 'Hands-on sessions, such as moving and handling.',
      },
      { key: 'practical_max_delegates', label: 'Practical sessions: most delegates', hint: 'At least 1.' },
      {
        key: 'theory_min_delegates',
        label: 'Theory sessions: fewest delegates',
        hint: 'Classroom sessions.',
      },
      { key: 'theory_max_delegates', label: 'Theory sessions: most delegates', hint: 'At least 1.' },
    ],
  },
  {
    title: 'Waiting list',
    description: 'When a place frees up, the person waiting longest is offered it.',
    fields: [
      {
        key: 'waitlist_claim_hours',
        label: 'Time to claim an offered place (hours)',
        hint: 'Between 1 and 168. Unclaimed, the place goes to the next person.',
      },
      {
        key: 'waitlist_cutoff_hours',
        label: 'No offers within (hours of the start)',
        hint: 'Too close to the start, freed places are not offered.',
      },
    ],
  },
  {
    title: 'Too few delegates',
    description: 'Before the start, a session under its fewest delegates is decided, and everyone is told.',
    fields: [
      {
        key: 'minimum_decision_hours',
        label: 'Decide (hours before the start)',
        hint: 'For example 72 decides three days before.',
      },
    ],
  },
];

const toForm = (s: TrainingProviderSettings): Form => {
  const form = { under_minimum_action: s.under_minimum_action } as Form;
  for (const g of PROVIDER_FIELDS) for (const f of g.fields) form[f.key] = String(s[f.key]);
  return form;
};

/** The PATCH body (every field; the server keeps what is unchanged) or the field errors, with the min ≤ max rule. */
export function providerBody(
  form: Form,
): { ok: true; body: TrainingProviderSettingsBody } | { ok: false; errors: FieldErrors } {
  const raw: Record<string, unknown> = { under_minimum_action: form.under_minimum_action };
  for (const g of PROVIDER_FIELDS)
    for (const f of g.fields) raw[f.key] = form[f.key].trim() === '' ? Number.NaN : Number(form[f.key]);
  const parsed = TrainingProviderSettingsBody.safeParse(raw);
  const errors: FieldErrors = parsed.success ? {} : zodFieldErrors(parsed.error);
  for (const kind of ['practical', 'theory'] as const) {
    const min = raw[`${kind}_min_delegates`] as number;
    const max = raw[`${kind}_max_delegates`] as number;
    if (min > max && !errors[`${kind}_min_delegates`])
      errors[`${kind}_min_delegates`] = [BookingsMessages.minAboveMax];
  }
  if (!parsed.success || Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, body: parsed.data };
}

/** `/entities/{slug}/training-provider-settings` (110; training companies). */
export default function TrainingProviderSettingsPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const settings = useProviderSettings(entity.data?.is_training_company ? slug : '');
  const [form, setForm] = useState<Form | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (settings.data && !form) setForm(toForm(settings.data));
  }, [settings.data, form]);
  const mutation = useMutation({
    mutationFn: async (body: TrainingProviderSettingsBody) =>
      (
        await api.patch<Envelope<TrainingProviderSettings>>(
          `/entities/${slug}/training-provider-settings`,
          body,
        )
      ).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? BookingsMessages.settingsUpdated);
      queryClient.setQueryData(bookingKeys.providerSettings(slug), res.data);
      setForm(toForm(res.data));
    },
  });
  const crumbs = entity.data
    ? [
        { label: organisationsWord(wl), to: '/entities' },
        { label: entity.data.name, to: `/entities/${entity.data.slug}` },
        { label: 'Training provider settings' },
      ]
    : [];
  if (entity.isLoading || settings.isLoading) return <LoadingCard />;
  if (entity.isError || !entity.data)
    return (
      <LoadError
        error={entity.error}
        fallback="This page could not be loaded."
        onRetry={() => void entity.refetch()}
      />
    );
  if (!entity.data.is_training_company)
    return (
      <div>
        <PageHeader title="Training provider settings" breadcrumbs={crumbs} />
        <LoadError
          error={null}
          fallback={`${entity.data.name} is not a training company: these settings are for organisations that run training for others.`}
        />
        <div className="mt-4">
          <RequestTrainingCompanyButton entity={entity.data} />
        </div>
      </div>
    );
  if (settings.isError || !form)
    return (
      <LoadError
        error={settings.error}
        fallback="The settings could not be loaded."
        onRetry={() => void settings.refetch()}
      />
    );
  const errors: FieldErrors = { ...serverFieldErrors(mutation.error), ...clientErrors };
  const submit = () => {
    const result = providerBody(form);
    if (!result.ok) return setClientErrors(result.errors);
    setClientErrors({});
    mutation.mutate(result.body);
  };
  return (
    <div>
      <PageHeader
        title="Training provider settings"
        description={`How ${entity.data.name} runs its sessions for other organisations.`}
        breadcrumbs={crumbs}
      />
      <form
        noValidate
        className="max-w-3xl space-y-5 pb-16 sm:pb-0"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TrainingCompanyStatusNotice entity={entity.data} />
        <SaveErrors error={mutation.error} clientErrors={clientErrors} />
        {PROVIDER_FIELDS.map((g) => (
          <FormSection key={g.title} title={g.title} description={g.description}>
            {g.fields.map((f) => (
              <TextField
                key={f.key}
                label={f.label}
                hint={f.hint}
                type="number"
                inputMode="numeric"
                min={0}
                max={720}
                value={form[f.key]}
                onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
                error={errors[f.key]}
              />
            ))}
            {g.title === 'Too few delegates' ? (
              <Select
                label="Then"
                options={[
                  { value: 'cancel', label: 'Cancel the session' },
                  { value: 'confirm', label: 'Run it anyway (confirm)' },
                ]}
                value={form.under_minimum_action}
                onChange={(e) =>
                  setForm({ ...form, under_minimum_action: e.target.value as UnderMinimumAction })
                }
                error={errors.under_minimum_action}
                hint="Sessions that reach their fewest delegates are always confirmed."
              />
            ) : null}
          </FormSection>
        ))}
        <div className="flex justify-end">
          <Button type="submit" loading={mutation.isPending}>
            Save settings
          </Button>
        </div>
      </form>
    </div>
  );
}

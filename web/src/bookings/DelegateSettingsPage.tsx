import { BookingsMessages, type DelegateSettings, type DelegateSettingsBody } from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { FormSection, LoadError, LoadingCard, SaveErrors, useNotFoundRedirect } from '../entities/shared';
import { Button, PageHeader, Toggle } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { bookingKeys, useDelegateSettings } from './api';

type Key = keyof DelegateSettingsBody;

export const DELEGATE_SWITCHES: { key: Key; label: string; hint: string }[] = [
  {
    key: 'require_approval',
    label: 'Bookings need a manager’s approval',
    hint: 'When staff book themselves or ask for a place, a manager approves it before they hold a place.',
  },
  {
    key: 'allow_self_cancel',
    label: 'Staff may cancel their own booking',
    hint: 'Up to the training provider’s removal cut-off before the session starts.',
  },
  {
    key: 'send_calendar_invites',
    label: 'E-mail calendar invites',
    hint: 'Delegates get an invite that updates itself when the session changes, and is withdrawn if it is cancelled.',
  },
  {
    key: 'notify_managers',
    label: 'Tell managers about their staff’s bookings',
    hint: 'Managers hear when their staff are booked, put on the waiting list or removed.',
  },
];

/** `/entities/{slug}/delegate-settings` (9 or 11): how this organisation's staff are booked (the four switches). */
export default function DelegateSettingsPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const settings = useDelegateSettings(slug);
  const [form, setForm] = useState<DelegateSettingsBody | null>(null);
  useEffect(() => {
    if (settings.data && !form) {
      const { entity_id: _id, ...values } = settings.data;
      setForm(values);
    }
  }, [settings.data, form]);
  const mutation = useMutation({
    mutationFn: async (body: DelegateSettingsBody) =>
      (await api.patch<Envelope<DelegateSettings>>(`/entities/${slug}/delegate-settings`, body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? BookingsMessages.settingsUpdated);
      queryClient.setQueryData(bookingKeys.delegateSettings(slug), res.data);
    },
  });
  if (entity.isLoading || settings.isLoading) return <LoadingCard />;
  if (entity.isError || !entity.data)
    return (
      <LoadError
        error={entity.error}
        fallback="This page could not be loaded."
        onRetry={() => void entity.refetch()}
      />
    );
  if (settings.isError || !form)
    return (
      <LoadError
        error={settings.error}
        fallback="The settings could not be loaded."
        onRetry={() => void settings.refetch()}
      />
    );
  return (
    <div>
      <PageHeader
        title="Delegate settings"
        description={`How staff of ${entity.data.name} are booked on face-to-face training.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entity.data.name, to: `/entities/${entity.data.slug}` },
          { label: 'Delegate settings' },
        ]}
      />
      <form
        noValidate
        className="max-w-3xl space-y-5 pb-16 sm:pb-0"
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate(form);
        }}
      >
        <SaveErrors error={mutation.error} clientErrors={{}} />
        <FormSection title="Bookings" columns={1}>
          {DELEGATE_SWITCHES.map((s) => (
            <div key={s.key} className="flex items-start justify-between gap-4">
              <div>
                <p className="text-sm font-medium text-slate-800" id={`${s.key}-label`}>
                  {s.label}
                </p>
                <p className="text-xs text-slate-600">{s.hint}</p>
              </div>
              <Toggle
                label={s.label}
                hideLabel
                labels={{ checked: 'On', unchecked: 'Off' }}
                checked={form[s.key]}
                onChange={(v) => setForm({ ...form, [s.key]: v })}
              />
            </div>
          ))}
        </FormSection>
        <div className="flex justify-end">
          <Button type="submit" loading={mutation.isPending}>
            Save settings
          </Button>
        </div>
      </form>
    </div>
  );
}

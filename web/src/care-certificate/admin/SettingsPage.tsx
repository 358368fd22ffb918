import {
  CARE_CERTIFICATE_DEFAULT_WEEKS,
  CareCertificateMessages,
  CareCertificatePerm,
  CareCertificateSettingsUpdate,
  type CareCertificateSettingsView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useActingAs } from '../../app/acting-as';
import { api, type Envelope } from '../../app/api';
import { useAuth, usePermission } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { useWhitelabel } from '../../app/whitelabel';
import {
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  zodFieldErrors,
} from '../../entities/shared';
import { Button, PageHeader, Select, TextField } from '../../ui';
import { ccAction, ccKeys, useCareCertificateSettings, useVersions } from './api';
import { NoPermission } from './HistoricalPage';

interface Form {
  expected_weeks: string;
  default_version_id: string;
}
const toForm = (s: CareCertificateSettingsView): Form => ({
  expected_weeks: String(s.expected_weeks),
  default_version_id: s.default_version_id === null ? '' : String(s.default_version_id),
});
const toBody = (f: Form) => ({
  expected_weeks: f.expected_weeks.trim() === '' ? Number.NaN : Number(f.expected_weeks),
  default_version_id: f.default_version_id ? Number(f.default_version_id) : null,
});

/** Where the values come from, like the delegate settings: this organisation, an ancestor, or the defaults. */
export function inheritedText(s: CareCertificateSettingsView, here: string | null): string {
  if (!s.inherited_from)
    return `The defaults apply (${CARE_CERTIFICATE_DEFAULT_WEEKS} weeks, the default version) until you save.`;
  if (s.inherited_from.id === s.entity_id)
    return `${here ?? 'This organisation'} has saved its own settings.`;
  return `Inherited from ${s.inherited_from.name} until you save settings for ${here ?? 'this organisation'}.`;
}

/**
 * /care-certificate/settings (86): the organisation in view's expected completion time (weeks after the start; a
 * certificate past it is overdue) and the version new certificates start on. Values are inherited from the nearest
 * organisation above that saved its own, else the defaults; a save here changes only the fields that changed.
 */
export default function CareCertificateSettingsPage() {
  const wl = useWhitelabel();
  const { user } = useAuth();
  const actingAs = useActingAs();
  const slug = actingAs?.slug ?? user?.a_entity?.slug ?? null;
  const here = actingAs?.name ?? user?.a_entity?.name ?? null;
  const allowed = usePermission([CareCertificatePerm.assign]);
  const queryClient = useQueryClient();
  const settings = useCareCertificateSettings(slug);
  const versions = useVersions();
  const [form, setForm] = useState<Form | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (settings.data) setForm(toForm(settings.data));
  }, [settings.data]);
  const title = `${wl.certificateGroupMenuName} settings`;
  if (!allowed)
    return (
      <NoPermission
        title={title}
        text="You need the permission to assign certificates to change these settings."
      />
    );
  if (settings.isLoading) return <LoadingCard />;
  if (settings.isError || !settings.data || !form)
    return (
      <LoadError
        error={settings.error}
        fallback="The settings could not be loaded."
        onRetry={() => void settings.refetch()}
      />
    );
  const s = settings.data;
  const save = async () => {
    const before = toBody(toForm(s));
    const after = toBody(form);
    const body: Record<string, unknown> = {};
    // An organisation that has not saved its own yet saves both, so it no longer follows the one above.
    const own = s.inherited_from?.id === s.entity_id;
    if (!own || before.expected_weeks !== after.expected_weeks) body.expected_weeks = after.expected_weeks;
    if (!own || before.default_version_id !== after.default_version_id)
      body.default_version_id = after.default_version_id;
    const parsed = CareCertificateSettingsUpdate.safeParse(body);
    if (!parsed.success) {
      setClientErrors(zodFieldErrors(parsed.error));
      return;
    }
    setClientErrors({});
    if (!Object.keys(body).length) {
      notifyError(null, 'Nothing has changed.');
      return;
    }
    setBusy(true);
    try {
      const saved = await ccAction<CareCertificateSettingsView>(
        queryClient,
        () => api.patch<Envelope<CareCertificateSettingsView>>('/care-certificate-settings', parsed.data),
        CareCertificateMessages.settingsUpdated,
      );
      if (saved) queryClient.setQueryData(ccKeys.settings(slug), saved);
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const errors = { ...serverFieldErrors(error), ...clientErrors };
  const defaultVersion = versions.data?.find((v) => v.is_default);
  return (
    <div>
      <PageHeader
        title={title}
        description={`How long new starters at ${here ?? 'this organisation'} have to complete it, and which version they start on.`}
        breadcrumbs={[{ label: wl.certificateGroupMenuName, to: '/care-certificate' }, { label: 'Settings' }]}
      />
      <form
        noValidate
        className="max-w-3xl space-y-5 pb-16 sm:pb-0"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <p
          className="rounded-lg bg-slate-50 px-4 py-3 text-sm text-slate-700 ring-1 ring-slate-200"
          data-testid="inherited"
        >
          {inheritedText(s, here)}
        </p>
        <SaveErrors error={error} clientErrors={clientErrors} />
        <FormSection title="New starters">
          <TextField
            label="Expected completion (weeks)"
            hint="Weeks after the start date; after that the certificate shows as overdue. 1 to 104."
            type="number"
            inputMode="numeric"
            min={1}
            max={104}
            required
            value={form.expected_weeks}
            onChange={(e) => setForm({ ...form, expected_weeks: e.target.value })}
            error={errors.expected_weeks}
          />
          <Select
            label="Version for new certificates"
            value={form.default_version_id}
            onChange={(e) => setForm({ ...form, default_version_id: e.target.value })}
            placeholder={`The default version${defaultVersion ? ` (${defaultVersion.title})` : ''}`}
            options={(versions.data ?? []).map((v) => ({ value: v.id, label: v.title }))}
            error={errors.default_version_id}
          />
        </FormSection>
        <div className="flex justify-end">
          <Button type="submit" loading={busy}>
            Save settings
          </Button>
        </div>
      </form>
    </div>
  );
}

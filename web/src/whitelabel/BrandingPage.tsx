import {
  ALLOWED_IMAGE_TYPES,
  DATE_FORMATS,
  type DateFormat,
  formatDate,
  MAX_IMAGE_BYTES,
  Messages,
  type Whitelabel,
  type WhitelabelFileField,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { parseHex, toHex } from '../app/theme';
import { applyWhitelabel, useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import {
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  useNotFoundRedirect,
} from '../entities/shared';
import { Button, PageHeader, Select, TextField } from '../ui';
import { BrandingPreview } from './BrandingPreview';
import {
  type BrandingForm,
  brandingFields,
  isHex,
  toFormData,
  validateBranding,
  whitelabelToForm,
} from './branding-form';

const COLOUR_LABELS: [keyof BrandingForm & string, string][] = [
  ['primaryColour', 'Primary'],
  ['secondaryColour', 'Secondary'],
  ['accentPrimaryColour', 'Accent'],
  ['accentSecondaryColour', 'Accent (secondary)'],
  ['successPrimaryColour', 'Success'],
  ['successSecondaryColour', 'Success (secondary)'],
  ['warningPrimaryColour', 'Warning'],
  ['warningSecondaryColour', 'Warning (secondary)'],
  ['dangerPrimaryColour', 'Danger'],
  ['dangerSecondaryColour', 'Danger (secondary)'],
];
const TRAFFIC_LABELS: [keyof BrandingForm & string, string][] = [
  ['trafficLightOk', 'Traffic light: OK'],
  ['trafficLightWarning', 'Traffic light: warning'],
  ['trafficLightDanger', 'Traffic light: danger'],
];
const LABELS: [keyof BrandingForm & string, string, string?][] = [
  ['companyName', 'Company name'],
  ['entityAltName', 'Name for one organisation', 'What people read for one of your places, e.g. Home, Site'],
  ['entitiesAltName', 'Name for several organisations', 'e.g. Homes, Sites'],
  ['certificateGroupMenuName', 'Certificate menu name'],
  ['primaryComplianceAltName', 'Primary compliance name', 'Default “Mandatory”.'],
  ['secondaryComplianceAltName', 'Secondary compliance name', 'Default “Required”.'],
];
const IMAGES: [WhitelabelFileField, string][] = [
  ['logo', 'Logo'],
  ['loginLogo', 'Sign-in logo'],
  ['favicon', 'Favicon'],
];

function ColourField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string[];
}) {
  const pickerValue = isHex(value) ? toHex(parseHex(value)) : '#000000';
  return (
    <div className="flex items-start gap-2">
      <input
        type="color"
        aria-label={`${label} colour picker`}
        value={pickerValue}
        onChange={(e) => onChange(e.target.value)}
        className="focus-ring mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
      />
      <div className="min-w-0 flex-1">
        <TextField
          label={label}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          error={error}
          spellCheck={false}
          maxLength={7}
        />
      </div>
    </div>
  );
}

function ImageField({
  label,
  current,
  file,
  removed,
  onFile,
  onRemove,
  error,
}: {
  label: string;
  current: string | null;
  file: File | null;
  removed: boolean;
  onFile: (file: File | null) => void;
  onRemove: () => void;
  error?: string[];
}) {
  const id = useId();
  const [tooBig, setTooBig] = useState<string | null>(null);
  const objectUrl = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (objectUrl ? URL.revokeObjectURL(objectUrl) : undefined), [objectUrl]);
  const shown = objectUrl ?? (removed ? null : current);
  const message = tooBig ?? error?.join(' ');
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex items-center gap-3">
        <div className="flex h-16 w-28 shrink-0 items-center justify-center rounded-lg bg-slate-50 ring-1 ring-slate-200">
          {shown ? (
            <img src={shown} alt={`${label} preview`} className="max-h-14 max-w-24 object-contain" />
          ) : (
            <span className="text-xs text-slate-500">None</span>
          )}
        </div>
        <div className="min-w-0 space-y-1.5">
          <input
            id={id}
            type="file"
            accept={ALLOWED_IMAGE_TYPES.join(',')}
            aria-describedby={message ? `${id}-error` : undefined}
            onChange={(e) => {
              const f = e.target.files?.[0] ?? null;
              if (f && f.size > MAX_IMAGE_BYTES) {
                setTooBig(`The ${label.toLowerCase()} may not be larger than 2 MB.`);
                e.target.value = '';
                return;
              }
              setTooBig(null);
              onFile(f);
            }}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200"
          />
          {shown ? (
            <Button size="sm" variant="ghost" className="text-danger-700" onClick={onRemove}>
              Remove {label.toLowerCase()}
            </Button>
          ) : null}
        </div>
      </div>
      {message ? (
        <p id={`${id}-error`} className="text-sm text-danger-700">
          {message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * `/entities/{slug}/branding` (spec 2 §3 white-label, §7): POST /entities/{slug}/whitelabel as multipart with
 * `_method=PATCH`. A live preview shows the edited colours; saving the acted-as entity re-applies the theme.
 */
export default function BrandingPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const actingAs = useActingAs();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const [original, setOriginal] = useState<BrandingForm | null>(null);
  const [form, setForm] = useState<BrandingForm | null>(null);
  const [current, setCurrent] = useState<Pick<Whitelabel, 'logo' | 'loginLogo' | 'favicon'> | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const w = entity.data?.whitelabel;
    if (w && !form) {
      const initial = whitelabelToForm(w);
      setOriginal(initial);
      setForm(initial);
      setCurrent({ logo: w.logo, loginLogo: w.loginLogo, favicon: w.favicon });
    }
  }, [entity.data, form]);

  const logoPreview = useMemo(() => {
    if (form?.files.logo) return URL.createObjectURL(form.files.logo);
    return form?.remove.logo ? null : (current?.logo ?? null);
  }, [form?.files.logo, form?.remove.logo, current?.logo]);

  if (entity.isLoading || (entity.data?.whitelabel && !form)) return <LoadingCard lines={8} />;
  if (entity.isError || !entity.data || !form || !original)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.somethingWentWrong}
        onRetry={() => void entity.refetch()}
      />
    );

  const e = entity.data;
  const errors: FieldErrors = { ...serverFieldErrors(saveError), ...clientErrors };
  const set = (key: keyof BrandingForm, value: string) => setForm({ ...form, [key]: value });
  const save = async () => {
    const invalid = validateBranding(form);
    setClientErrors(invalid);
    if (Object.keys(invalid).length) return;
    setSaving(true);
    setSaveError(null);
    try {
      const res = await api.upload<Envelope<Whitelabel>>(
        `/entities/${encodeURIComponent(e.slug)}/whitelabel`,
        toFormData(brandingFields(form, original)),
      );
      notifySuccess(res.data.message ?? Messages.whitelabelUpdated);
      const saved = res.data.data;
      const next = whitelabelToForm(saved);
      setOriginal(next);
      setForm(next);
      setCurrent({ logo: saved.logo, loginLogo: saved.loginLogo, favicon: saved.favicon });
      void queryClient.invalidateQueries({ queryKey: ['entities', 'one'] });
      // The theme in use follows the acted-as entity (spec 1 §4): re-apply it when that is the one edited.
      if (actingAs?.id === e.id || wl.entity?.id === e.id) applyWhitelabel(saved);
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div>
      <PageHeader
        title="Branding"
        description={`Colours, names and logos for ${e.name}.`}
        breadcrumbs={[
          { label: wl.entitiesAltName, to: '/entities' },
          { label: e.name, to: `/entities/${e.slug}` },
          { label: 'Branding' },
        ]}
      />
      <form
        noValidate
        onSubmit={(ev) => {
          ev.preventDefault();
          void save();
        }}
        className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_320px]"
      >
        <div className="min-w-0 space-y-5">
          <SaveErrors error={saveError} clientErrors={clientErrors} showFieldErrors />
          <FormSection
            title="Colours"
            description="Each colour makes a scale of nine shades; 500 is the colour itself."
          >
            {COLOUR_LABELS.map(([key, label]) => (
              <ColourField
                key={key}
                label={label}
                value={String(form[key])}
                onChange={(v) => set(key, v)}
                error={errors[key]}
              />
            ))}
          </FormSection>
          <FormSection
            title="Compliance scores"
            description="Traffic-light colours and where the score bands start."
          >
            {TRAFFIC_LABELS.map(([key, label]) => (
              <ColourField
                key={key}
                label={label}
                value={String(form[key])}
                onChange={(v) => set(key, v)}
                error={errors[key]}
              />
            ))}
            <span className="hidden sm:block" />
            <TextField
              label="Green from (%)"
              type="number"
              min={0}
              max={100}
              inputMode="numeric"
              value={form.greenScoreBandLowerMargin}
              onChange={(ev) => set('greenScoreBandLowerMargin', ev.target.value)}
              error={errors.greenScoreBandLowerMargin}
            />
            <TextField
              label="Amber from (%)"
              type="number"
              min={0}
              max={100}
              inputMode="numeric"
              hint="Below this is red."
              value={form.amberScoreBandLowerMargin}
              onChange={(ev) => set('amberScoreBandLowerMargin', ev.target.value)}
              error={errors.amberScoreBandLowerMargin}
            />
          </FormSection>
          <FormSection title="Names">
            {LABELS.map(([key, label, hint]) => (
              <TextField
                key={key}
                label={label}
                hint={hint}
                value={String(form[key])}
                onChange={(ev) => set(key, ev.target.value)}
                error={errors[key]}
                maxLength={key === 'companyName' ? 120 : 60}
              />
            ))}
            <Select
              label="Date format"
              hint={`How dates read on every page, PDF and spreadsheet: today is ${formatDate(new Date(), form.dateFormat as DateFormat)}.`}
              options={DATE_FORMATS.map((f) => ({ value: f, label: `${f} (${formatDate(new Date(), f)})` }))}
              value={form.dateFormat}
              onChange={(ev) => set('dateFormat', ev.target.value)}
              error={errors.dateFormat}
            />
            <div className="sm:col-span-2">
              <TextField
                label="Logo link"
                type="url"
                placeholder="https://"
                hint="Where clicking the logo goes. Leave blank for the start page."
                value={form.logoRedirectUrl}
                onChange={(ev) => set('logoRedirectUrl', ev.target.value)}
                error={errors.logoRedirectUrl}
              />
            </div>
          </FormSection>
          <FormSection title="Images" description="PNG, JPEG, GIF, WebP or ICO, up to 2 MB." columns={1}>
            {IMAGES.map(([field, label]) => (
              <ImageField
                key={field}
                label={label}
                current={current?.[field] ?? null}
                file={form.files[field]}
                removed={form.remove[field]}
                error={errors[field]}
                onFile={(f) =>
                  setForm({
                    ...form,
                    files: { ...form.files, [field]: f },
                    remove: { ...form.remove, [field]: false },
                  })
                }
                onRemove={() =>
                  setForm({
                    ...form,
                    files: { ...form.files, [field]: null },
                    remove: { ...form.remove, [field]: true },
                  })
                }
              />
            ))}
          </FormSection>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setForm(original)} disabled={saving}>
              Reset changes
            </Button>
            <Button type="submit" loading={saving}>
              Save branding
            </Button>
          </div>
        </div>
        <div className="lg:sticky lg:top-20 lg:self-start">
          <BrandingPreview form={form} logo={logoPreview} />
        </div>
      </form>
    </div>
  );
}

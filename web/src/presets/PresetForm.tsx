import {
  CARE_CERTIFICATE_FILTERS,
  CreatePresetBody,
  NEW_STARTERS_FILTERS,
  PRESET_COMPLIANCE_TYPES,
  PRESET_COURSE_TYPES,
  PRESET_FILTER_BY,
  PRESET_PERIODS,
  REPORT_TYPES,
  type ReportPreset,
  STATUS_TYPES,
} from '@cc/contracts';
import { type ReactNode, useState } from 'react';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Button, Checkbox, FormError, Select, TextField } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { fetchOptions, type OptionKind } from './api';
import { IdPicker } from './IdPicker';
import { emptyPreset, type PresetForm as Form, formToBody, LABELS, options, presetToForm } from './logic';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 border-t border-slate-200 pt-4 first:border-t-0 first:pt-0">
      <legend className="text-base font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

/**
 * Create or edit a report preset: every field of spec 2 §3 "Report preset". The body is checked with the contract's
 * schema first; the server's 422s (ids outside the scope, dates) show by their field.
 */
export function PresetForm({
  preset,
  entity,
  actingAsId,
  onSave,
  onCancel,
}: {
  preset: ReportPreset | null;
  /** The entity the preset is about (its own, or the acting-as one for a new preset): roles come from there. */
  entity: { id: number; slug: string; name: string } | null;
  actingAsId: number | null;
  onSave: (body: unknown) => Promise<void>;
  onCancel: () => void;
}) {
  const wl = useWhitelabel();
  const [form, setForm] = useState<Form>(() => (preset ? presetToForm(preset) : emptyPreset()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));
  const entityId = entity?.id ?? null;
  /** An IdPicker bound to its form field and to the options of the preset's entity. */
  const picker = (kind: OptionKind) => ({
    selected: form[kind],
    onChange: (ids: number[]) => set(kind, ids),
    error: errors[kind],
    load: (search: string) => fetchOptions(kind, entityId, { search }),
    resolve: (ids: number[]) => fetchOptions(kind, entityId, { ids }),
    queryKey: ['preset-options', kind, entityId] as const,
  });

  const submit = async () => {
    const body = formToBody(form, preset ? null : actingAsId);
    const parsed = CreatePresetBody.safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setError(null);
    setBusy(true);
    try {
      const { acting_as_id: _ignored, ...patch } = parsed.data;
      await onSave(preset ? patch : parsed.data);
    } catch (e) {
      setErrors(serverFieldErrors(e));
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const statusToggle = (status: (typeof STATUS_TYPES)[number], on: boolean) =>
    set(
      'includeStatusTypes',
      on ? [...form.includeStatusTypes, status] : form.includeStatusTypes.filter((s) => s !== status),
    );

  return (
    <form
      noValidate
      className="space-y-6"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {error ? (
        <FormError error={errorEnvelope(error, 'Could not save the preset.')} showFieldErrors={false} />
      ) : null}
      <Section title="Preset">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Name"
            required
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
            error={errors.name}
            maxLength={120}
          />
          <Select
            label="Report type"
            value={form.report_type}
            options={options(REPORT_TYPES, LABELS.report_type)}
            onChange={(e) => set('report_type', e.target.value as Form['report_type'])}
            error={errors.report_type}
          />
        </div>
        {entity ? (
          <p className="text-sm text-slate-600">
            Saved for <strong>{entity.name}</strong>; every choice below must belong to it.
          </p>
        ) : null}
      </Section>

      <Section title="Who">
        <IdPicker label={organisationsWord(wl)} {...picker('entities')} />
        <IdPicker label="Job roles" {...picker('roles')} />
        <IdPicker label="Users" {...picker('users')} />
        <IdPicker
          label="Pathways"
          hint="Pathways are not available yet."
          selected={form.pathways}
          onChange={(ids) => set('pathways', ids)}
          load={async () => []}
          queryKey={['preset-picker', 'pathways']}
          error={errors.pathways}
          disabled
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label="New starters"
            value={form.new_starters_filter}
            options={options(NEW_STARTERS_FILTERS, LABELS.new_starters_filter)}
            onChange={(e) => set('new_starters_filter', e.target.value as Form['new_starters_filter'])}
            error={errors.new_starters_filter}
          />
          <Select
            label={`${wl.certificateGroupMenuName} status`}
            value={form.care_certificate_filter}
            options={options(CARE_CERTIFICATE_FILTERS, LABELS.care_certificate_filter)}
            onChange={(e) =>
              set('care_certificate_filter', e.target.value as Form['care_certificate_filter'])
            }
            error={errors.care_certificate_filter}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Checkbox
            label="Include new starters"
            checked={form.includeStarters}
            onChange={(e) => set('includeStarters', e.target.checked)}
          />
          <Checkbox
            label="Only users who never logged in"
            checked={form.never_logged_in_only}
            onChange={(e) => set('never_logged_in_only', e.target.checked)}
          />
        </div>
      </Section>

      <Section title="What">
        <IdPicker label="Courses" {...picker('courses')} />
        <div className="grid gap-4 sm:grid-cols-3">
          <Select
            label="Compliance type"
            value={form.compliance_type}
            options={PRESET_COMPLIANCE_TYPES.map((v) => ({
              value: v,
              label:
                v === 'primary'
                  ? wl.primaryComplianceAltName
                  : v === 'secondary'
                    ? wl.secondaryComplianceAltName
                    : 'All',
            }))}
            onChange={(e) => set('compliance_type', e.target.value as Form['compliance_type'])}
            error={errors.compliance_type}
          />
          <Select
            label="Course type"
            value={form.course_type}
            placeholder="All types"
            options={options(PRESET_COURSE_TYPES, LABELS.course_type)}
            onChange={(e) => set('course_type', e.target.value as Form['course_type'])}
            error={errors.course_type}
          />
          <TextField
            label="Grade"
            value={form.grade}
            onChange={(e) => set('grade', e.target.value)}
            error={errors.grade}
            maxLength={50}
            hint="For example Pass."
          />
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Statuses shown</legend>
          <p className="text-xs text-slate-600">None ticked shows every status.</p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {STATUS_TYPES.map((status) => (
              <Checkbox
                key={status}
                label={LABELS.status[status]}
                checked={form.includeStatusTypes.includes(status)}
                onChange={(e) => statusToggle(status, e.target.checked)}
              />
            ))}
          </div>
        </fieldset>
        <Checkbox
          label={`${wl.primaryComplianceAltName} courses only`}
          checked={form.primary_only}
          onChange={(e) => set('primary_only', e.target.checked)}
        />
      </Section>

      <Section title="When">
        <div className="grid gap-4 sm:grid-cols-2">
          <Select
            label="Period"
            value={form.period}
            options={options(PRESET_PERIODS, LABELS.period)}
            onChange={(e) => set('period', e.target.value as Form['period'])}
            error={errors.period}
            hint="Used unless dates are given below."
          />
          <Select
            label="Filter dates by"
            value={form.filter_by}
            options={options(PRESET_FILTER_BY, LABELS.filter_by)}
            onChange={(e) => set('filter_by', e.target.value as Form['filter_by'])}
            error={errors.filter_by}
          />
          <TextField
            label="From date"
            type="date"
            value={form.from_date}
            onChange={(e) => set('from_date', e.target.value)}
            error={errors.from_date}
          />
          <TextField
            label="To date"
            type="date"
            value={form.to_date}
            onChange={(e) => set('to_date', e.target.value)}
            error={errors.to_date}
          />
          <TextField
            label="Previous months"
            type="number"
            inputMode="numeric"
            min={1}
            max={24}
            value={form.previousMonths}
            onChange={(e) => set('previousMonths', e.target.value)}
            error={errors.previousMonths}
            hint="Months of history in the compliance trend (1 to 24)."
          />
        </div>
        <Checkbox
          label="Show completion dates instead of expiry dates"
          checked={form.date_completion}
          onChange={(e) => set('date_completion', e.target.checked)}
        />
      </Section>

      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {preset ? 'Save preset' : 'Create preset'}
        </Button>
      </div>
    </form>
  );
}

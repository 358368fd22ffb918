import {
  CreateScheduleBody,
  DEFAULT_SCHEDULE_TIMEZONE,
  EXPORT_FORMATS,
  type ReportPreset,
  type ReportSchedule,
  recurrenceErrors,
  SCHEDULE_FREQUENCIES,
  WEEKDAYS,
} from '@cc/contracts';
import { useMemo, useState } from 'react';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Button, Checkbox, FormError, Select, TextArea, TextField } from '../ui';
import {
  emptySchedule,
  type ScheduleForm as Form,
  foldIndexedErrors,
  LABELS,
  options,
  scheduleFormToBody,
  scheduleSummary,
  scheduleToForm,
} from './logic';

function timeZones(current: string): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: string) => string[] };
  const all = intl.supportedValuesOf?.('timeZone') ?? [];
  return [...new Set([DEFAULT_SCHEDULE_TIMEZONE, current, 'UTC', ...all])];
}

/** Create or edit a schedule (permission 117): a preset, when, to whom, as PDF or XLSX. */
export function ScheduleForm({
  schedule,
  presets,
  presetId,
  email,
  onSave,
  onCancel,
}: {
  schedule: ReportSchedule | null;
  presets: ReportPreset[];
  presetId?: number;
  email?: string;
  onSave: (body: unknown) => Promise<void>;
  onCancel: () => void;
}) {
  const [form, setForm] = useState<Form>(() =>
    schedule ? scheduleToForm(schedule) : emptySchedule(presetId, email),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const zones = useMemo(() => timeZones(form.timezone), [form.timezone]);
  const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }));

  const submit = async () => {
    const body = scheduleFormToBody(form);
    const parsed = CreateScheduleBody.safeParse(body);
    const recurrence = recurrenceErrors(body);
    if (!parsed.success || Object.keys(recurrence).length) {
      setErrors({ ...(parsed.success ? {} : zodFieldErrors(parsed.error)), ...recurrence });
      return;
    }
    setErrors({});
    setError(null);
    setBusy(true);
    try {
      await onSave(parsed.data);
    } catch (e) {
      setErrors(foldIndexedErrors(serverFieldErrors(e)));
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const presetOptions = presets.map((p) => ({
    value: String(p.id),
    label: `${p.name} (${LABELS.report_type[p.report_type]})`,
  }));
  if (schedule && !presets.some((p) => p.id === schedule.preset.id))
    presetOptions.unshift({ value: String(schedule.preset.id), label: schedule.preset.name });

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {error ? (
        <FormError error={errorEnvelope(error, 'Could not save the schedule.')} showFieldErrors={false} />
      ) : null}
      <Select
        label="Preset"
        required
        value={form.preset_id}
        placeholder="Choose a preset"
        options={presetOptions}
        onChange={(e) => set('preset_id', e.target.value)}
        error={errors.preset_id}
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <Select
          label="Repeat"
          value={form.frequency}
          options={options(SCHEDULE_FREQUENCIES, LABELS.frequency)}
          onChange={(e) => set('frequency', e.target.value as Form['frequency'])}
          error={errors.frequency}
        />
        {form.frequency === 'weekly' ? (
          <Select
            label="On"
            value={form.weekday}
            options={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))}
            onChange={(e) => set('weekday', e.target.value)}
            error={errors.weekday}
          />
        ) : form.frequency === 'monthly' ? (
          <Select
            label="Day of the month"
            value={form.day_of_month}
            options={Array.from({ length: 28 }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }))}
            onChange={(e) => set('day_of_month', e.target.value)}
            error={errors.day_of_month}
            hint="1 to 28, so every month has it."
          />
        ) : null}
        <TextField
          label="At"
          type="time"
          required
          value={form.time}
          onChange={(e) => set('time', e.target.value)}
          error={errors.time}
        />
      </div>
      <Select
        label="Time zone"
        value={form.timezone}
        options={zones.map((z) => ({ value: z, label: z.replaceAll('_', ' ') }))}
        onChange={(e) => set('timezone', e.target.value)}
        error={errors.timezone}
        hint={
          /^([01]\d|2[0-3]):[0-5]\d$/.test(form.time)
            ? `${scheduleSummary({
                frequency: form.frequency,
                time: form.time,
                weekday: Number(form.weekday),
                day_of_month: Number(form.day_of_month),
              })}, ${form.timezone.replaceAll('_', ' ')} time.`
            : undefined
        }
      />
      <TextArea
        label="Recipients"
        required
        value={form.recipients}
        onChange={(e) => set('recipients', e.target.value)}
        error={errors.recipients}
        hint="E-mail addresses, one per line (up to 20)."
        rows={3}
      />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Format</legend>
        <div className="flex gap-6">
          {EXPORT_FORMATS.map((f) => (
            <label key={f} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="schedule-format"
                value={f}
                checked={form.format === f}
                onChange={() => set('format', f)}
                className="focus-ring h-4 w-4 accent-[var(--cc-primary-700)]"
              />
              {f === 'PDF' ? 'PDF' : 'Excel (XLSX)'}
            </label>
          ))}
        </div>
        {errors.format ? <p className="text-sm text-danger-700">{errors.format.join(' ')}</p> : null}
      </fieldset>
      <Checkbox
        label="Active"
        hint="A paused schedule sends nothing until it is resumed."
        checked={form.active}
        onChange={(e) => set('active', e.target.checked)}
      />
      <div className="flex flex-col-reverse gap-2 border-t border-slate-200 pt-4 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {schedule ? 'Save schedule' : 'Create schedule'}
        </Button>
      </div>
    </form>
  );
}

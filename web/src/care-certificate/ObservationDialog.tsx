import {
  CareCertificateMessages,
  type CertificateView,
  formatDateTime,
  OBSERVATION_OUTCOMES,
  OBSERVATION_SHIFTS,
  type ObservationView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useAuth } from '../app/auth';
import { errorEnvelope, type FieldErrors, serverFieldErrors } from '../entities/shared';
import { FormDialog, FormError, Select, TextArea, TextField } from '../ui';
import { errorText } from '../ui/Field';
import { ccAction, createObservation, updateObservation } from './api';
import { CriteriaChooser } from './CriteriaChooser';
import { OUTCOME_LABEL, SHIFT_LABEL } from './labels';
import {
  emptyObservation,
  type ObservationValues,
  observationBody,
  observationChanges,
  observationValues,
} from './observation-form';

export type ObservationMode =
  | { kind: 'new'; standardId?: number }
  | { kind: 'edit'; observation: ObservationView }
  | { kind: 'correct'; observation: ObservationView };

/** Radio buttons as large touch targets (a phone at 375 px). */
function Choice<T extends string>({
  legend,
  name,
  value,
  options,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  value: T | '';
  options: { value: T; label: string }[];
  onChange: (v: T) => void;
  error?: string[];
}) {
  const err = errorText(error);
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">
        {legend}
        <span className="text-danger-700" aria-hidden="true">
          {' '}
          *
        </span>
      </legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-primary-700 has-[:checked]:bg-primary-100"
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="h-4 w-4 accent-[var(--cc-primary-700)]"
            />
            {o.label}
          </label>
        ))}
      </div>
      {err ? <p className="text-sm text-danger-700">{err}</p> : null}
    </fieldset>
  );
}

/**
 * Record, edit (until approved) or correct (an approved one: a new record with the reason) an observation:
 * assessor (me by default), date and time, place, shift, what was observed, outcome, criteria by outcome.
 */
export function ObservationDialog({
  view,
  mode,
  onClose,
}: {
  view: CertificateView;
  mode: ObservationMode | null;
  onClose: () => void;
}) {
  const me = useAuth().user;
  const queryClient = useQueryClient();
  const [values, setValues] = useState<ObservationValues>(emptyObservation());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!mode) return;
    setErrors({});
    setRefusal(null);
    setValues(mode.kind === 'new' ? emptyObservation() : observationValues(mode.observation, me?.id));
  }, [mode, me?.id]);
  const set = <K extends keyof ObservationValues>(key: K, v: ObservationValues[K]) =>
    setValues((prev) => ({ ...prev, [key]: v }));

  const submit = async () => {
    if (!mode) return;
    setRefusal(null);
    const made = observationBody(values, mode.kind === 'correct' ? mode.observation : null);
    if (!made.ok) return setErrors(made.errors);
    setErrors({});
    setBusy(true);
    try {
      await ccAction(
        queryClient,
        () =>
          mode.kind === 'edit'
            ? updateObservation(
                view.uuid,
                mode.observation.id,
                observationChanges(mode.observation, made.body),
              )
            : createObservation(view.uuid, made.body),
        CareCertificateMessages.observationSaved,
        { quietErrors: true },
      );
      onClose();
    } catch (error) {
      const fields = serverFieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length)
        setRefusal(errorEnvelope(error, 'The observation could not be saved.').message ?? null);
    } finally {
      setBusy(false);
    }
  };

  const title =
    mode?.kind === 'edit'
      ? 'Edit the observation'
      : mode?.kind === 'correct'
        ? 'Correct the observation'
        : 'Record an observation';
  return (
    <FormDialog
      open={mode !== null}
      title={title}
      description={
        mode?.kind === 'correct'
          ? `The observation of ${formatDateTime(mode.observation.observed_at)} stays on record, struck through; this one replaces it.`
          : `${view.user.name}, observed at work.`
      }
      submitLabel={mode?.kind === 'correct' ? 'Save the correction' : 'Save observation'}
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      {mode?.kind === 'correct' ? (
        <TextArea
          label="Reason for the correction"
          required
          value={values.correction_reason}
          onChange={(e) => set('correction_reason', e.target.value)}
          error={errors.correction_reason}
        />
      ) : null}
      <Choice
        legend="Assessor"
        name="assessor"
        value={values.assessor}
        options={[
          { value: 'me', label: me ? `Me (${me.name})` : 'Me' },
          { value: 'other', label: 'Someone else' },
        ]}
        onChange={(v) => set('assessor', v)}
        error={errors.assessor_id}
      />
      {values.assessor === 'other' ? (
        <TextField
          label="Assessor’s name"
          required
          value={values.assessor_name}
          onChange={(e) => set('assessor_name', e.target.value)}
          error={errors.assessor_name}
          autoComplete="off"
        />
      ) : null}
      <TextField
        label="Date and time"
        type="datetime-local"
        required
        value={values.observed_at}
        onChange={(e) => set('observed_at', e.target.value)}
        error={errors.observed_at}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Place"
          required
          value={values.place}
          onChange={(e) => set('place', e.target.value)}
          hint="For example: Rose unit, lounge"
          error={errors.place}
        />
        <Select
          label="Shift"
          required
          value={values.shift}
          placeholder="Choose a shift"
          onChange={(e) => set('shift', e.target.value as ObservationValues['shift'])}
          options={OBSERVATION_SHIFTS.map((s) => ({ value: s, label: SHIFT_LABEL[s] }))}
          error={errors.shift}
        />
      </div>
      <TextArea
        label="What was observed"
        required
        value={values.observed}
        onChange={(e) => set('observed', e.target.value)}
        error={errors.observed}
      />
      <Choice
        legend="Outcome"
        name="outcome"
        value={values.outcome}
        options={OBSERVATION_OUTCOMES.map((o) => ({ value: o, label: OUTCOME_LABEL[o] }))}
        onChange={(v) => set('outcome', v)}
        error={errors.outcome}
      />
      <CriteriaChooser
        standards={view.standards}
        value={values.criterion_ids}
        onChange={(ids) => set('criterion_ids', ids)}
        error={errors.criterion_ids}
        initialStandardId={mode?.kind === 'new' ? mode.standardId : undefined}
        legend="Criteria observed"
      />
    </FormDialog>
  );
}

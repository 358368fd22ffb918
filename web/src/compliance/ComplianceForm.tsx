import { type ComplianceType, VALIDITY_MAX_MONTHS } from '@cc/contracts';
import { useState } from 'react';
import { Modal } from '../app/Modal';
import { hideModal, showModal } from '../app/modal';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope, type FieldErrors, serverFieldErrors } from '../entities/shared';
import { Button, FormError, Select, TextField } from '../ui';
import { type ComplianceInput, existingResultsOf } from './api';

export const EXISTING_RESULTS_MODAL = 'compliance-existing-results';

/** Type (labels from the white-label) and validity in months; empty validity = never expires. */
export function ComplianceFields({
  type,
  validity,
  onType,
  onValidity,
  errors,
}: {
  type: ComplianceType;
  validity: string;
  onType: (t: ComplianceType) => void;
  onValidity: (v: string) => void;
  errors: FieldErrors;
}) {
  const wl = useWhitelabel();
  return (
    <>
      <Select
        label="Type"
        value={type}
        options={[
          { value: 'primary', label: wl.primaryComplianceAltName },
          { value: 'secondary', label: wl.secondaryComplianceAltName },
        ]}
        onChange={(e) => onType(e.target.value as ComplianceType)}
        error={errors.type}
      />
      <TextField
        label="Validity (months)"
        type="number"
        inputMode="numeric"
        min={1}
        max={VALIDITY_MAX_MONTHS}
        value={validity}
        onChange={(e) => onValidity(e.target.value)}
        hint="How long a pass stays valid. Leave empty if it never expires."
        error={errors.validity}
      />
    </>
  );
}

/** '' → null (never expires); otherwise the number (the server answers 422 for anything out of range). */
export const parseValidity = (v: string): number | null => (v.trim() === '' ? null : Number(v));

/**
 * Saving with the existing-results flow of spec 2 §4: the first save sends no update_previous_results; on the
 * server's 409 marker a dialog asks "apply to previous results" or "only future results", then re-sends with the
 * answer. `save` is called with the input; `onSaved` after success.
 */
export function useComplianceSave<T>(save: (input: ComplianceInput) => Promise<T>, onSaved: (r: T) => void) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<ComplianceInput | null>(null);

  const run = async (input: ComplianceInput) => {
    setBusy(true);
    setErrors({});
    setError(null);
    try {
      const result = await save(input);
      setPending(null);
      hideModal(EXISTING_RESULTS_MODAL);
      onSaved(result);
    } catch (e) {
      const n = existingResultsOf(e);
      if (n !== null && input.update_previous_results === undefined) {
        setPending(input);
        showModal(EXISTING_RESULTS_MODAL, { count: n });
      } else {
        hideModal(EXISTING_RESULTS_MODAL);
        setErrors(serverFieldErrors(e));
        setError(e);
      }
    } finally {
      setBusy(false);
    }
  };
  const answer = (updatePrevious: boolean) => {
    if (pending) void run({ ...pending, update_previous_results: updatePrevious });
  };
  const dialog = <ExistingResultsDialog busy={busy} onAnswer={answer} />;
  const formError = error ? (
    <FormError error={errorEnvelope(error, 'Could not save.')} showFieldErrors={false} />
  ) : null;
  return { run, errors, busy, dialog, formError };
}

function ExistingResultsDialog({
  busy,
  onAnswer,
}: {
  busy: boolean;
  onAnswer: (updatePrevious: boolean) => void;
}) {
  return (
    <Modal<{ count: number }> name={EXISTING_RESULTS_MODAL} title="Existing results">
      {(data) => (
        <div className="space-y-4">
          <p className="text-sm text-slate-700">
            {data?.count === 1 ? '1 existing result is' : `${data?.count ?? 0} existing results are`} recorded
            for this course under this job role. Should the new validity re-date those results, or apply only
            to results recorded from now on?
          </p>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => hideModal(EXISTING_RESULTS_MODAL)}>
              Cancel
            </Button>
            <Button variant="secondary" onClick={() => onAnswer(false)} disabled={busy}>
              Only future results
            </Button>
            <Button onClick={() => onAnswer(true)} loading={busy}>
              Apply to previous results
            </Button>
          </div>
        </div>
      )}
    </Modal>
  );
}

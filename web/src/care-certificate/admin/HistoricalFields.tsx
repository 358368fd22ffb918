import type { HistoricalBody } from '@cc/contracts';
import type { FieldErrors } from '../../entities/shared';
import { Select, TextArea, TextField } from '../../ui';
import { useVersions } from './api';

/** The historical certificate's own fields as the form holds them (strings; '' = not given). */
export interface HistoricalForm {
  version_id: string;
  completed_on: string;
  started_on: string;
  provider: string;
  assessor_name: string;
  notes: string;
}

export function toHistoricalBody(f: HistoricalForm): Omit<HistoricalBody, 'user_id'> {
  return {
    version_id: f.version_id ? Number(f.version_id) : (undefined as unknown as number),
    completed_on: f.completed_on,
    started_on: f.started_on || null,
    provider: f.provider,
    assessor_name: f.assessor_name.trim() || null,
    notes: f.notes.trim() || null,
  };
}

export function HistoricalFields({
  form,
  set,
  errors,
}: {
  form: HistoricalForm;
  set: (patch: Partial<HistoricalForm>) => void;
  errors: FieldErrors;
}) {
  const versions = useVersions();
  return (
    <>
      <Select
        label="Version"
        required
        value={form.version_id}
        onChange={(e) => set({ version_id: e.target.value })}
        placeholder={versions.isLoading ? 'Loading…' : 'Choose a version'}
        options={(versions.data ?? []).map((v) => ({ value: v.id, label: v.title }))}
        error={errors.version_id}
      />
      <TextField
        label="Provider"
        required
        hint="Where it was completed."
        value={form.provider}
        onChange={(e) => set({ provider: e.target.value })}
        error={errors.provider}
        maxLength={200}
      />
      <TextField
        label="Started on"
        type="date"
        value={form.started_on}
        onChange={(e) => set({ started_on: e.target.value })}
        error={errors.started_on}
      />
      <TextField
        label="Completed on"
        type="date"
        required
        value={form.completed_on}
        onChange={(e) => set({ completed_on: e.target.value })}
        error={errors.completed_on}
      />
      <TextField
        label="Assessor"
        value={form.assessor_name}
        onChange={(e) => set({ assessor_name: e.target.value })}
        error={errors.assessor_name}
        maxLength={200}
      />
      <div className="sm:col-span-2">
        <TextArea
          label="Notes"
          value={form.notes}
          onChange={(e) => set({ notes: e.target.value })}
          error={errors.notes}
          maxLength={5000}
        />
      </div>
    </>
  );
}

import { type ReactNode, useState } from 'react';
import { isApiError } from '../../app/api';
import { serverFieldErrors } from '../../entities/shared';
import { Button, Checkbox, TextArea, TextField } from '../../ui';

export interface InlineField {
  name: string;
  label: string;
  kind?: 'text' | 'textarea' | 'number' | 'checkbox';
  required?: boolean;
  /** Grid width on wide screens. */
  wide?: boolean;
}
export type InlineValues = Record<string, string | boolean>;

/**
 * A small form in place (add or edit one standard, outcome or criterion): the fields, Save and Cancel, the server's
 * field errors beside the fields. `onSave` rejects on failure (the form stays open with the errors).
 */
export function InlineForm({
  fields,
  initial,
  onSave,
  onCancel,
  saveLabel = 'Save',
  label,
}: {
  fields: InlineField[];
  initial: InlineValues;
  onSave: (values: InlineValues) => Promise<unknown>;
  onCancel: () => void;
  saveLabel?: string;
  label: string;
}) {
  const [values, setValues] = useState<InlineValues>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errors = serverFieldErrors(error);
  const submit = async () => {
    setBusy(true);
    try {
      await onSave(values);
      setError(null);
    } catch (e) {
      if (isApiError(e)) setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      aria-label={label}
      className="space-y-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-4">
        {fields.map((f) => {
          const common = { key: f.name, label: f.label, required: f.required, error: errors[f.name] };
          const span = f.wide ? 'sm:col-span-3' : 'sm:col-span-1';
          if (f.kind === 'checkbox')
            return (
              <div key={f.name} className="flex items-center sm:col-span-4">
                <Checkbox
                  label={f.label}
                  checked={Boolean(values[f.name])}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.checked })}
                  error={errors[f.name]}
                />
              </div>
            );
          if (f.kind === 'textarea')
            return (
              <div key={f.name} className={span}>
                <TextArea
                  {...common}
                  value={String(values[f.name] ?? '')}
                  onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
                  className="min-h-16"
                />
              </div>
            );
          return (
            <div key={f.name} className={span}>
              <TextField
                {...common}
                type={f.kind === 'number' ? 'number' : 'text'}
                inputMode={f.kind === 'number' ? 'numeric' : undefined}
                value={String(values[f.name] ?? '')}
                onChange={(e) => setValues({ ...values, [f.name]: e.target.value })}
              />
            </div>
          );
        })}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" size="sm" loading={busy}>
          {saveLabel}
        </Button>
      </div>
    </form>
  );
}

/** A row that shows its text, and an "Edit" / "Delete" pair that open an InlineForm or a confirm. */
export function EditableRow({
  children,
  editing,
  form,
  actions,
}: {
  children: ReactNode;
  editing: boolean;
  form: ReactNode;
  actions: ReactNode;
}) {
  if (editing) return <>{form}</>;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 flex-1">{children}</div>
      <div className="flex shrink-0 flex-wrap gap-1">{actions}</div>
    </div>
  );
}

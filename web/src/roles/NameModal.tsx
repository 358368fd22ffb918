import { useEffect, useState } from 'react';
import type { ZodType } from 'zod';
import { Modal } from '../app/Modal';
import { hideModal, useModal } from '../app/modal';
import { errorEnvelope, type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { Button, FormError, TextField, Toggle } from '../ui';

/** What the role/type modal edits: a name and, for job roles, the inspectable flag. */
export interface NameItem {
  id?: number;
  name: string;
  inspectable?: boolean;
}

/**
 * Create or rename a job role or user type, in the app's named modal (spec 1 §2): shown with
 * `showModal(name, item)` (no id = create). The zod schema is the contract's body; 422s show by the field.
 */
export function NameModal({
  name,
  noun,
  schema,
  withInspectable = false,
  onSave,
}: {
  name: string;
  noun: string;
  schema: ZodType;
  withInspectable?: boolean;
  onSave: (item: NameItem, body: unknown) => Promise<void>;
}) {
  const { data } = useModal<NameItem>(name);
  const title = data?.id ? `Edit ${noun.toLowerCase()}` : `Add ${noun.toLowerCase()}`;
  return (
    <Modal<NameItem> name={name} title={title}>
      {(item) =>
        item ? (
          <NameForm
            key={item.id ?? 'new'}
            modal={name}
            noun={noun}
            item={item}
            schema={schema}
            withInspectable={withInspectable}
            onSave={onSave}
          />
        ) : null
      }
    </Modal>
  );
}

function NameForm({
  modal,
  noun,
  item,
  schema,
  withInspectable,
  onSave,
}: {
  modal: string;
  noun: string;
  item: NameItem;
  schema: ZodType;
  withInspectable: boolean;
  onSave: (item: NameItem, body: unknown) => Promise<void>;
}) {
  const [value, setValue] = useState(item.name);
  const [inspectable, setInspectable] = useState(Boolean(item.inspectable));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setValue(item.name);
    setInspectable(Boolean(item.inspectable));
  }, [item]);
  const submit = async () => {
    const parsed = schema.safeParse(withInspectable ? { name: value, inspectable } : { name: value });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setError(null);
    setBusy(true);
    try {
      await onSave(item, parsed.data);
      hideModal(modal);
    } catch (e) {
      setErrors(serverFieldErrors(e));
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {error ? <FormError error={errorEnvelope(error, 'Could not save.')} showFieldErrors={false} /> : null}
      <TextField
        label="Name"
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
        error={errors.name}
        autoFocus
      />
      {withInspectable ? (
        <div className="space-y-1">
          <Toggle label="Inspectable" checked={inspectable} onChange={setInspectable} />
          <p className="pl-[58px] text-xs text-slate-600">Included when inspectors review compliance.</p>
        </div>
      ) : null}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => hideModal(modal)}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {item.id ? 'Save' : `Add ${noun.toLowerCase()}`}
        </Button>
      </div>
    </form>
  );
}

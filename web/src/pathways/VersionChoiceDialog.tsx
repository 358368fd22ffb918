import {
  PATHWAY_VERSION_CHOICES,
  type PathwayChangesView,
  PathwayMessages,
  type PathwayVersionChoice,
} from '@cc/contracts';
import { useId, useState } from 'react';
import { Badge, FormDialog, FormError, TextArea } from '../ui';
import { allChosen } from './editor';
import { CHANGE_KIND, VERSION_CHOICE } from './labels';

/**
 * Saving steps of a pathway that people are working through makes a new version: this dialog lists each added,
 * changed or removed step (POST /pathways/{id}/changes) and asks what happens to the people in progress, per
 * change, with a change note. Nothing is saved until every change has a choice. The editor mounts it afresh (a
 * `key`) for each preview, so a second save attempt starts from clean answers.
 */
export function VersionChoiceDialog({
  open,
  preview,
  busy,
  error,
  onSave,
  onClose,
}: {
  open: boolean;
  preview: PathwayChangesView | null;
  busy: boolean;
  /** The server's refusal of the save (e.g. 422 choices). */
  error?: string | null;
  onSave: (choices: Record<string, PathwayVersionChoice>, note: string) => void;
  onClose: () => void;
}) {
  const [choices, setChoices] = useState<Record<string, PathwayVersionChoice>>({});
  const [note, setNote] = useState('');
  const [missing, setMissing] = useState(false);
  if (!preview) return null;
  const submit = () => {
    if (!allChosen(preview, choices)) return setMissing(true);
    setMissing(false);
    onSave(choices, note);
  };
  return (
    <FormDialog
      open={open}
      title="Save as a new version"
      description={`${preview.in_progress} ${preview.in_progress === 1 ? 'person is' : 'people are'} working through this pathway. For each change, choose what happens to them; people given the pathway from now on get the new version.`}
      submitLabel="Save the new version"
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
    >
      {missing ? <FormError error={{ message: PathwayMessages.choicesMissing }} /> : null}
      {error ? <FormError error={{ message: error }} /> : null}
      <ul className="space-y-4" aria-label="Changes">
        {preview.changes.map((change) => (
          <ChangeChoice
            key={change.step_key}
            title={change.title}
            kind={CHANGE_KIND[change.change]}
            value={choices[change.step_key]}
            invalid={missing && !choices[change.step_key]}
            onChange={(choice) => setChoices((c) => ({ ...c, [change.step_key]: choice }))}
          />
        ))}
      </ul>
      <TextArea
        label="Change note"
        hint="Kept in the pathway's history: what changed and why."
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={1000}
      />
    </FormDialog>
  );
}

function ChangeChoice({
  title,
  kind,
  value,
  invalid,
  onChange,
}: {
  title: string;
  kind: string;
  value: PathwayVersionChoice | undefined;
  invalid: boolean;
  onChange: (choice: PathwayVersionChoice) => void;
}) {
  const name = useId();
  return (
    <li>
      <fieldset
        className={invalid ? 'rounded-lg p-3 ring-2 ring-danger-600' : 'rounded-lg p-3 ring-1 ring-slate-200'}
        aria-invalid={invalid || undefined}
      >
        <legend className="flex flex-wrap items-center gap-2 px-1 text-sm font-semibold text-slate-900">
          <Badge tone="neutral">{kind}</Badge>
          {title}
        </legend>
        <div className="mt-2 space-y-2">
          {PATHWAY_VERSION_CHOICES.map((choice) => (
            <label key={choice} className="flex cursor-pointer items-start gap-2 text-sm">
              <input
                type="radio"
                name={name}
                value={choice}
                checked={value === choice}
                onChange={() => onChange(choice)}
                className="mt-0.5 h-4 w-4 text-primary-700 focus:ring-primary-300"
              />
              <span>
                <span className="font-medium text-slate-900">{VERSION_CHOICE[choice].label}</span>
                <span className="block text-xs text-slate-600">{VERSION_CHOICE[choice].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    </li>
  );
}

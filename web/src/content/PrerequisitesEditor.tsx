import { useId } from 'react';
import { Button, Checkbox } from '../ui';
import { addPrereqOption, type PrereqOption, removePrereqOption, togglePrereq } from './logic';

/**
 * Prerequisites (spec 2 §3): a list of options, each a set of contents; a learner who has fully passed every
 * content of any one option may start this content. Each option is a group of checkboxes (a keyboard-friendly
 * multi-select) over the other contents.
 */
export function PrerequisitesEditor({
  value,
  onChange,
  contents,
  selfId,
  error,
}: {
  value: PrereqOption[];
  onChange: (next: PrereqOption[]) => void;
  contents: { id: number; title: string }[] | undefined;
  selfId: number | null;
  error?: string[];
}) {
  const hintId = useId();
  const choices = (contents ?? []).filter((c) => c.id !== selfId);
  return (
    <div className="space-y-3" aria-describedby={hintId}>
      <p id={hintId} className="text-sm text-slate-600">
        Learners can start this content once they have fully passed <strong>any one</strong> option. Within an
        option, every ticked content is needed. With no options, anyone can start it.
      </p>
      {value.map((option, index) => (
        <fieldset key={option.key} className="rounded-lg p-4 ring-1 ring-slate-200">
          <legend className="px-1 text-sm font-semibold text-slate-900">
            {index === 0 ? 'Option 1' : `Or option ${index + 1}`}
          </legend>
          {contents === undefined ? (
            <p className="text-sm text-slate-600">Loading contents…</p>
          ) : choices.length ? (
            <div className="grid max-h-56 grid-cols-1 gap-2 overflow-y-auto sm:grid-cols-2">
              {choices.map((c) => (
                <Checkbox
                  key={c.id}
                  label={c.title}
                  checked={option.ids.includes(c.id)}
                  onChange={(e) => onChange(togglePrereq(value, option.key, c.id, e.target.checked))}
                />
              ))}
            </div>
          ) : (
            <p className="text-sm text-slate-600">There is no other content to choose yet.</p>
          )}
          <div className="mt-3 flex items-center justify-between gap-2">
            <span className="text-xs text-slate-600">
              {option.ids.length
                ? `${option.ids.length} selected`
                : 'Nothing selected: this option is ignored.'}
            </span>
            <Button size="sm" variant="ghost" onClick={() => onChange(removePrereqOption(value, option.key))}>
              Remove option {index + 1}
            </Button>
          </div>
        </fieldset>
      ))}
      {error?.length ? <p className="text-sm text-danger-700">{error.join(' ')}</p> : null}
      <Button size="sm" variant="secondary" onClick={() => onChange(addPrereqOption(value))}>
        Add an option
      </Button>
    </div>
  );
}

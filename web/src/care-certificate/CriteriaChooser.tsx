import type { StandardProgress } from '@cc/contracts';
import { useId, useState } from 'react';
import { Select } from '../ui';
import { errorText } from '../ui/Field';

/**
 * Criteria checkboxes for a form (evidence, observation): one standard at a time (a select, so the list stays short
 * on a phone), its criteria grouped by outcome; choices in other standards are kept and counted.
 */
export function CriteriaChooser({
  standards,
  value,
  onChange,
  error,
  initialStandardId,
  legend = 'Criteria',
}: {
  standards: StandardProgress[];
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string[];
  initialStandardId?: number;
  legend?: string;
}) {
  const withCriteria = [...standards].filter((s) => s.criteria_total > 0).sort((a, b) => a.number - b.number);
  const [standardId, setStandardId] = useState<number | undefined>(
    initialStandardId ?? withCriteria.find((s) => s.state !== 'approved')?.id ?? withCriteria[0]?.id,
  );
  const standard = withCriteria.find((s) => s.id === standardId);
  const errorId = useId();
  const err = errorText(error);
  const chosen = new Set(value);
  const toggle = (id: number, on: boolean) =>
    onChange(on ? [...value.filter((v) => v !== id), id] : value.filter((v) => v !== id));
  const countIn = (s: StandardProgress) =>
    s.outcomes.flatMap((o) => o.criteria).filter((c) => chosen.has(c.id)).length;
  return (
    <fieldset className="space-y-3" aria-describedby={err ? errorId : undefined}>
      <legend className="text-sm font-medium text-slate-800">
        {legend}
        <span className="text-danger-700" aria-hidden="true">
          {' '}
          *
        </span>
        <span className="ml-2 text-xs font-normal text-slate-600">{value.length} chosen</span>
      </legend>
      {withCriteria.length ? (
        <Select
          label="Standard"
          value={standardId ?? ''}
          onChange={(e) => setStandardId(Number(e.target.value))}
          options={withCriteria.map((s) => {
            const n = countIn(s);
            return { value: s.id, label: `${s.number}. ${s.title}${n ? ` (${n} chosen)` : ''}` };
          })}
        />
      ) : (
        <p className="text-sm text-slate-700">No standard of this version has assessment criteria yet.</p>
      )}
      {standard ? (
        <div className="max-h-80 space-y-3 overflow-y-auto rounded-lg border border-slate-200 p-3">
          {standard.outcomes
            .filter((o) => o.criteria.length)
            .map((o) => (
              <fieldset key={o.id} className="space-y-2">
                <legend className="text-xs font-semibold tracking-wide text-slate-700 uppercase">
                  {o.code}
                  {o.title ? ` ${o.title}` : ''}
                </legend>
                {o.criteria.map((c) => (
                  <label
                    key={c.id}
                    className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md px-1 py-1.5 hover:bg-slate-50"
                  >
                    <input
                      type="checkbox"
                      className="focus-ring mt-0.5 h-5 w-5 shrink-0 rounded border-slate-400 accent-[var(--cc-primary-700)]"
                      checked={chosen.has(c.id)}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                    />
                    <span className="text-sm text-slate-800">
                      <span className="font-semibold">{c.code}</span> {c.text}
                    </span>
                  </label>
                ))}
              </fieldset>
            ))}
        </div>
      ) : null}
      {err ? (
        <p id={errorId} className="text-sm text-danger-700">
          {err}
        </p>
      ) : null}
    </fieldset>
  );
}

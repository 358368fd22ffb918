import { useId } from 'react';
import type { FieldErrors } from '../entities/shared';
import { Button, Checkbox, TextField } from '../ui';
import { MAX_OPTIONS, MIN_OPTIONS, type QuestionDraft } from './checks';

/**
 * The optional check question of a document: the question, 2–6 answers and which one is right (a radio beside each
 * answer, so the right one is chosen where it is read). Errors are keyed as checks.ts `questionOf` gives them.
 */
export function CheckQuestionFields({
  value,
  onChange,
  errors,
}: {
  value: QuestionDraft;
  onChange: (next: QuestionDraft) => void;
  errors: FieldErrors;
}) {
  const name = useId();
  const setOption = (i: number, text: string) =>
    onChange({ ...value, options: value.options.map((o, j) => (j === i ? text : o)) });
  const removeOption = (i: number) =>
    onChange({
      ...value,
      options: value.options.filter((_, j) => j !== i),
      // The right answer moves with its text; removing it clears the choice.
      correct:
        value.correct === null || value.correct === i
          ? null
          : value.correct > i
            ? value.correct - 1
            : value.correct,
    });
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4" data-testid="check-question">
      <legend className="px-1 text-sm font-medium text-slate-800">Check question</legend>
      <Checkbox
        label="Ask a short question before people acknowledge"
        hint="Optional. They must choose the right answer to confirm they have read it."
        checked={value.enabled}
        onChange={(e) => onChange({ ...value, enabled: e.target.checked })}
      />
      {value.enabled ? (
        <div className="space-y-3">
          <TextField
            label="Question"
            required
            value={value.question}
            maxLength={500}
            onChange={(e) => onChange({ ...value, question: e.target.value })}
            error={errors.question}
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Answers (choose the right one)</legend>
            {value.options.map((option, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: answers are positional (their index is the answer)
              <div key={i} className="flex items-start gap-2">
                <input
                  type="radio"
                  name={name}
                  className="focus-ring mt-3 h-4 w-4 shrink-0 accent-[var(--cc-primary-700)]"
                  checked={value.correct === i}
                  onChange={() => onChange({ ...value, correct: i })}
                  aria-label={`Answer ${i + 1} is the right answer`}
                />
                <div className="min-w-0 flex-1">
                  <TextField
                    label={`Answer ${i + 1}`}
                    hideLabel
                    placeholder={`Answer ${i + 1}`}
                    value={option}
                    maxLength={200}
                    onChange={(e) => setOption(i, e.target.value)}
                    error={errors[`options.${i}`]}
                  />
                </div>
                {value.options.length > MIN_OPTIONS ? (
                  <Button
                    variant="secondary"
                    size="sm"
                    className="mt-1"
                    aria-label={`Remove answer ${i + 1}`}
                    onClick={() => removeOption(i)}
                  >
                    Remove
                  </Button>
                ) : null}
              </div>
            ))}
            {errors.options || errors.check_question ? (
              <p className="text-sm text-danger-700">
                {[...(errors.options ?? []), ...(errors.check_question ?? [])].join(' ')}
              </p>
            ) : null}
            {errors.correct ? (
              <p className="text-sm text-danger-700" data-testid="correct-error">
                {errors.correct.join(' ')}
              </p>
            ) : null}
            {value.options.length < MAX_OPTIONS ? (
              <Button
                variant="secondary"
                size="sm"
                onClick={() => onChange({ ...value, options: [...value.options, ''] })}
              >
                Add an answer
              </Button>
            ) : null}
          </fieldset>
        </div>
      ) : null}
    </fieldset>
  );
}

import { Button, Checkbox, TextArea, TextField } from '../ui';
import { type AnswerState, newAnswer, newQuestion, type QuestionState } from './logic';

/**
 * The questions of a quiz, each with its answers: add/remove a question, add/remove an answer, mark the correct
 * ones, and move questions up/down. Errors are keyed by the server's field paths (`questions.0.answers`).
 */
export function QuestionsEditor({
  questions,
  onChange,
  onMove,
  errors,
  moving,
}: {
  questions: QuestionState[];
  onChange: (next: QuestionState[]) => void;
  /** Move question `index` by `delta` (the page may save the order at once). */
  onMove: (index: number, delta: -1 | 1) => void;
  errors: Record<string, string[]>;
  moving: boolean;
}) {
  const setQuestion = (key: string, patch: Partial<QuestionState>) =>
    onChange(questions.map((q) => (q.key === key ? { ...q, ...patch } : q)));
  const setAnswer = (q: QuestionState, key: string, patch: Partial<AnswerState>) =>
    setQuestion(q.key, { answers: q.answers.map((a) => (a.key === key ? { ...a, ...patch } : a)) });
  return (
    <div className="space-y-4">
      {questions.length === 0 ? (
        <p className="text-sm text-slate-600">No questions yet. A quiz needs at least one to be useful.</p>
      ) : null}
      {questions.map((q, i) => {
        const answersError = errors[`questions.${i}.answers`];
        return (
          <fieldset key={q.key} className="space-y-3 rounded-lg p-4 ring-1 ring-slate-200">
            <legend className="px-1 text-sm font-semibold text-slate-900">Question {i + 1}</legend>
            <TextArea
              label={`Question ${i + 1} text`}
              className="min-h-16"
              value={q.text}
              onChange={(e) => setQuestion(q.key, { text: e.target.value })}
              error={errors[`questions.${i}.text`]}
            />
            <fieldset className="space-y-2">
              <legend className="sr-only">Answers to question {i + 1}</legend>
              {q.answers.map((a, j) => (
                <div key={a.key} className="flex flex-col gap-2 sm:flex-row sm:items-start">
                  <div className="min-w-0 flex-1">
                    <TextField
                      label={`Question ${i + 1}, answer ${j + 1}`}
                      value={a.text}
                      onChange={(e) => setAnswer(q, a.key, { text: e.target.value })}
                      error={errors[`questions.${i}.answers.${j}.text`]}
                    />
                  </div>
                  <div className="flex items-center gap-3 sm:pt-8">
                    <Checkbox
                      label="Correct"
                      aria-label={`Answer ${j + 1} of question ${i + 1} is correct`}
                      checked={a.is_correct}
                      onChange={(e) => setAnswer(q, a.key, { is_correct: e.target.checked })}
                    />
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove answer ${j + 1} of question ${i + 1}`}
                      onClick={() =>
                        setQuestion(q.key, { answers: q.answers.filter((x) => x.key !== a.key) })
                      }
                    >
                      Remove
                    </Button>
                  </div>
                </div>
              ))}
              {answersError ? <p className="text-sm text-danger-700">{answersError.join(' ')}</p> : null}
            </fieldset>
            <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3">
              <Button
                size="sm"
                variant="secondary"
                onClick={() => setQuestion(q.key, { answers: [...q.answers, newAnswer()] })}
              >
                Add an answer
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Move question ${i + 1} up`}
                disabled={i === 0 || moving}
                onClick={() => onMove(i, -1)}
              >
                Up
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Move question ${i + 1} down`}
                disabled={i === questions.length - 1 || moving}
                onClick={() => onMove(i, 1)}
              >
                Down
              </Button>
              <Button
                size="sm"
                variant="ghost"
                className="text-danger-700"
                onClick={() => onChange(questions.filter((x) => x.key !== q.key))}
              >
                Remove question {i + 1}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <Button variant="secondary" onClick={() => onChange([...questions, newQuestion()])}>
        Add a question
      </Button>
    </div>
  );
}

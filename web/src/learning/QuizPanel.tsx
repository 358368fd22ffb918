import type { Attempt, QuizOutcome, QuizSheet } from '@cc/contracts';
import { useState } from 'react';
import { isApiError } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Badge, Button } from '../ui';
import { type StructureQuiz, takeQuizStart, takeQuizSubmit } from './api';
import { choose, isMultiple, type QuizAnswers, toResponses, unanswered } from './quiz-state';

/**
 * A quiz of the attempt (spec 2 §7 POST /quizzes/take): start gives the questions in the server's order (randomised
 * when the quiz asks), the learner answers, submit gives the score, pass or fail and which questions were right.
 * A failed quiz can be retried (a new start).
 */
export function QuizPanel({
  quiz,
  attempt,
  onOutcome,
  onAnnounce,
}: {
  quiz: StructureQuiz;
  attempt: Attempt;
  onOutcome: (outcome: QuizOutcome) => void;
  onAnnounce: (text: string) => void;
}) {
  const [sheet, setSheet] = useState<QuizSheet | null>(null);
  const [answers, setAnswers] = useState<QuizAnswers>({});
  const [outcome, setOutcome] = useState<QuizOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const finished = attempt.status !== 'in_progress';

  async function start() {
    setBusy(true);
    try {
      setSheet(await takeQuizStart(attempt.id, quiz.id));
      setAnswers({});
      setOutcome(null);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The quiz could not be started. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  async function submit() {
    if (!sheet) return;
    setBusy(true);
    try {
      const { outcome: result, message } = await takeQuizSubmit(
        sheet.quiz_attempt_id,
        toResponses(sheet, answers),
      );
      setOutcome(result);
      if (message) (result.passed ? notifySuccess : (m: string) => notifyError(null, m))(message);
      onAnnounce(`${message ?? ''} Score ${result.score}%, pass mark ${result.pass_mark}%.`.trim());
      onOutcome(result);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The answers could not be sent. Please try again.');
    } finally {
      setBusy(false);
    }
  }

  const correct = new Map(outcome?.questions.map((q) => [q.id, q.correct]));
  const left = sheet ? unanswered(sheet, answers) : 0;

  return (
    <section aria-labelledby="quiz-title" className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="quiz-title" className="text-xl font-semibold text-slate-900">
          {quiz.title}
        </h2>
        <Badge>Pass mark {quiz.pass_mark}%</Badge>
        {quiz.passed ? <Badge tone="success">Passed</Badge> : null}
      </div>
      {!sheet ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            Answer every question, then send your answers to see your score.
          </p>
          {finished ? null : (
            <Button onClick={start} loading={busy}>
              Start the quiz
            </Button>
          )}
        </div>
      ) : (
        <form
          className="space-y-5"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <ol className="space-y-5">
            {sheet.questions.map((q, i) => {
              const multiple = isMultiple(q);
              const verdict = correct.get(q.id);
              return (
                <li key={q.id}>
                  <fieldset
                    className="rounded-lg border border-slate-200 p-4"
                    disabled={Boolean(outcome) || busy}
                    data-testid={`question-${q.id}`}
                  >
                    <legend className="px-1 text-sm font-semibold text-slate-900">
                      {i + 1}. {q.text}
                    </legend>
                    {multiple ? <p className="mb-2 text-xs text-slate-600">Choose all that apply.</p> : null}
                    <div className="space-y-2">
                      {q.answers.map((a) => (
                        <label
                          key={a.id}
                          className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm text-slate-800 hover:bg-slate-50"
                        >
                          <input
                            type={multiple ? 'checkbox' : 'radio'}
                            name={`q${q.id}`}
                            className="mt-0.5 h-4 w-4 accent-primary-700"
                            checked={answers[q.id]?.includes(a.id) ?? false}
                            onChange={() => setAnswers((s) => choose(s, q.id, a.id, multiple))}
                          />
                          <span>{a.text}</span>
                        </label>
                      ))}
                    </div>
                    {verdict === undefined ? null : (
                      <p
                        className={`mt-2 text-sm font-medium ${verdict ? 'text-success-800' : 'text-danger-800'}`}
                      >
                        {verdict ? 'Correct' : 'Not correct'}
                      </p>
                    )}
                  </fieldset>
                </li>
              );
            })}
          </ol>
          {outcome ? (
            <div
              className={`rounded-lg p-4 text-sm ${outcome.passed ? 'bg-success-100 text-success-800' : 'bg-danger-100 text-danger-800'}`}
              data-testid="quiz-outcome"
            >
              <p className="font-semibold">
                {outcome.passed ? 'Passed' : 'Not passed'}: {outcome.score}% (pass mark {outcome.pass_mark}%)
              </p>
              {outcome.passed ? null : (
                <Button className="mt-3" variant="secondary" onClick={start} loading={busy}>
                  Try the quiz again
                </Button>
              )}
            </div>
          ) : (
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" loading={busy} disabled={left > 0}>
                Send answers
              </Button>
              {left > 0 ? (
                <span className="text-sm text-slate-600">
                  {left} {left === 1 ? 'question' : 'questions'} left to answer
                </span>
              ) : null}
            </div>
          )}
        </form>
      )}
    </section>
  );
}

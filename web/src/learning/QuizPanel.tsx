import { type Attempt, LearningMessages, type QuizOutcome, type QuizSheet } from '@cc/contracts';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { isNetworkError } from '../app/network';
import { notifyError, notifyInfo, notifySuccess } from '../app/notifications';
import { Badge, Button } from '../ui';
import { type StructureQuiz, takeQuizStart } from './api';
import { getOutbox, type QuizSent, savedLocallyMessage, snapshots } from './attempt-outbox';
import { choose, isMultiple, type QuizAnswers, toResponses, unanswered } from './quiz-state';

/**
 * A quiz of the attempt (spec 2 §7 POST /quizzes/take): start gives the questions in the server's order (randomised
 * when the quiz asks), the learner answers, submit gives the score, pass or fail and which questions were right.
 * A failed quiz can be retried (a new start).
 *
 * Issue 31 §2: the sheet is kept on the device once started, and "Send answers" goes through the attempt outbox
 * (attempt-outbox.ts). Without a signal the answers stay on the device (the panel says so, and shows them again after
 * a reload) and are sent when the signal returns; the server marks them then, by the one verdict rule, and the
 * panel shows its answer.
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
  const { user } = useAuth();
  const userId = user?.id;
  const [sheet, setSheet] = useState<QuizSheet | null>(null);
  const [answers, setAnswers] = useState<QuizAnswers>({});
  const [outcome, setOutcome] = useState<QuizOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  /** The client id of answers kept in the outbox, waiting for a signal. */
  const [waiting, setWaiting] = useState<string | null>(null);
  const waitingRef = useRef<string | null>(null);
  waitingRef.current = waiting;
  const finished = attempt.status !== 'in_progress';

  const show = (sent: QuizSent) => {
    const result = sent.outcome;
    setOutcome(result);
    if (sent.message) (result.passed ? notifySuccess : (m: string) => notifyError(null, m))(sent.message);
    // A pass that finishes the course is announced by the page ("Course complete: …"), whichever of the page and
    // this panel hears of it first (the outbox tells both).
    if (result.attempt.status === 'in_progress')
      onAnnounce(`${sent.message ?? ''} Score ${result.score}%, pass mark ${result.pass_mark}%.`.trim());
    onOutcome(result);
  };
  const showRef = useRef(show);
  showRef.current = show;

  // Answers left in the outbox (a reload without a signal): the sheet and the answers as they were sent.
  useEffect(() => {
    if (userId === undefined) return;
    let alive = true;
    void (async () => {
      const kept = (await getOutbox().pending(userId, attempt.id)).find(
        (i) => i.kind === 'quiz' && i.quiz_id === quiz.id,
      );
      if (kept?.kind !== 'quiz') return;
      const saved = await snapshots.sheet(userId, attempt.id, quiz.id);
      if (!alive || !saved || saved.quiz_attempt_id !== kept.body.quiz_attempt_id) return;
      setSheet(saved);
      setAnswers(kept.body.responses);
      setWaiting(kept.client_id);
    })();
    return () => {
      alive = false;
    };
  }, [userId, attempt.id, quiz.id]);

  // The outbox sends them when the signal returns: the server's outcome is shown here then.
  useEffect(
    () =>
      getOutbox().subscribe((event) => {
        if (event.type === 'changed' || event.item.client_id !== waitingRef.current) return;
        setWaiting(null);
        if (event.type === 'sent') showRef.current(event.data as QuizSent);
        else
          notifyError(
            isApiError(event.error) ? event.error.data : null,
            'The answers could not be sent. Please try again.',
          );
      }),
    [],
  );

  async function start() {
    setBusy(true);
    try {
      const next = await takeQuizStart(attempt.id, quiz.id);
      if (userId !== undefined)
        await snapshots.saveSheet(userId, attempt.id, quiz.id, next).catch(() => undefined);
      setSheet(next);
      setAnswers({});
      setOutcome(null);
    } catch (error) {
      // No signal: the sheet this quiz was started with, when it is on the device (the server gives the same one).
      const kept =
        isNetworkError(error) && userId !== undefined
          ? await snapshots.sheet(userId, attempt.id, quiz.id)
          : undefined;
      if (kept) {
        setSheet(kept);
        setAnswers({});
        setOutcome(null);
      } else if (isNetworkError(error)) notifyInfo(LearningMessages.quizOfflineNotStarted);
      else
        notifyError(
          isApiError(error) ? error.data : null,
          'The quiz could not be started. Please try again.',
        );
    } finally {
      setBusy(false);
    }
  }

  async function submit() {
    if (!sheet || userId === undefined) return;
    setBusy(true);
    try {
      const result = await getOutbox().submit({
        kind: 'quiz',
        user_id: userId,
        attempt_id: attempt.id,
        quiz_id: quiz.id,
        body: { quiz_attempt_id: sheet.quiz_attempt_id, responses: toResponses(sheet, answers) },
      });
      if (result.state === 'sent') show(result.data as QuizSent);
      else if (result.state === 'waiting') {
        setWaiting(result.item.client_id);
        onAnnounce(savedLocallyMessage());
      } else
        notifyError(
          isApiError(result.error) ? result.error.data : null,
          'The answers could not be sent. Please try again.',
        );
    } catch {
      // The device could not keep them (storage full or refused): say so, the answers stay on the page.
      notifyError(null, 'The answers could not be sent. Please try again.');
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
                    disabled={Boolean(outcome) || busy || Boolean(waiting)}
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
          ) : waiting ? (
            <div
              className="rounded-lg bg-amber-50 p-4 text-sm font-medium text-amber-900 ring-1 ring-amber-200"
              data-testid="quiz-saved-locally"
            >
              {savedLocallyMessage()}
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

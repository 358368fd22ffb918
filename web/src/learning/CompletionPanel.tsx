import type { Attempt } from '@cc/contracts';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Button, Card, TextArea } from '../ui';
import { downloadCertificate, retakeAttempt, sendFeedback } from './api';

/**
 * What a finished attempt ended as, from its record: passed when its result is a pass (whatever the content type:
 * a quiz, an H5P item, SCORM 1.2 passed, SCORM 2004 "completed and passed"), failed when its result is a fail or the
 * attempt says failed; otherwise just finished.
 */
export function attemptOutcome(attempt: Attempt): 'passed' | 'failed' | 'finished' {
  if (attempt.result_passed === true) return 'passed';
  if (attempt.result_passed === false || attempt.status === 'failed') return 'failed';
  return attempt.status === 'passed' ? 'passed' : 'finished';
}

/**
 * Shown when the attempt is finished: the certificate when it passed, the score and a retake when it failed, and the
 * feedback form (rating 1–5, message). `retakeBase` is the route the retake opens under (/attempt or /cattempt).
 */
export function CompletionPanel({
  attempt,
  userRef,
  retakeBase = '/attempt',
}: {
  attempt: Attempt;
  userRef: string;
  retakeBase?: '/attempt' | '/cattempt';
}) {
  const outcome = attemptOutcome(attempt);
  const passed = outcome === 'passed';
  const navigate = useNavigate();
  const [retaking, setRetaking] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [rating, setRating] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  async function send() {
    if (!rating) return;
    setSending(true);
    try {
      const text = await sendFeedback(attempt.content_id, rating, message);
      setSent(true);
      notifySuccess(text ?? 'Thank you for your feedback.');
    } catch (error) {
      notifyError(
        isApiError(error) ? error.data : null,
        'Your feedback could not be sent. Please try again.',
      );
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="space-y-6" data-testid="completion">
      <Card>
        <div className="space-y-3">
          <h2 className="text-xl font-semibold text-slate-900">
            {passed
              ? 'Well done — you have completed this course'
              : outcome === 'failed'
                ? 'Not passed'
                : 'This attempt is finished'}
          </h2>
          <p className="text-sm text-slate-700">
            {attempt.content.title} · {attempt.course.title}
            {attempt.score !== null ? ` · score ${attempt.score}%` : ''}
          </p>
          {outcome === 'failed' ? (
            <div className="space-y-3">
              <p className="text-sm text-slate-700" data-testid="attempt-outcome">
                {attempt.score !== null
                  ? `You scored ${attempt.score}%, which is not a pass.`
                  : 'This attempt did not reach a pass.'}{' '}
                Start a retake to try again.
              </p>
              <Button
                loading={retaking}
                onClick={async () => {
                  setRetaking(true);
                  const next = await retakeAttempt(attempt.id);
                  setRetaking(false);
                  if (next) navigate(`${retakeBase}/${next.id}`);
                }}
              >
                Retake
              </Button>
            </div>
          ) : null}
          {passed ? (
            <Button
              loading={downloading}
              onClick={async () => {
                setDownloading(true);
                await downloadCertificate(userRef, attempt.course_id);
                setDownloading(false);
              }}
            >
              Download certificate
            </Button>
          ) : null}
        </div>
      </Card>
      <Card title="How was this course?">
        {sent ? (
          <p className="text-sm text-slate-700">Thank you for your feedback.</p>
        ) : (
          <form
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">Your rating (1 to 5)</legend>
              <div className="flex flex-wrap gap-2">
                {[1, 2, 3, 4, 5].map((n) => (
                  <label
                    key={n}
                    className="flex h-10 min-w-10 cursor-pointer items-center justify-center gap-1 rounded-lg px-3 text-sm ring-1 ring-slate-300 has-[:checked]:bg-primary-700 has-[:checked]:text-on-primary-700 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary-700"
                  >
                    <input
                      type="radio"
                      name="rating"
                      value={n}
                      className="sr-only"
                      checked={rating === n}
                      onChange={() => setRating(n)}
                    />
                    {n}
                    <span className="sr-only"> out of 5</span>
                  </label>
                ))}
              </div>
            </fieldset>
            <TextArea
              label="Anything you would like to tell us? (optional)"
              value={message}
              maxLength={5000}
              onChange={(e) => setMessage(e.target.value)}
            />
            <Button type="submit" variant="secondary" loading={sending} disabled={!rating}>
              Send feedback
            </Button>
          </form>
        )}
      </Card>
    </div>
  );
}

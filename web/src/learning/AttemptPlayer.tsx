import {
  type Attempt,
  type H5pResult,
  LearningMessages,
  type QuizOutcome,
  type UpdateAttemptBody,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAuth } from '../app/auth';
import { isNetworkError } from '../app/network';
import { notifyError } from '../app/notifications';
import { Badge, Button, Card, cx, EmptyState, PageHeader, Spinner } from '../ui';
import {
  type AttemptStructure,
  handleAttemptUpdateFailure,
  startAttempt,
  useAttempt,
  useAttemptStructure,
} from './api';
import {
  getOutbox,
  type QuizSent,
  savedLocallyMessage,
  snapshots,
  useOutboxDrain,
  usePendingWrites,
  withPending,
} from './attempt-outbox';
import { attemptOutcome, CompletionPanel } from './CompletionPanel';
import { buildOutline, initialStep, type OutlineTopic, remainingSteps, type Step, steps } from './outline';
import { PlayerSlot } from './PlayerSlot';
import type { H5pOutcome } from './players/h5p-xapi';
import { QuizPanel } from './QuizPanel';
import { TOPIC_BODY_CLASS } from './topic-body';

type Mode = 'attempt' | 'course';

/**
 * The attempt player behind /attempt/{attemptId} and /cattempt/{attemptId} (spec 1 §2, issue 4 item 2).
 * Every change goes through PATCH /attempts/{id} with the version last read; each answer's version is kept, so
 * the learner's own steps never conflict. A 409 (another tab or device moved on) shows the server's message; any
 * other failure shows the spec's lost-connection notice and reloads (spec 1 §4, see handleAttemptUpdateFailure).
 */
export function AttemptPlayer({ mode }: { mode: Mode }) {
  const { attemptId } = useParams();
  const { user } = useAuth();
  const userId = user?.id;
  const queryClient = useQueryClient();
  const attemptQuery = useAttempt(attemptId);
  const [attempt, setAttempt] = useState<Attempt | null>(null);
  const versionRef = useRef(0);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (!attemptQuery.data) return;
    versionRef.current = attemptQuery.data.version;
    setAttempt(attemptQuery.data);
  }, [attemptQuery.data]);

  useEffect(() => {
    // No answer and no copy on the device is being offline, not an error to report to support.
    if (attemptQuery.isError && !isNetworkError(attemptQuery.error))
      notifyError(null, LearningMessages.errorLoadingAttempt);
  }, [attemptQuery.isError, attemptQuery.error]);

  const apply = useCallback(
    (next: Attempt) => {
      setAttempt((prev) => {
        if (prev?.status === 'in_progress' && next.status !== 'in_progress') {
          const outcome = attemptOutcome(next);
          const score = next.score === null ? '' : ` with ${next.score}%`;
          setAnnouncement(
            outcome === 'passed'
              ? `Course complete: you passed ${next.content.title}. Your certificate is ready.`
              : outcome === 'failed'
                ? `Not passed: you finished ${next.content.title}${score}. You can start a retake.`
                : `This attempt is now ${next.status.replace('_', ' ')}.`,
          );
        }
        return next;
      });
      versionRef.current = Math.max(versionRef.current, next.version);
      queryClient.setQueryData(['learning', 'attempt', attemptId], next);
      if (userId !== undefined) void snapshots.saveAttempt(userId, next).catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: ['learning', 'current-attempt'] });
    },
    [queryClient, attemptId, userId],
  );

  /**
   * Every write goes through the outbox (attempt-outbox.ts, issue 31 §2), one after the other, each made on the version
   * the page last knew. Sent: the server's attempt is shown. Kept for later (no signal, the server down): the step
   * is shown as the learner made it and the page says it is saved on the device. Refused: the spec's handling (409
   * the server's message; otherwise the lost-connection notice and a reload).
   */
  const update = useCallback(
    (body: Omit<UpdateAttemptBody, 'version' | 'client_id'>): Promise<Attempt | null> => {
      const id = attempt?.id;
      const userId = user?.id;
      if (!id || userId === undefined) return Promise.resolve(null);
      const run = async () => {
        const result = await getOutbox().submit({
          kind: 'attempt',
          user_id: userId,
          attempt_id: id,
          version: versionRef.current,
          body,
        });
        if (result.state === 'sent') {
          const next = result.data as Attempt;
          apply(next);
          return next;
        }
        if (result.state === 'waiting') {
          // Shown from the outbox (usePendingWrites below) until the server has it.
          const base = queryClient.getQueryData<Attempt>(['learning', 'attempt', attemptId]);
          setAnnouncement(savedLocallyMessage());
          return base ? withPending(base, [result.item]) : null;
        }
        const what = handleAttemptUpdateFailure(result.error);
        if (what === 'lost') setAnnouncement('Lost connection to server. The page will reload.');
        return null;
      };
      const p = queue.current.then(run, run);
      queue.current = p;
      return p;
    },
    [attempt?.id, user?.id, apply, queryClient, attemptId],
  );

  // What the learner did that the server does not have yet is shown as done, and said to be saved on the device.
  const pending = usePendingWrites(attempt?.id);
  // The page itself recovers when the signal returns, whichever layout holds it (the app shell does the same).
  useOutboxDrain();
  const shown = useMemo(() => (attempt ? withPending(attempt, pending) : null), [attempt, pending]);

  // Writes sent later (the signal came back, a retry after backoff): the server's answer is shown when it comes.
  useEffect(() => {
    const id = attempt?.id;
    if (!id) return;
    return getOutbox().subscribe((event) => {
      if (event.type !== 'sent' || event.item.attempt_id !== id) return;
      const next =
        event.item.kind === 'attempt' ? (event.data as Attempt) : (event.data as QuizSent).outcome.attempt;
      apply(next);
    });
  }, [attempt?.id, apply]);

  const elearning = attempt?.content.type === 'elearning';
  const structureQuery = useAttemptStructure(attemptId, Boolean(attempt && elearning));
  useEffect(() => {
    if (structureQuery.isError) notifyError(null, LearningMessages.errorLoadingAttempt);
  }, [structureQuery.isError]);

  if (attemptQuery.isError)
    return (
      <EmptyState
        title={
          isNetworkError(attemptQuery.error)
            ? LearningMessages.attemptNotOnDevice
            : LearningMessages.errorLoadingAttempt
        }
        action={
          <Link className="text-primary-700 underline" to="/">
            Back to your courses
          </Link>
        }
      />
    );
  if (!shown || !user) return <Spinner label="Loading the course" />;

  const userRef = user.uuid;
  const finished = shown.status !== 'in_progress';
  const courseMode = mode === 'course';

  return (
    <div className="space-y-6">
      <PageHeader
        title={courseMode ? shown.course.title : shown.content.title}
        description={courseMode ? shown.content.title : shown.course.title}
        breadcrumbs={[{ label: 'Your courses', to: '/' }, { label: shown.content.title }]}
      />
      <p aria-live="polite" role="status" className="sr-only" data-testid="player-announcement">
        {announcement}
      </p>
      {pending.length ? (
        <div
          className="rounded-lg bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200"
          data-testid="saved-locally"
        >
          <p className="font-medium">{savedLocallyMessage()}</p>
        </div>
      ) : null}
      {shown.content.type === 'scorm' ? (
        <PlayerSlot kind="scorm" attempt={shown} title={shown.content.title} onAttemptChange={apply} />
      ) : null}
      {elearning && structureQuery.isPending ? <Spinner label="Loading the lessons" /> : null}
      {elearning && structureQuery.isError ? (
        <Card>
          <p className="text-sm text-slate-700">{LearningMessages.errorLoadingAttempt}</p>
        </Card>
      ) : null}
      {elearning && structureQuery.data ? (
        <ElearningPlayer
          attempt={shown}
          structure={structureQuery.data}
          update={update}
          onQuizOutcome={(o) => apply(o.attempt)}
          announce={setAnnouncement}
        />
      ) : null}
      {finished ? (
        <CompletionPanel
          attempt={shown}
          userRef={userRef}
          retakeBase={courseMode ? '/cattempt' : '/attempt'}
        />
      ) : null}
      {courseMode && structureQuery.data?.course ? (
        <CourseContents attempt={shown} course={structureQuery.data.course} userRef={userRef} />
      ) : null}
    </div>
  );
}

function CourseContents({
  attempt,
  course,
  userRef,
}: {
  attempt: Attempt;
  course: NonNullable<AttemptStructure['course']>;
  userRef: string;
}) {
  const navigate = useNavigate();
  const others = course.contents.filter((c) => c.id !== attempt.content_id);
  if (!others.length) return null;
  return (
    <Card title={`More in ${course.title}`}>
      <ul className="divide-y divide-slate-100">
        {others.map((c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <span className="text-sm text-slate-900">{c.title}</span>
            <Button
              size="sm"
              variant="secondary"
              onClick={async () => {
                const next = await startAttempt(userRef, c.id);
                if (next) navigate(`/cattempt/${next.id}`);
              }}
            >
              Start
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function ElearningPlayer({
  attempt,
  structure,
  update,
  onQuizOutcome,
  announce,
}: {
  attempt: Attempt;
  structure: AttemptStructure;
  update: (body: Omit<UpdateAttemptBody, 'version' | 'client_id'>) => Promise<Attempt | null>;
  onQuizOutcome: (o: QuizOutcome) => void;
  announce: (text: string) => void;
}) {
  const outline = useMemo(() => buildOutline(structure.lessons), [structure.lessons]);
  const [passedQuizzes, setPassedQuizzes] = useState<Set<number>>(
    () => new Set(structure.quizzes.filter((q) => q.passed).map((q) => q.id)),
  );
  const quizzes = useMemo(
    () => structure.quizzes.map((q) => ({ ...q, passed: passedQuizzes.has(q.id) })),
    [structure.quizzes, passedQuizzes],
  );
  const all = useMemo(() => steps(outline, quizzes), [outline, quizzes]);
  const [index, setIndex] = useState(() => initialStep(all, attempt.progress));
  const [busy, setBusy] = useState(false);
  /** Topic ids whose H5P item is a scored activity: those complete by passing it, not by "Mark complete". */
  const [scoredTopics, setScoredTopics] = useState<ReadonlySet<number>>(() => new Set());
  const [outlineOpen, setOutlineOpen] = useState(
    () =>
      typeof window === 'undefined' || !window.matchMedia || window.matchMedia('(min-width: 1024px)').matches,
  );
  const headingRef = useRef<HTMLHeadingElement>(null);
  const step: Step | undefined = all[Math.min(index, all.length - 1)];
  const completed = new Set(attempt.progress.completed_topic_ids ?? []);
  const skipped = new Set(attempt.progress.skipped_topic_ids ?? []);
  const topicSteps = all.filter((s) => s.kind === 'topic');
  const doneCount =
    topicSteps.filter((s) => s.kind === 'topic' && (completed.has(s.topic.id) || skipped.has(s.topic.id)))
      .length + quizzes.filter((q) => q.passed).length;
  const finished = attempt.status !== 'in_progress';
  // The completion trap (issue 10 §1): once the step in view is done, name what is still left and take them there.
  const left = remainingSteps(all, attempt.progress);
  const stepDone =
    step?.kind === 'topic'
      ? completed.has(step.topic.id) || skipped.has(step.topic.id)
      : step?.kind === 'quiz' && Boolean(step.quiz.passed);

  const go = (i: number) => {
    setIndex(i);
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  async function act(kind: 'complete' | 'skip') {
    if (step?.kind !== 'topic') return;
    setBusy(true);
    const current = { lesson_id: step.lessonId, topic_id: step.topic.id, quiz_id: null };
    const next = await update(
      kind === 'complete'
        ? { completed_topic_id: step.topic.id, progress: { current } }
        : { skipped_topic_id: step.topic.id, progress: { current } },
    );
    setBusy(false);
    if (!next) return;
    if (next.status === 'in_progress') {
      announce(`${step.topic.title} ${kind === 'complete' ? 'completed' : 'skipped'}.`);
      if (index < all.length - 1) go(index + 1);
    }
  }

  /**
   * An H5P item's xAPI outcome, recorded on its topic; the server judges it (a pass completes the topic) and the
   * player shows the result the server kept.
   */
  async function recordH5p(at: Step, outcome: H5pOutcome): Promise<H5pResult | null> {
    if (at.kind !== 'topic' || !at.topic.h5p) return null;
    const current = { lesson_id: at.lessonId, topic_id: at.topic.id, quiz_id: null };
    const next = await update({
      h5p: { topic_id: at.topic.id, h5p_id: at.topic.h5p.id, ...outcome },
      progress: { current },
    });
    if (next?.status === 'in_progress' && next.progress.completed_topic_ids?.includes(at.topic.id))
      announce(`${at.topic.title} completed.`);
    return next?.progress.h5p_results?.[String(at.topic.id)] ?? null;
  }

  /** Why a topic cannot be marked complete by hand: its H5P item is scored (pass it) or was failed. */
  const activityGate = (at: Step & { kind: 'topic' }): string | null => {
    if (!at.topic.h5p) return null;
    const kept = attempt.progress.h5p_results?.[String(at.topic.id)];
    if (kept?.h5p_id === at.topic.h5p.id && kept.success === false)
      return 'Not passed yet: try the activity again. Passing it completes this topic.';
    if (at.topic.h5p.must_pass || scoredTopics.has(at.topic.id))
      return 'Answer the activity above: passing it completes this topic.';
    return null;
  };

  if (!step)
    return (
      <Card>
        <p className="text-sm text-slate-700">This course has no lessons yet.</p>
      </Card>
    );

  const topicState = (id: number) => (completed.has(id) ? 'completed' : skipped.has(id) ? 'skipped' : null);

  const renderTopic = (node: OutlineTopic, depth: number) => {
    const i = all.findIndex((s) => s.key === `t${node.topic.id}`);
    const state = topicState(node.topic.id);
    return (
      <li key={node.topic.id}>
        <button
          type="button"
          onClick={() => go(i)}
          aria-current={i === index ? 'step' : undefined}
          className={cx(
            'focus-ring flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm',
            depth ? 'pl-6' : '',
            i === index
              ? 'bg-primary-100 font-semibold text-primary-900'
              : 'text-slate-800 hover:bg-slate-100',
          )}
        >
          <span aria-hidden="true" className="w-4 shrink-0 text-success-700">
            {state === 'completed' ? '✓' : state === 'skipped' ? '–' : ''}
          </span>
          <span className="min-w-0 flex-1">
            {node.topic.title}
            {node.topic.skippable ? (
              <span className="ml-1 text-xs font-normal text-slate-600">(optional)</span>
            ) : null}
            {state ? <span className="sr-only"> ({state})</span> : null}
          </span>
        </button>
        {node.children.length ? (
          <ul aria-label={`Part of ${node.topic.title}`}>
            {node.children.map((c) => renderTopic(c, depth + 1))}
          </ul>
        ) : null}
      </li>
    );
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <Card padded={false} className="self-start">
        <details open={outlineOpen} onToggle={(e) => setOutlineOpen((e.target as HTMLDetailsElement).open)}>
          <summary className="focus-ring cursor-pointer list-none rounded-t-xl px-4 py-3 text-sm font-semibold text-slate-900">
            <span className="flex items-center justify-between gap-2">
              Course outline
              <span className="text-xs font-normal text-slate-600">
                {doneCount} of {topicSteps.length + quizzes.length} done
              </span>
            </span>
          </summary>
          <nav aria-label="Course outline" className="space-y-4 border-t border-slate-200 px-2 py-3">
            {outline.map((lesson) => (
              <div key={lesson.id}>
                <h2 className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
                  {lesson.title}
                </h2>
                <ul>{lesson.topics.map((t) => renderTopic(t, 0))}</ul>
              </div>
            ))}
            {quizzes.length ? (
              <div>
                <h2 className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
                  Quizzes
                </h2>
                <ul>
                  {quizzes.map((q) => {
                    const i = all.findIndex((s) => s.key === `q${q.id}`);
                    return (
                      <li key={q.id}>
                        <button
                          type="button"
                          onClick={() => go(i)}
                          aria-current={i === index ? 'step' : undefined}
                          className={cx(
                            'focus-ring flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm',
                            i === index
                              ? 'bg-primary-100 font-semibold text-primary-900'
                              : 'text-slate-800 hover:bg-slate-100',
                          )}
                        >
                          <span aria-hidden="true" className="w-4 shrink-0 text-success-700">
                            {q.passed ? '✓' : ''}
                          </span>
                          <span className="min-w-0 flex-1">
                            {q.title}
                            {q.passed ? <span className="sr-only"> (passed)</span> : null}
                          </span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
              </div>
            ) : null}
          </nav>
        </details>
      </Card>

      <Card className="min-w-0">
        <div className="space-y-5">
          {step.kind === 'topic' ? (
            <article className="space-y-4" aria-labelledby="topic-title">
              <div className="space-y-1">
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">
                  {step.lessonTitle}
                </p>
                <div className="flex flex-wrap items-center gap-2">
                  <h2
                    id="topic-title"
                    ref={headingRef}
                    tabIndex={-1}
                    className="text-xl font-semibold text-slate-900 outline-none"
                  >
                    {step.topic.title}
                  </h2>
                  {step.topic.skippable ? <Badge>Optional</Badge> : null}
                  {topicState(step.topic.id) === 'completed' ? <Badge tone="success">Completed</Badge> : null}
                  {topicState(step.topic.id) === 'skipped' ? <Badge tone="warning">Skipped</Badge> : null}
                </div>
              </div>
              <div
                className={TOPIC_BODY_CLASS}
                data-testid="topic-body"
                // Only the server's stored body_html, which the server sanitised when the author saved it.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server on write (issue 4 item 5)
                dangerouslySetInnerHTML={{ __html: step.topic.body_html }}
              />
              {step.topic.h5p ? (
                <PlayerSlot
                  kind="h5p"
                  attempt={attempt}
                  h5pId={step.topic.h5p.id}
                  title={step.topic.h5p.title}
                  onH5pOutcome={(outcome) => recordH5p(step, outcome)}
                  onH5pScored={(scored) => {
                    const id = step.topic.id;
                    setScoredTopics((prev) => {
                      if (prev.has(id) === scored) return prev;
                      const nextSet = new Set(prev);
                      if (scored) nextSet.add(id);
                      else nextSet.delete(id);
                      return nextSet;
                    });
                  }}
                />
              ) : null}
              {step.topic.resources.length ? (
                <div>
                  <h3 className="text-sm font-semibold text-slate-900">Resources</h3>
                  <ul className="mt-1 list-disc pl-5 text-sm">
                    {step.topic.resources.map((r) => (
                      <li key={r.url}>
                        <a
                          className="text-primary-700 underline"
                          href={r.url}
                          target="_blank"
                          rel="noopener noreferrer"
                        >
                          {r.title}
                        </a>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {finished || topicState(step.topic.id) === 'completed' ? null : (
                <div className="flex flex-wrap items-center gap-3">
                  {activityGate(step) ? (
                    <p className="text-sm text-slate-700" data-testid="activity-gate">
                      {activityGate(step)}
                    </p>
                  ) : (
                    <Button onClick={() => act('complete')} loading={busy}>
                      Mark complete
                    </Button>
                  )}
                  {step.topic.skippable && topicState(step.topic.id) !== 'skipped' ? (
                    <Button variant="secondary" onClick={() => act('skip')} disabled={busy}>
                      Skip this topic
                    </Button>
                  ) : null}
                </div>
              )}
            </article>
          ) : (
            <QuizPanel
              key={step.quiz.id}
              quiz={step.quiz}
              attempt={attempt}
              onAnnounce={announce}
              onOutcome={(o) => {
                if (o.passed) setPassedQuizzes((s) => new Set([...s, step.quiz.id]));
                onQuizOutcome(o);
              }}
            />
          )}
          {!finished && stepDone && left.length ? (
            <section
              aria-labelledby="still-to-do"
              className="space-y-2 rounded-lg bg-amber-50 p-4 ring-1 ring-amber-200"
              data-testid="still-to-do"
            >
              <h3 id="still-to-do" className="text-sm font-semibold text-slate-900">
                Still to do before this course is complete
              </h3>
              <ul className="flex flex-wrap gap-2">
                {left.map((s) => (
                  <li key={s.key}>
                    <Button size="sm" variant="secondary" onClick={() => go(all.indexOf(s))}>
                      {s.kind === 'topic' ? `Go to ${s.topic.title}` : `Go to ${s.quiz.title}`}
                    </Button>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <div className="flex items-center justify-between gap-3 border-t border-slate-200 pt-4">
            <Button variant="secondary" onClick={() => go(index - 1)} disabled={index === 0}>
              Previous
            </Button>
            <span className="text-xs text-slate-600">
              {index + 1} / {all.length}
            </span>
            <Button variant="secondary" onClick={() => go(index + 1)} disabled={index >= all.length - 1}>
              Next
            </Button>
          </div>
        </div>
      </Card>
    </div>
  );
}

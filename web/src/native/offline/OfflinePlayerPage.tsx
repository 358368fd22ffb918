import { OfflineMessages, type OfflineQuiz, type OfflineSyncOutcome } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { useAuth } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { TOPIC_BODY_CLASS } from '../../learning/topic-body';
import { Button, ButtonLink, Card, EmptyState, PageHeader, Spinner } from '../../ui';
import type { DraftAttempt, StoredDownload } from './library';
import { appendH5pOutcome, OfflineH5PFrame } from './OfflineH5PFrame';
import { RULE_TEXT } from './OfflinePage';
import { OfflineScormPlayer } from './OfflineScormFrame';
import { RefusedSteps } from './RefusedSteps';
import { getLibrary, queueAttempt, syncNow } from './state';

/** Where a topic is completed only by passing its activity: the learner plays it; the server marks it on sync. */
export const OFFLINE_ACTIVITY_GATE =
  'Answer the activity above: passing it completes this topic. It is marked when it reaches the server.';

/** A fresh offline attempt: its uuid and start time are the device's, made once. */
function newDraft(stored: StoredDownload): DraftAttempt {
  return {
    content_title: stored.download.content.title,
    body: {
      client_uuid: crypto.randomUUID(),
      download_id: stored.download.download_id,
      content_id: stored.download.content.id,
      started_at: new Date().toISOString(),
      completed_at: null,
      completed_topic_ids: [],
      skipped_topic_ids: [],
      quiz_responses: {},
      h5p: [],
      cmi: {},
    },
  };
}

function QuizCard({
  quiz,
  answers,
  onChange,
}: {
  quiz: OfflineQuiz;
  answers: Record<string, number[]>;
  onChange: (next: Record<string, number[]>) => void;
}) {
  return (
    <Card title={quiz.title} className="mt-4" data-testid={`offline-quiz-${quiz.id}`}>
      <p className="mb-3 text-sm text-slate-600">
        Pass mark {quiz.pass_mark}%. Your answers are marked when they reach the server.
      </p>
      <ol className="space-y-4">
        {quiz.questions.map((q, i) => (
          <li key={q.id}>
            <fieldset>
              <legend className="font-medium text-slate-900 wrap-anywhere">
                {i + 1}. {q.text}{' '}
                {q.multiple ? <span className="text-sm text-slate-600">(select all that apply)</span> : null}
              </legend>
              <div className="mt-2 space-y-1">
                {q.answers.map((a) => {
                  const chosen = answers[String(q.id)] ?? [];
                  const checked = chosen.includes(a.id);
                  return (
                    <label key={a.id} className="flex items-start gap-2 text-sm text-slate-800">
                      <input
                        type={q.multiple ? 'checkbox' : 'radio'}
                        name={`q-${q.id}`}
                        checked={checked}
                        onChange={() =>
                          onChange({
                            ...answers,
                            [String(q.id)]: q.multiple
                              ? checked
                                ? chosen.filter((id) => id !== a.id)
                                : [...chosen, a.id]
                              : [a.id],
                          })
                        }
                      />
                      <span className="wrap-anywhere">{a.text}</span>
                    </label>
                  );
                })}
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/**
 * /offline/{contentId}: takes a saved course from the device alone. Topics are read and marked complete, quiz
 * answers chosen (marked by the server on sync: the copy holds no correct answers), a SCORM package runs in its
 * sandboxed frame from the stored files. Finishing queues the attempt durably with its own uuid and the device's
 * times, then syncs at once when there is a connection.
 */
export default function OfflinePlayerPage() {
  const { contentId } = useParams();
  const { user } = useAuth();
  const [stored, setStored] = useState<StoredDownload | null | undefined>(undefined);
  const [draft, setDraft] = useState<DraftAttempt | null>(null);
  const [saved, setSaved] = useState<'queued' | 'synced' | null>(null);
  const [outcome, setOutcome] = useState<OfflineSyncOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  /** Topics whose item said, while running, that it is a scored activity (as the online player asks it). */
  const [scoredTopics, setScoredTopics] = useState<ReadonlySet<number>>(() => new Set());

  useEffect(() => {
    if (!user) return;
    const library = getLibrary();
    void (async () => {
      const copy = await library.getDownload(user.id, Number(contentId));
      // An attempt begun earlier on this device continues (same uuid and start time): nothing recorded is lost.
      const earlier = copy ? await library.getDraft(user.id, copy.download.content.id) : undefined;
      setDraft(earlier ?? (copy ? newDraft(copy) : null));
      setStored(copy ?? null);
    })();
  }, [user, contentId]);

  if (stored === undefined) return <Spinner label="Loading the saved course" />;
  if (stored === null || !user || !draft)
    return (
      <EmptyState
        title="This course is not saved on this device"
        description={OfflineMessages.noDownloads}
        action={<ButtonLink to="/offline">Offline learning</ButtonLink>}
      />
    );
  const { download } = stored;
  const body = draft.body;

  /** Every change is written to the device at once (the draft), before anything else happens. */
  function change(update: (b: DraftAttempt['body']) => DraftAttempt['body']) {
    if (!user) return;
    setDraft((prev) => {
      if (!prev) return prev;
      const next = { ...prev, body: update(prev.body) };
      void getLibrary()
        .saveDraft(user.id, next)
        .catch(() => notifyError(null, 'Your answers could not be saved on this device. Please try again.'));
      return next;
    });
  }
  const completed = body.completed_topic_ids ?? [];
  const answers = body.quiz_responses ?? {};

  async function finish() {
    if (!user) return;
    setBusy(true);
    try {
      await queueAttempt(
        user.id,
        { ...body, completed_at: new Date().toISOString() },
        download.content.title,
      );
      setSaved('queued');
    } catch {
      notifyError(null, 'Your answers could not be saved on this device. Please try again.');
      setBusy(false);
      return;
    }
    setBusy(false);
    if (navigator.onLine) {
      const report = await syncNow(user.id).catch(() => null);
      if (report && report.waiting === 0) {
        setSaved('synced');
        // What the server made of it, refused steps and their reasons included.
        const synced = await getLibrary()
          .listSynced(user.id)
          .catch(() => []);
        setOutcome(synced.find((s) => s.outcome.client_uuid === body.client_uuid)?.outcome ?? null);
      }
    }
  }

  if (saved)
    return (
      <>
        <PageHeader title={download.content.title} />
        <Card data-testid="offline-finished">
          <p className="text-slate-800" role="status">
            {saved === 'synced' ? OfflineMessages.synced : OfflineMessages.queuedAttempt}
            {outcome ? ` ${RULE_TEXT[outcome.rule]}` : ''}
          </p>
          {outcome ? <RefusedSteps outcome={outcome} downloads={[stored]} /> : null}
          <div className="mt-3">
            <ButtonLink to="/offline">Back to offline learning</ButtonLink>
          </div>
        </Card>
      </>
    );

  const topics = download.lessons.flatMap((l) => l.topics.map((t) => ({ ...t, lesson: l.title })));
  /**
   * A topic completed only by passing its activity offers no "I have read": the server would refuse it on sync
   * (server/src/learning/progress.ts manualCompletionRefusal), as online. The copy says so for graded items
   * (must_pass); a running item that reports a max score is treated the same, as the online player does.
   */
  const mustPass = (topic: (typeof topics)[number]) =>
    Boolean(topic.h5p?.must_pass) || scoredTopics.has(topic.id);
  return (
    <>
      <PageHeader
        title={download.content.title}
        description={download.course.title}
        breadcrumbs={[{ label: 'Offline learning', to: '/offline' }, { label: download.content.title }]}
      />
      {download.content.type === 'scorm' ? (
        <OfflineScormPlayer
          stored={stored}
          cmi={(body.cmi ?? {}) as Record<string, Record<string, unknown>>}
          onCommit={(sco, data) => change((b) => ({ ...b, cmi: { ...b.cmi, [sco]: data } }))}
        />
      ) : null}
      {topics.map((topic) => (
        <Card key={topic.id} title={topic.title} className="mt-4">
          <div
            className={TOPIC_BODY_CLASS}
            // Sanitised by the server when the author saved it (the same HTML the online player shows).
            // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised topic body
            dangerouslySetInnerHTML={{ __html: topic.body_html }}
          />
          {topic.h5p ? (
            <OfflineH5PFrame
              stored={stored}
              topicId={topic.id}
              h5p={topic.h5p}
              onOutcome={(outcome) => change((b) => ({ ...b, h5p: appendH5pOutcome(b.h5p ?? [], outcome) }))}
              onScored={(scored) =>
                setScoredTopics((prev) => {
                  if (prev.has(topic.id) === scored) return prev;
                  const next = new Set(prev);
                  if (scored) next.add(topic.id);
                  else next.delete(topic.id);
                  return next;
                })
              }
            />
          ) : null}
          {mustPass(topic) ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="activity-gate">
              {OFFLINE_ACTIVITY_GATE}
            </p>
          ) : (
            <label className="mt-3 flex items-center gap-2 text-sm font-medium text-slate-800">
              <input
                type="checkbox"
                checked={completed.includes(topic.id)}
                onChange={(e) => {
                  const checked = e.target.checked;
                  change((b) => {
                    const ids = b.completed_topic_ids ?? [];
                    return {
                      ...b,
                      completed_topic_ids: checked ? [...ids, topic.id] : ids.filter((id) => id !== topic.id),
                    };
                  });
                }}
              />
              I have read "{topic.title}"
            </label>
          )}
        </Card>
      ))}
      {download.quizzes.map((quiz) => (
        <QuizCard
          key={quiz.id}
          quiz={quiz}
          answers={answers[String(quiz.id)] ?? {}}
          onChange={(next) =>
            change((b) => ({ ...b, quiz_responses: { ...b.quiz_responses, [String(quiz.id)]: next } }))
          }
        />
      ))}
      <div className="mt-6 flex flex-wrap gap-3">
        <Button loading={busy} onClick={() => void finish()}>
          Finish and save
        </Button>
        <ButtonLink variant="secondary" to="/offline">
          Leave without saving
        </ButtonLink>
      </div>
    </>
  );
}

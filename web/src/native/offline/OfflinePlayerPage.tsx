import { OfflineMessages, type OfflineQuiz } from '@cc/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useAuth } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { TOPIC_BODY_CLASS } from '../../learning/topic-body';
import { Button, ButtonLink, Card, EmptyState, PageHeader, Spinner } from '../../ui';
import type { StoredDownload } from './library';
import { OfflineScormFrame } from './OfflineScormFrame';
import { getLibrary, queueAttempt, syncNow } from './state';

type Answers = Record<string, Record<string, number[]>>;

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
  const [completed, setCompleted] = useState<number[]>([]);
  const [answers, setAnswers] = useState<Answers>({});
  const [cmi, setCmi] = useState<Record<string, Record<string, unknown>>>({});
  const [saved, setSaved] = useState<'queued' | 'synced' | null>(null);
  const [busy, setBusy] = useState(false);
  const startedAt = useMemo(() => new Date().toISOString(), []);
  const clientUuid = useMemo(() => crypto.randomUUID(), []);

  useEffect(() => {
    if (!user) return;
    void getLibrary()
      .getDownload(user.id, Number(contentId))
      .then((d) => setStored(d ?? null));
  }, [user, contentId]);

  if (stored === undefined) return <Spinner label="Loading the saved course" />;
  if (stored === null || !user)
    return (
      <EmptyState
        title="This course is not saved on this device"
        description={OfflineMessages.noDownloads}
        action={<ButtonLink to="/offline">Offline learning</ButtonLink>}
      />
    );
  const { download } = stored;

  async function finish() {
    if (!user) return;
    setBusy(true);
    try {
      await queueAttempt(
        user.id,
        {
          client_uuid: clientUuid,
          download_id: download.download_id,
          content_id: download.content.id,
          started_at: startedAt,
          completed_at: new Date().toISOString(),
          completed_topic_ids: completed,
          quiz_responses: answers,
          cmi,
        },
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
      if (report && report.waiting === 0) setSaved('synced');
    }
  }

  if (saved)
    return (
      <>
        <PageHeader title={download.content.title} />
        <Card data-testid="offline-finished">
          <p className="text-slate-800" role="status">
            {saved === 'synced' ? OfflineMessages.synced : OfflineMessages.queuedAttempt}
          </p>
          <div className="mt-3">
            <ButtonLink to="/offline">Back to offline learning</ButtonLink>
          </div>
        </Card>
      </>
    );

  const topics = download.lessons.flatMap((l) => l.topics.map((t) => ({ ...t, lesson: l.title })));
  return (
    <>
      <PageHeader
        title={download.content.title}
        description={download.course.title}
        breadcrumbs={[{ label: 'Offline learning', to: '/offline' }, { label: download.content.title }]}
      />
      {download.content.type === 'scorm' ? (
        <OfflineScormFrame
          stored={stored}
          onCommit={(sco, data) => setCmi((prev) => ({ ...prev, [sco]: data }))}
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
            <p className="mt-2 text-sm text-slate-600">
              The interactive item "{topic.h5p.title}" needs a connection: open the course online to complete
              it.
            </p>
          ) : null}
          <label className="mt-3 flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              checked={completed.includes(topic.id)}
              onChange={(e) =>
                setCompleted((prev) =>
                  e.target.checked ? [...prev, topic.id] : prev.filter((id) => id !== topic.id),
                )
              }
            />
            I have read "{topic.title}"
          </label>
        </Card>
      ))}
      {download.quizzes.map((quiz) => (
        <QuizCard
          key={quiz.id}
          quiz={quiz}
          answers={answers[String(quiz.id)] ?? {}}
          onChange={(next) => setAnswers((prev) => ({ ...prev, [String(quiz.id)]: next }))}
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

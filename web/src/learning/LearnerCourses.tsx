import type { AvailableCourse } from '@cc/contracts';
import { CELL_STATUS_LABELS, formatDate, LearningMessages } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isMobile } from '../app/env';
import { notifyError } from '../app/notifications';
import { canTakeOffline, OfflineDownloadButton } from '../native/offline/OfflineDownloadButton';
import { OfflineSyncBanner } from '../native/offline/OfflineSyncBanner';
import { Badge, Button, ButtonLink, Card, Spinner } from '../ui';
import { downloadCertificate, startAttempt, useCurrentAttempt, useLearnerCourses } from './api';

const ONLINE = new Set(['elearning', 'scorm']);

/**
 * The learner's courses (issue 4 item 2): the attempt in progress ("Continue"), the courses available to start
 * ("Start" on each online content) and the completed, in-date courses ("Download certificate").
 *
 * `availableOnly` (the start page and the learner dashboard, issue 13): only the other courses available to start,
 * without the courses of `exclude` (the to-do lists those, with the attempt to resume and the certificates).
 */
export function LearnerCourses({
  userRef,
  availableOnly = false,
  exclude,
}: {
  userRef: string;
  availableOnly?: boolean;
  exclude?: ReadonlySet<number>;
}) {
  const current = useCurrentAttempt();
  const available = useLearnerCourses(userRef, 'available-courses');
  const compliant = useLearnerCourses(userRef, 'compliant-courses');
  const navigate = useNavigate();
  const [starting, setStarting] = useState<number | null>(null);

  useEffect(() => {
    if (current.isError || available.isError || compliant.isError)
      notifyError(null, LearningMessages.errorLoadingAttempts);
  }, [current.isError, available.isError, compliant.isError]);

  async function start(contentId: number) {
    setStarting(contentId);
    const attempt = await startAttempt(userRef, contentId);
    setStarting(null);
    if (attempt) navigate(`/attempt/${attempt.id}`);
  }

  const passedIds = new Set((compliant.data ?? []).map((c) => c.id));
  const toStart = (available.data ?? []).filter((c) => !passedIds.has(c.id) && !exclude?.has(c.id));

  return (
    <>
      {isMobile() ? <OfflineSyncBanner hideWhenEmpty /> : null}
      {current.data && !availableOnly ? (
        <Card title="Continue where you left off" data-testid="current-attempt">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div className="min-w-0">
              <p className="font-medium text-slate-900 wrap-anywhere">{current.data.content.title}</p>
              <p className="text-sm text-slate-600">{current.data.course.title}</p>
            </div>
            <ButtonLink to={`/attempt/${current.data.id}`}>Continue</ButtonLink>
          </div>
        </Card>
      ) : null}

      <Card
        title={availableOnly ? 'Other courses you can take' : 'Courses available to you'}
        data-testid="available-courses"
      >
        {available.isPending ? (
          <Spinner label="Loading your courses" />
        ) : toStart.length === 0 ? (
          <p className="text-sm text-slate-700">There are no courses for you to start at the moment.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {toStart.map((course) => (
              <CourseRow key={course.id} course={course}>
                <ul className="mt-2 space-y-2">
                  {course.contents.map((content) => (
                    <li key={content.id} className="flex flex-wrap items-center justify-between gap-2">
                      <span className="min-w-0 text-sm text-slate-800 wrap-anywhere">
                        {content.title}{' '}
                        <span className="text-slate-600">
                          · {labelOf(content.type)}
                          {content.estimated_duration ? ` · ${content.estimated_duration} min` : ''}
                        </span>
                        {content.cpd_accredited ? (
                          <>
                            {' '}
                            <Badge tone="primary">CPD</Badge>
                          </>
                        ) : null}
                      </span>
                      {ONLINE.has(content.type) ? (
                        <span className="flex flex-wrap gap-2">
                          {/* Offline learning is the mobile app's (issue 19): the one in progress too (31 §1). */}
                          {isMobile() && canTakeOffline(content.type) ? (
                            <OfflineDownloadButton contentId={content.id} title={content.title} />
                          ) : null}
                          {current.data?.content_id === content.id ? (
                            <ButtonLink
                              size="sm"
                              to={`/attempt/${current.data.id}`}
                              aria-label={`Continue ${content.title}`}
                            >
                              Continue
                            </ButtonLink>
                          ) : (
                            <Button
                              size="sm"
                              loading={starting === content.id}
                              onClick={() => start(content.id)}
                              aria-label={`Start ${content.title}`}
                            >
                              Start
                            </Button>
                          )}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </CourseRow>
            ))}
          </ul>
        )}
      </Card>

      {availableOnly ? null : (
        <Card title="Completed courses" data-testid="completed-courses">
          {compliant.isPending ? (
            <Spinner label="Loading your completed courses" />
          ) : (compliant.data ?? []).length === 0 ? (
            <p className="text-sm text-slate-700">
              You have not completed a course yet. Your certificates will be here.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {(compliant.data ?? []).map((course) => (
                <CourseRow key={course.id} course={course}>
                  <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
                    {course.latest_result ? <LatestResultLine result={course.latest_result} /> : null}
                    <CertificateButton userRef={userRef} course={course} />
                  </div>
                </CourseRow>
              ))}
            </ul>
          )}
        </Card>
      )}
    </>
  );
}

function CourseRow({ course, children }: { course: AvailableCourse; children: React.ReactNode }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <p className="font-medium text-slate-900 wrap-anywhere">{course.title}</p>
      {children}
    </li>
  );
}

/**
 * When the course was done and until when it is valid. An exemption is not a completion (issue 10 §4): it says
 * Exempt, since when, and until when if it ends.
 */
export function LatestResultLine({ result }: { result: NonNullable<AvailableCourse['latest_result']> }) {
  const exempt = result.type === 'exempt';
  return (
    <span className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
      {exempt ? <Badge tone="primary">{CELL_STATUS_LABELS.exempt}</Badge> : null}
      <span>
        {exempt ? 'Since' : 'Completed'} {formatDate(result.completed_at)}
        {result.expires_at ? ` · ${exempt ? 'until' : 'valid until'} ${formatDate(result.expires_at)}` : ''}
      </span>
    </span>
  );
}

function CertificateButton({ userRef, course }: { userRef: string; course: AvailableCourse }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      loading={busy}
      aria-label={`Download certificate for ${course.title}`}
      onClick={async () => {
        setBusy(true);
        await downloadCertificate(userRef, course.id);
        setBusy(false);
      }}
    >
      Download certificate
    </Button>
  );
}

const LABELS: Record<string, string> = {
  elearning: 'e-learning',
  scorm: 'interactive package',
  face2face: 'face-to-face',
  historical: 'historical',
};
const labelOf = (type: string) => LABELS[type] ?? type;

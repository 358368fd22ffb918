import {
  COURSE_STATUS_LABELS,
  courseStatusText,
  formatDate,
  type LearnerEvent,
  type LearnerEventCounts,
  LearningMessages,
} from '@cc/contracts';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { isMobile } from '../app/env';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { downloadCertificate, startAttempt } from '../learning/api';
import { DownloadRequiredTraining } from '../native/offline/DownloadRequired';
import { OfflineDownloadButton } from '../native/offline/OfflineDownloadButton';
import { offeredOffline } from '../native/offline/required';
import { Badge, type BadgeTone, Button, ButtonLink, Card, Spinner } from '../ui';
import { useLearnerEvents } from './api';
import { plural } from './ManagerDashboardParts';

/**
 * The learner's to-do (spec 1 §2 "learner events"; issue 13): "what must I do, in what order, by when", in words,
 * phone first. Three groups that match the three counts: overdue (out of date: expired, or never done past its due
 * date), to do (expiring, due by a date, in progress, awaiting approval), completed.
 * The order inside each group is the server's (overdue mandatory first, then expiring soonest).
 */

type Group = 'overdue' | 'current' | 'completed';
const groupOf = (e: LearnerEvent): Group =>
  e.state === 'overdue' ? 'overdue' : e.state === 'done' ? 'completed' : 'current';

/** The one status in words (contracts courseStatusText), as every other screen says it. */
const statusLine = (e: LearnerEvent) =>
  e.course_status
    ? courseStatusText({
        status: e.course_status,
        date: e.due_date,
        attempted: e.latest_result !== null && !e.latest_result.passed,
      })
    : '';

/** The state in words: the badge and the line under the course name. */
export function stateWords(e: LearnerEvent): { badge: string; tone: BadgeTone; line: string } {
  if (e.document_id && e.status !== 'exempt') return documentWords(e);
  const date = formatDate(e.due_date);
  const days = e.days_left ?? 0;
  switch (e.state) {
    case 'overdue':
      // Out of date (contracts courseStatus): expired, or never done past its due date.
      return {
        badge: 'Overdue',
        tone: 'danger',
        line:
          e.course_status === 'expired'
            ? `${statusLine(e)}${days < 0 ? ` (${plural(-days, 'day')} ago)` : ''}. Do it again now.`
            : `${statusLine(e)}: it is overdue. Do it now.`,
      };
    case 'expiring':
      return {
        badge: days <= 0 ? 'Expires today' : `Expires in ${plural(days, 'day')}`,
        tone: 'warning',
        line: `Valid until ${date}. Do it again before then.`,
      };
    case 'due':
      return {
        badge: COURSE_STATUS_LABELS.due,
        tone: 'neutral',
        // The later of the end of a new starter's period and a new requirement's due date (issue 33 §4).
        line: `${statusLine(e)}. Do it before then to stay in date.${
          e.latest_result && !e.latest_result.passed ? ' Not passed yet.' : ''
        }`,
      };
    case 'pending':
      return {
        badge: COURSE_STATUS_LABELS.pending,
        tone: 'primary',
        line: 'You sent a record of this course: it is waiting for a manager to approve it.',
      };
    case 'in_progress':
      return { badge: 'In progress', tone: 'primary', line: 'Started. Pick up where you left off.' };
    default:
      return e.status === 'exempt'
        ? {
            badge: 'Exempt',
            tone: 'primary',
            line: e.due_date ? `Exempt until ${date}.` : 'You are exempt from this course.',
          }
        : {
            badge: 'In date',
            tone: 'success',
            line: `${e.latest_result ? `Completed ${formatDate(e.latest_result.completed_at)}. ` : ''}${
              e.due_date ? `Valid until ${date}.` : 'It does not expire.'
            }`,
          };
  }
}

/** A document to read (issue 17): read and acknowledged, or still to read (a new version asks again). */
function documentWords(e: LearnerEvent): { badge: string; tone: BadgeTone; line: string } {
  if (e.state === 'done')
    return {
      badge: 'Acknowledged',
      tone: 'success',
      line: e.latest_result
        ? `Read and acknowledged on ${formatDate(e.latest_result.completed_at)}.`
        : 'Read and acknowledged.',
    };
  return {
    badge: 'To read',
    tone: 'warning',
    line: e.latest_result
      ? 'A new version was published: read it again and acknowledge it.'
      : 'Read it and confirm you have understood it.',
  };
}

export function EventCounts({ counts }: { counts: LearnerEventCounts }) {
  const items: { key: Group; label: string; value: number; tone: string }[] = [
    { key: 'overdue', label: 'Overdue', value: counts.overdue, tone: 'text-danger-700' },
    { key: 'current', label: 'To do', value: counts.current, tone: 'text-slate-900' },
    { key: 'completed', label: 'Completed', value: counts.completed, tone: 'text-success-800' },
  ];
  return (
    <nav aria-label="Your courses at a glance" data-testid="event-counts">
      <ul className="grid grid-cols-3 gap-2 sm:gap-4">
        {items.map((i) => (
          <li key={i.key}>
            <a
              href={`#todo-${i.key}`}
              className="focus-ring block rounded-xl bg-white p-3 text-center shadow-sm ring-1 ring-slate-200 hover:ring-primary-400 sm:p-4"
              data-testid={`count-${i.key}`}
            >
              <span className={`block text-2xl font-bold sm:text-3xl ${i.tone}`}>{i.value}</span>{' '}
              <span className="block text-sm font-medium text-slate-700">{i.label}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The counts, then the to-do grouped as the counts are, then the completed courses with their certificates. In the
 * mobile app (issue 31 §1) each course she can take online can be downloaded for offline use from its row, and
 * "Download my required training" saves her required ones, overdue first.
 */
export function LearnerTodo({
  userRef,
  completedTitle = 'Completed',
}: {
  userRef: string;
  /** The title of the completed courses (with their certificates). */
  completedTitle?: string;
}) {
  const events = useLearnerEvents(userRef);
  useEffect(() => {
    if (events.isError) notifyError(null, LearningMessages.errorLoadingAttempts);
  }, [events.isError]);

  if (events.isPending)
    return (
      <Card title="What you need to do">
        <Spinner label="Loading your courses" />
      </Card>
    );
  if (!events.data)
    return (
      <Card title="What you need to do">
        <p className="text-sm text-danger-700" role="alert">
          Your courses could not be loaded. Please reload the page.
        </p>
      </Card>
    );
  const { counts, data } = events.data;
  const by = (g: Group) => data.filter((e) => groupOf(e) === g);
  const overdue = by('overdue');
  const current = by('current');
  const completed = by('completed');
  return (
    <div className="space-y-4">
      <EventCounts counts={counts} />
      <Card title="What you need to do" data-testid="learner-todo" padded={false}>
        {overdue.length === 0 && current.length === 0 ? (
          <p className="p-5 text-sm text-slate-700">
            You are up to date. Nothing is overdue or due at the moment.
          </p>
        ) : (
          <>
            {isMobile() ? <DownloadRequiredTraining events={data} /> : null}
            <TodoGroup id="todo-overdue" title="Overdue" items={overdue} userRef={userRef} />
            <TodoGroup id="todo-current" title="To do" items={current} userRef={userRef} />
          </>
        )}
      </Card>
      <Card title={completedTitle} data-testid="completed-courses" padded={false}>
        <div id="todo-completed" className="scroll-mt-20">
          {completed.length === 0 ? (
            <p className="p-5 text-sm text-slate-700">
              Nothing completed yet. Your certificates will be here.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {completed.map((e) => (
                <TodoRow key={e.course.id} event={e} userRef={userRef} />
              ))}
            </ul>
          )}
        </div>
      </Card>
    </div>
  );
}

function TodoGroup({
  id,
  title,
  items,
  userRef,
}: {
  id: string;
  title: string;
  items: LearnerEvent[];
  userRef: string;
}) {
  if (!items.length) return <div id={id} />;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <h3
        id={`${id}-title`}
        className="border-b border-slate-100 bg-slate-50 px-5 py-2 text-sm font-semibold text-slate-700"
      >
        {title} ({items.length})
      </h3>
      <ul className="divide-y divide-slate-100">
        {items.map((e) => (
          <TodoRow key={e.course.id} event={e} userRef={userRef} />
        ))}
      </ul>
    </section>
  );
}

function TodoRow({ event: e, userRef }: { event: LearnerEvent; userRef: string }) {
  const wl = useWhitelabel();
  const words = stateWords(e);
  const kind =
    e.kind === 'mandatory'
      ? wl.primaryComplianceAltName
      : e.kind === 'required'
        ? wl.secondaryComplianceAltName
        : 'Optional';
  return (
    <li
      className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between"
      data-testid="todo-row"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-medium text-slate-900 wrap-anywhere">{e.course.title}</p>
        <p className="flex flex-wrap items-center gap-2">
          <Badge tone={words.tone}>{words.badge}</Badge>
          <Badge tone={e.kind === 'optional' ? 'neutral' : 'primary'}>{kind}</Badge>
        </p>
        <p className="text-sm text-slate-700" data-testid="todo-line">
          {words.line}
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <TodoAction event={e} userRef={userRef} />
        {/* Offline learning is the mobile app's (issue 19); every course she can take online, here too (31 §1). */}
        {isMobile() && offeredOffline(e) ? (
          <OfflineDownloadButton
            contentId={e.content_id}
            title={e.course.title}
            size="md"
            className="w-full sm:w-auto"
          />
        ) : null}
      </div>
    </li>
  );
}

/**
 * The courses the other-courses list leaves to the to-do (LearnerCourses `exclude`): those with nothing under way.
 * A course with an open attempt stays listed with all its items until it is done (issue 28 item 4): opening one of
 * its items must not hide the others.
 */
export function coursesLeftToTodo(events: readonly LearnerEvent[]): Set<number> {
  return new Set(events.filter((e) => e.attempt_id === null).map((e) => e.course.id));
}

/**
 * A required document's row (issue 17): its course is backed by the document, so the action is to read it at
 * /document/{id} (the server adds `document_id` to the item; absent on other courses).
 */
export const documentIdOf = (e: LearnerEvent): number | null => e.document_id ?? null;

function TodoAction({ event: e, userRef }: { event: LearnerEvent; userRef: string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const documentId = documentIdOf(e);
  if (documentId !== null)
    return (
      <ButtonLink
        to={`/document/${documentId}`}
        variant={e.state === 'done' ? 'secondary' : 'primary'}
        aria-label={`${e.state === 'done' ? 'Open' : 'Read'} ${e.course.title}`}
        className="w-full sm:w-auto"
      >
        {e.state === 'done' ? 'Open' : 'Read'}
      </ButtonLink>
    );
  // The to-do is about courses: Resume and Start open the attempt in its course (/cattempt), with the course's other
  // items beside it, not the one item alone.
  if (e.attempt_id !== null)
    return (
      <ButtonLink
        to={`/cattempt/${e.attempt_id}`}
        aria-label={`Resume ${e.course.title}`}
        className="w-full sm:w-auto"
      >
        Resume
      </ButtonLink>
    );
  if (e.state === 'done') {
    if (e.status === 'exempt' || !e.latest_result?.passed) return null;
    return (
      <Button
        size="sm"
        variant="secondary"
        loading={busy}
        aria-label={`Download certificate for ${e.course.title}`}
        onClick={async () => {
          setBusy(true);
          await downloadCertificate(userRef, e.course.id);
          setBusy(false);
        }}
      >
        Download certificate
      </Button>
    );
  }
  if (e.content_id === null)
    return <p className="text-sm text-slate-600 sm:max-w-48">Not available online. Ask your manager.</p>;
  const contentId = e.content_id;
  const label = e.latest_result ? 'Retake' : 'Start';
  return (
    <Button
      loading={busy}
      className="w-full sm:w-auto"
      aria-label={`${label} ${e.course.title}`}
      onClick={async () => {
        setBusy(true);
        const attempt = await startAttempt(userRef, contentId);
        setBusy(false);
        if (attempt) navigate(`/cattempt/${attempt.id}`);
      }}
    >
      {label}
    </Button>
  );
}

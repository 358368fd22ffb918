import {
  type Attempt,
  type AvailableCourse,
  LearningMessages,
  Messages,
  type Paged,
  type QuizSheet,
  type UpdateAttemptBody,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope, isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { isNetworkError } from '../app/network';
import { notifyError } from '../app/notifications';
import { downloadFile } from '../native/files';
import { getOutbox, snapshots, withPending } from './attempt-outbox';

/**
 * Learner calls (spec 1 §7 "Attempts" and "Users", spec 2 §7 POST /quizzes/take and /feedback/{id}).
 *
 * The lesson/topic structure of an attempt comes from GET /attempts/{id}/structure. NOTE: that endpoint is our
 * proposal to the server (it does not exist yet): the content-creator reads (GET /content/{id}, /lessons/{id},
 * /topics/{id}) need permission 63, which a learner does not have, and GET /attempts/{id} carries no lessons.
 */
export interface StructureTopic {
  id: number;
  title: string;
  /** Sanitised by the server when the author saved it. */
  body_html: string;
  hidden: boolean;
  skippable: boolean;
  is_child: boolean;
  /** must_pass: a graded task, completed only by passing it (server/src/learning/verdict.ts h5pMustBePassed). */
  h5p: { id: number; title: string; must_pass?: boolean } | null;
  resources: { title: string; url: string }[];
}
export interface StructureLesson {
  id: number;
  title: string;
  topics: StructureTopic[];
}
export interface StructureQuiz {
  id: number;
  title: string;
  pass_mark: number;
  /** Whether this attempt already has a passed quiz attempt for it. */
  passed?: boolean;
}
export interface AttemptStructure {
  lessons: StructureLesson[];
  quizzes: StructureQuiz[];
  /** The attempt's course and its other contents (shown by /cattempt). */
  course?: { id: number; title: string; contents: { id: number; title: string; type: string }[] };
}

export type LearnerList = 'available-courses' | 'compliant-courses' | 'personal-development-courses';

export function useLearnerCourses(userRef: string | undefined, list: LearnerList) {
  return useQuery({
    queryKey: ['learning', list, userRef],
    enabled: Boolean(userRef),
    queryFn: async () =>
      (
        await api.get<Paged<AvailableCourse>>(`/users/${encodeURIComponent(userRef ?? '')}/${list}`, {
          params: { per_page: 50 },
        })
      ).data.data,
  });
}

export function useCurrentAttempt() {
  return useQuery({
    queryKey: ['learning', 'current-attempt'],
    queryFn: async () => (await api.get<Envelope<Attempt | null>>('/attempts/current-attempt')).data.data,
  });
}

/**
 * GET /attempts/{id}, kept on the device as it is read; with no answer from the server (offline, issue 31 §2) the
 * copy kept last, so a reload without a signal shows the attempt instead of an error. Either way the writes still
 * in the outbox are laid over it (attempt-outbox.ts withPending).
 */
export function useAttempt(id: string | undefined) {
  const { user } = useAuth();
  const userId = user?.id;
  return useQuery({
    queryKey: ['learning', 'attempt', id],
    enabled: Boolean(id),
    retry: false,
    queryFn: async () => {
      let attempt: Attempt;
      try {
        attempt = (await api.get<Envelope<Attempt>>(`/attempts/${encodeURIComponent(id ?? '')}`)).data.data;
        if (userId !== undefined) await snapshots.saveAttempt(userId, attempt).catch(() => undefined);
      } catch (error) {
        const kept =
          isNetworkError(error) && userId !== undefined
            ? await snapshots.attempt(userId, id ?? '')
            : undefined;
        if (!kept) throw error;
        attempt = kept;
      }
      if (userId === undefined) return attempt;
      const pending = await getOutbox()
        .pending(userId, attempt.id)
        .catch(() => []);
      return withPending(attempt, pending);
    },
  });
}

/** GET /attempts/{id}/structure, kept on the device like the attempt (the copy when there is no answer). */
export function useAttemptStructure(id: string | undefined, enabled: boolean) {
  const { user } = useAuth();
  const userId = user?.id;
  return useQuery({
    queryKey: ['learning', 'attempt', id, 'structure'],
    enabled: Boolean(id) && enabled,
    retry: false,
    queryFn: async () => {
      try {
        const structure = (
          await api.get<Envelope<AttemptStructure>>(`/attempts/${encodeURIComponent(id ?? '')}/structure`)
        ).data.data;
        if (userId !== undefined)
          await snapshots.saveStructure(userId, id ?? '', structure).catch(() => undefined);
        return structure;
      } catch (error) {
        const kept =
          isNetworkError(error) && userId !== undefined
            ? await snapshots.structure<AttemptStructure>(userId, id ?? '')
            : undefined;
        if (!kept) throw error;
        return kept;
      }
    },
  });
}

/** POST /users/{id}/attempts: starts (or resumes) an attempt. A 422 (prerequisites, unpublished) shows the server's words. */
export async function startAttempt(userRef: string, contentId: number): Promise<Attempt | null> {
  try {
    const res = await api.post<Envelope<Attempt>>(`/users/${encodeURIComponent(userRef)}/attempts`, {
      content_id: contentId,
    });
    return res.data.data;
  } catch (error) {
    if (isApiError(error) && error.status === 422)
      notifyError(error.data, LearningMessages.errorCreatingAttempt);
    else if (!isApiError(error) || error.status !== 403)
      notifyError(null, LearningMessages.errorCreatingAttempt);
    return null;
  }
}

/**
 * A PATCH sent so that it outlives the page (fetch keepalive, authenticated like every call: the session
 * cookie and X-XSRF-TOKEN, or the bearer token in the app), for a save made as the learner leaves. A body too large
 * for keepalive (64 KiB) goes as a plain request. Failures are not the learner's to handle: the page is going.
 */
export async function patchAttemptOnLeave(id: number, body: UpdateAttemptBody): Promise<Attempt | null> {
  const send = (keepalive: boolean) =>
    api.patch<Envelope<Attempt>>(`/attempts/${id}`, body, { keepalive, skipAuthHandling: true });
  try {
    return (await send(true)).data.data;
  } catch (error) {
    if (error instanceof TypeError)
      return send(false).then(
        (r) => r.data.data,
        () => null,
      );
    return null;
  }
}

export function takeQuizStart(attemptId: number, quizId: number) {
  return api
    .post<Envelope<QuizSheet>>('/quizzes/take', { attempt_id: attemptId, quiz_id: quizId })
    .then((r) => r.data.data);
}

export function sendFeedback(contentId: number, rating: number, message: string) {
  return api
    .post<Envelope<unknown>>(`/feedback/${contentId}`, { rating, message: message.trim() || null })
    .then((r) => r.data.message);
}

export interface UpdateFailureDeps {
  notify: (message: string, data?: Parameters<typeof notifyError>[0]) => void;
  reload: () => void;
  wait: (fn: () => void, ms: number) => void;
}

/** The page reload, replaceable in tests. */
export const pageControls = { reload: () => window.location.reload() };

const defaultDeps: UpdateFailureDeps = {
  notify: (message, data) => notifyError(data ?? null, message),
  reload: () => pageControls.reload(),
  wait: (fn, ms) => window.setTimeout(fn, ms),
};

/**
 * Spec 1 §4 "Attempt update conflict": on 409 the server's message is shown (the page keeps its state so the
 * learner can read it). Anything else (a 422, a 5xx, no answer at all) shows the notice 'Lost connection to server.
 * Please try again.' and the page reloads after 1 second, so the learner continues from what the server holds.
 * Returns what happened (for the caller's live region and tests).
 */
export function handleAttemptUpdateFailure(
  error: unknown,
  deps: UpdateFailureDeps = defaultDeps,
): 'conflict' | 'lost' {
  if (isApiError(error) && error.status === 409) {
    deps.notify(error.data?.message || LearningMessages.attemptConflict);
    return 'conflict';
  }
  deps.notify(Messages.lostConnection);
  deps.wait(deps.reload, 1000);
  return 'lost';
}

/** POST /retake_attempt/{id}: a new attempt of the same content once this one is finished. */
export async function retakeAttempt(attemptId: number): Promise<Attempt | null> {
  try {
    return (await api.post<Envelope<Attempt>>(`/retake_attempt/${attemptId}`)).data.data;
  } catch (error) {
    if (!isApiError(error) || error.status !== 403)
      notifyError(
        isApiError(error) && error.status === 422 ? error.data : null,
        LearningMessages.errorCreatingAttempt,
      );
    return null;
  }
}

/**
 * GET /users/{id}/training-certificate?course_id=… through the api client (it answers a Blob for a PDF), saved
 * under the server's file name.
 */
export function downloadCertificate(userRef: string, courseId: number): Promise<boolean> {
  return downloadFile(
    () =>
      api.get<Blob>(`/users/${encodeURIComponent(userRef)}/training-certificate`, {
        params: { course_id: courseId },
      }),
    { fallbackName: 'certificate.pdf', failure: LearningMessages.noCertificate },
  );
}

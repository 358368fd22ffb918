import { LearningMessages, Messages } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../app/api';
import { setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { fileNameFrom } from '../native/files';
import { makeUser } from '../test/factories';
import { json, stubApi } from '../test/fake-api';
import AttemptPage from './AttemptPage';
import { type AttemptStructure, handleAttemptUpdateFailure, pageControls, type StructureTopic } from './api';
import { setOutbox } from './attempt-outbox';
import { buildOutline, initialStep, steps } from './outline';
import { choose, toResponses, unanswered } from './quiz-state';

const topic = (id: number, over: Partial<StructureTopic> = {}): StructureTopic => ({
  id,
  title: `Topic ${id}`,
  body_html: `<p>Body ${id}</p>`,
  hidden: false,
  skippable: false,
  is_child: false,
  h5p: null,
  resources: [],
  ...over,
});

describe('outline', () => {
  const lessons = [
    {
      id: 1,
      title: 'Lesson one',
      topics: [
        topic(10),
        topic(11, { is_child: true }),
        topic(12, { hidden: true }),
        topic(13, { is_child: true }), // child of a hidden parent: shown at the top level
        topic(14, { skippable: true }),
        topic(15, { is_child: true, hidden: true }),
      ],
    },
    { id: 2, title: 'Lesson two', topics: [topic(20, { is_child: true }), topic(21)] },
  ];

  it('drops hidden topics, nests children under their parent, keeps skippable marked', () => {
    const outline = buildOutline(lessons);
    const shape = outline.map((l) => l.topics.map((t) => [t.topic.id, t.children.map((c) => c.topic.id)]));
    expect(shape).toEqual([
      [
        [10, [11]],
        [13, []],
        [14, []],
      ],
      [
        [20, []],
        [21, []],
      ],
    ]);
    expect(outline[0]?.topics[2]?.topic.skippable).toBe(true);
  });

  it('reads parents, their children, then the quizzes; opens on the saved position or the first not done', () => {
    const all = steps(buildOutline(lessons), [{ id: 5, title: 'Quiz', pass_mark: 80 }]);
    expect(all.map((s) => s.key)).toEqual(['t10', 't11', 't13', 't14', 't20', 't21', 'q5']);
    expect(initialStep(all, { current: { topic_id: 14 } })).toBe(3);
    expect(initialStep(all, { current: { topic_id: 12 }, completed_topic_ids: [10, 11] })).toBe(2);
    expect(initialStep(all, { completed_topic_ids: [10, 11, 13, 14, 20, 21] })).toBe(6);
  });
});

describe('quiz answers', () => {
  const sheet = {
    questions: [
      {
        id: 1,
        text: 'One',
        answers: [
          { id: 11, text: 'a' },
          { id: 12, text: 'b' },
        ],
      },
      {
        id: 2,
        text: 'Two',
        answers: [
          { id: 21, text: 'a' },
          { id: 22, text: 'b' },
        ],
      },
    ],
  };
  it('a radio answer replaces the choice, a checkbox answer toggles', () => {
    let a = choose({}, 1, 11, false);
    a = choose(a, 1, 12, false);
    expect(a[1]).toEqual([12]);
    a = choose(a, 2, 21, true);
    a = choose(a, 2, 22, true);
    expect(a[2]).toEqual([21, 22]);
    a = choose(a, 2, 21, true);
    expect(a[2]).toEqual([22]);
    expect(toResponses(sheet, a)).toEqual({ '1': [12], '2': [22] });
  });
  it('counts unanswered questions (an emptied checkbox question counts)', () => {
    expect(unanswered(sheet, {})).toBe(2);
    expect(unanswered(sheet, { 1: [11], 2: [] })).toBe(1);
  });
});

describe('attempt update failures (spec 1 §4)', () => {
  const apiError = (status: number, message: string) =>
    new ApiError({ status, data: { message }, headers: new Headers() });
  it('409 shows the server message and does not reload; anything else (422, 500, no answer) shows the notice and reloads after 1 s', () => {
    const notify = vi.fn();
    const reload = vi.fn();
    const wait = vi.fn((fn: () => void, ms: number) => {
      expect(ms).toBe(1000);
      fn();
    });
    expect(
      handleAttemptUpdateFailure(apiError(409, 'Changed on another device.'), { notify, reload, wait }),
    ).toBe('conflict');
    expect(notify).toHaveBeenLastCalledWith('Changed on another device.');
    expect(reload).not.toHaveBeenCalled();
    expect(handleAttemptUpdateFailure(new TypeError('Failed to fetch'), { notify, reload, wait })).toBe(
      'lost',
    );
    expect(notify).toHaveBeenLastCalledWith(Messages.lostConnection);
    expect(reload).toHaveBeenCalledTimes(1);
    // A 422 is not the server message either (spec 1 §4: only 409 is).
    expect(
      handleAttemptUpdateFailure(apiError(422, 'This topic cannot be skipped.'), { notify, reload, wait }),
    ).toBe('lost');
    expect(notify).toHaveBeenLastCalledWith(Messages.lostConnection);
    expect(notify).not.toHaveBeenCalledWith('This topic cannot be skipped.', expect.anything());
    expect(reload).toHaveBeenCalledTimes(2);
    expect(handleAttemptUpdateFailure(apiError(500, 'Server Error'), { notify, reload, wait })).toBe('lost');
    expect(reload).toHaveBeenCalledTimes(3);
  });
  it('reads the file name from Content-Disposition', () => {
    expect(fileNameFrom('attachment; filename="certificate-casey.pdf"', 'x.pdf')).toBe(
      'certificate-casey.pdf',
    );
    expect(fileNameFrom(null, 'x.pdf')).toBe('x.pdf');
  });
});

// --- The player against a stubbed server --------------------------------------------------------------------

function attemptBody(over: Record<string, unknown> = {}) {
  return {
    id: 9,
    uuid: 'a-9',
    user_id: 7,
    content_id: 3,
    course_id: 2,
    content: { id: 3, title: 'Moving and handling', type: 'elearning' },
    course: { id: 2, title: 'Safe care' },
    status: 'in_progress',
    progress: { visited_topic_ids: [], completed_topic_ids: [], skipped_topic_ids: [], current: null },
    cmi: {},
    score: null,
    version: 3,
    started_at: '2025-01-01T00:00:00.000Z',
    completed_at: null,
    updated_at: '2025-01-01T00:00:00.000Z',
    result_id: null,
    result_passed: null,
    ...over,
  };
}
const structure: AttemptStructure = {
  lessons: [
    {
      id: 1,
      title: 'Lesson one',
      topics: [
        topic(10, { body_html: '<p>Lift with your legs.</p>' }),
        topic(11, { hidden: true, title: 'Secret' }),
        topic(12),
      ],
    },
  ],
  quizzes: [{ id: 5, title: 'Check', pass_mark: 50 }],
};

type PatchBody = { version: number; completed_topic_id?: number; client_id?: string };
type Patch = (body: PatchBody) => Response | Promise<Response>;
let onPatch: Patch;
const patches: PatchBody[] = [];
/** What GET /attempts/9 and its structure answer (each test may change them). */
let served: { attempt: Record<string, unknown>; structure: AttemptStructure };
const posts: string[] = [];
const quizPosts: Record<string, unknown>[] = [];
let onQuiz: (body: Record<string, unknown>) => Response | Promise<Response> = () => json(404, {});

function renderPlayer() {
  const router = createMemoryRouter([{ path: '/attempt/:attemptId', Component: AttemptPage }], {
    initialEntries: ['/attempt/9'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const notices = () => notificationsStore.get().map((n) => n.message);

describe('attempt player', () => {
  beforeEach(() => {
    setUser(makeUser());
    // A fresh outbox (in memory) for each test: nothing waiting from the test before.
    setOutbox(null);
    notificationsStore.set([]);
    patches.length = 0;
    posts.length = 0;
    quizPosts.length = 0;
    served = { attempt: attemptBody(), structure };
    stubApi(({ method, url, body }) => {
      if (url.pathname === '/api/attempts/9' && method === 'GET') return json(200, { data: served.attempt });
      if (url.pathname === '/api/attempts/9/structure') return json(200, { data: served.structure });
      if (url.pathname === '/api/retake_attempt/9' && method === 'POST') {
        posts.push(url.pathname);
        return json(201, { data: attemptBody({ id: 10, version: 1 }) });
      }
      if (url.pathname === '/api/attempts/10' && method === 'GET')
        return json(200, { data: attemptBody({ id: 10, version: 1 }) });
      if (url.pathname === '/api/attempts/10/structure') return json(200, { data: served.structure });
      if (url.pathname === '/api/quizzes/take' && method === 'POST') {
        quizPosts.push(body as Parameters<typeof onQuiz>[0]);
        return onQuiz(body as Parameters<typeof onQuiz>[0]);
      }
      if (url.pathname === '/api/attempts/9' && method === 'PATCH') {
        patches.push(body as PatchBody);
        return onPatch(body as PatchBody);
      }
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setUser(null);
  });

  it('shows the outline without hidden topics and sends each update with the version of the last answer', async () => {
    let version = 3;
    onPatch = () => {
      version += 1;
      return json(200, {
        data: attemptBody({
          version,
          progress: { completed_topic_ids: patches.map((p) => p.completed_topic_id), current: null },
        }),
      });
    };
    const user = userEvent.setup();
    renderPlayer();
    const nav = await screen.findByRole('navigation', { name: 'Course outline' });
    expect(within(nav).queryByText('Secret')).toBeNull();
    expect(within(nav).getByRole('button', { name: /Topic 12/ })).toBeInTheDocument();
    expect(screen.getByTestId('topic-body')).toHaveTextContent('Lift with your legs.');
    await user.click(screen.getByRole('button', { name: 'Mark complete' }));
    await screen.findByRole('heading', { name: 'Topic 12' });
    await user.click(screen.getByRole('button', { name: 'Mark complete' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches.map((p) => [p.version, p.completed_topic_id])).toEqual([
      [3, 10],
      [4, 12],
    ]);
  });

  it('on 409 shows the server message and keeps the page; with no answer keeps the step on the device and sends it when the signal returns', async () => {
    const reload = vi.spyOn(pageControls, 'reload').mockImplementation(() => {});
    onPatch = () => json(409, { message: 'This attempt was updated elsewhere. Reload to continue.' });
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));
    await waitFor(() =>
      expect(notices()).toContain('This attempt was updated elsewhere. Reload to continue.'),
    );
    await new Promise((r) => setTimeout(r, 1100));
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();

    // Issue 31 §2: no answer is not a lost step. It stays in the outbox, shown done, and the page says where it is.
    onPatch = () => Promise.reject(new TypeError('Failed to fetch'));
    await user.click(screen.getByRole('button', { name: 'Mark complete' }));
    expect(await screen.findByTestId('saved-locally')).toHaveTextContent(LearningMessages.savedOnDevice);
    const outline = screen.getByRole('navigation', { name: 'Course outline' });
    expect(within(outline).getByRole('button', { name: /Topic 10 ?\(completed\)/ })).toBeInTheDocument();
    expect(notices()).not.toContain(Messages.lostConnection);
    await new Promise((r) => setTimeout(r, 1100));
    expect(reload).not.toHaveBeenCalled();
    const sentOffline = patches.at(-1);
    expect(sentOffline?.client_id).toMatch(/^[0-9a-f-]{36}$/);

    // The signal returns: the same write (same client id) is sent and the server's attempt is shown.
    onPatch = (body) =>
      json(200, {
        data: attemptBody({
          version: 4,
          progress: { completed_topic_ids: [body.completed_topic_id], current: null },
        }),
      });
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(screen.queryByTestId('saved-locally')).toBeNull());
    expect(patches.at(-1)?.client_id).toBe(sentOffline?.client_id);
    expect(patches.at(-1)?.completed_topic_id).toBe(10);
    expect(within(outline).getByRole('button', { name: /Topic 10 ?\(completed\)/ })).toBeInTheDocument();
  });

  it('a 422 on an update is a lost connection too: the notice, not the server message, and a reload after 1 s', async () => {
    const reload = vi.spyOn(pageControls, 'reload').mockImplementation(() => {});
    onPatch = () => json(422, { message: 'The topic is not part of this content.', errors: {} });
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Mark complete' }));
    await waitFor(() => expect(notices()).toContain(Messages.lostConnection));
    expect(notices()).not.toContain('The topic is not part of this content.');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 1500 });
  });

  it('quiz answers sent with no answer stay on the device, say so, and are marked once the signal returns', async () => {
    served = {
      attempt: attemptBody({ progress: { completed_topic_ids: [10, 12], current: { quiz_id: 5 } } }),
      structure,
    };
    const sheet = {
      quiz_attempt_id: 41,
      quiz: { id: 5, title: 'Check', pass_mark: 50, is_randomized: false },
      questions: [
        {
          id: 1,
          text: 'When?',
          multiple: false,
          answers: [
            { id: 11, text: 'Before' },
            { id: 12, text: 'After' },
          ],
        },
      ],
    };
    onQuiz = (body) =>
      'attempt_id' in body ? json(200, { data: sheet }) : Promise.reject(new TypeError('Failed to fetch'));
    const user = userEvent.setup();
    renderPlayer();
    await user.click(await screen.findByRole('button', { name: 'Start the quiz' }));
    await user.click(await screen.findByLabelText('Before'));
    await user.click(screen.getByRole('button', { name: 'Send answers' }));
    expect(await screen.findByTestId('quiz-saved-locally')).toHaveTextContent(LearningMessages.savedOnDevice);
    expect(screen.getByLabelText('Before')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Send answers' })).toBeNull();
    const offline = quizPosts.at(-1);
    expect(offline).toMatchObject({ quiz_attempt_id: 41, responses: { '1': [11] } });
    expect(String(offline?.client_id)).toMatch(/^[0-9a-f-]{36}$/);

    onQuiz = (body) =>
      json(200, {
        message: 'Quiz passed.',
        data: {
          quiz_attempt_id: body.quiz_attempt_id,
          score: 100,
          pass_mark: 50,
          passed: true,
          questions: [{ id: 1, correct: true }],
          attempt: attemptBody({
            status: 'passed',
            score: 100,
            version: 4,
            result_id: 3,
            result_passed: true,
          }),
        },
      });
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByTestId('quiz-outcome')).toHaveTextContent('Passed: 100% (pass mark 50%)');
    expect(quizPosts.at(-1)?.client_id).toBe(offline?.client_id);
    expect(screen.queryByTestId('quiz-saved-locally')).toBeNull();
    await waitFor(() => expect(screen.queryByTestId('saved-locally')).toBeNull());
  });

  it('the completion trap: with the quiz passed and a topic left, names the topic and opens it', async () => {
    served = {
      attempt: attemptBody({
        progress: { completed_topic_ids: [12], current: { quiz_id: 5 } },
      }),
      structure: { ...structure, quizzes: [{ id: 5, title: 'Check', pass_mark: 50, passed: true }] },
    };
    const user = userEvent.setup();
    renderPlayer();
    const left = await screen.findByTestId('still-to-do');
    expect(left).toHaveTextContent('Still to do before this course is complete');
    expect(
      within(left)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Go to Topic 10']);
    await user.click(within(left).getByRole('button', { name: 'Go to Topic 10' }));
    // The heading takes focus in an effect once the topic has rendered, which may be a tick after it appears.
    const heading = await screen.findByRole('heading', { name: 'Topic 10' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Mark complete' })).toBeInTheDocument();
  });

  it('does not offer "Mark complete" on a topic whose H5P activity was failed; says how to complete it', async () => {
    served = {
      attempt: attemptBody({
        progress: {
          completed_topic_ids: [],
          current: { topic_id: 10 },
          h5p_results: {
            '10': { h5p_id: 4, score_scaled: 0, success: false, completion: false, recorded_at: 'x' },
          },
        },
      }),
      structure: {
        ...structure,
        lessons: [{ id: 1, title: 'Lesson one', topics: [topic(10, { h5p: { id: 4, title: 'Blanks' } })] }],
      },
    };
    renderPlayer();
    expect(await screen.findByTestId('activity-gate')).toHaveTextContent(
      'Not passed yet: try the activity again. Passing it completes this topic.',
    );
    expect(screen.queryByRole('button', { name: 'Mark complete' })).toBeNull();
  });

  it('a failed attempt says failed with its score and retakes into a new attempt', async () => {
    served = {
      attempt: attemptBody({
        content: { id: 3, title: 'Moving and handling', type: 'scorm' },
        status: 'failed',
        score: 7,
        result_id: 31,
        result_passed: false,
        completed_at: '2025-01-02T00:00:00.000Z',
      }),
      structure,
    };
    const user = userEvent.setup();
    const router = renderPlayer();
    expect(await screen.findByRole('heading', { name: 'Not passed' })).toBeInTheDocument();
    expect(screen.getByTestId('attempt-outcome')).toHaveTextContent('You scored 7%, which is not a pass.');
    expect(screen.queryByRole('button', { name: 'Download certificate' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Retake' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/attempt/10'));
    expect(posts).toEqual(['/api/retake_attempt/9']);
  });

  it('shows the certificate for any passed result, whatever the status word (SCORM 2004 completed and passed)', async () => {
    served = {
      attempt: attemptBody({
        content: { id: 3, title: 'Moving and handling', type: 'scorm' },
        status: 'completed',
        score: 90,
        result_id: 32,
        result_passed: true,
        completed_at: '2025-01-02T00:00:00.000Z',
      }),
      structure,
    };
    renderPlayer();
    expect(
      await screen.findByRole('heading', { name: 'Well done — you have completed this course' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download certificate' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retake' })).toBeNull();
  });
});

import type { LearnerEvent, LearnerEvents, OfflineDownload } from '@cc/contracts';
import { OfflineMessages } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, stubApi } from '../../test/fake-api';

/**
 * Issue 31, the carer's start page in the mobile app. §1: every course she can take online can be downloaded from
 * her to-do, and "Download my required training" saves her required ones, overdue first. §3: opened offline, the
 * page shows what is on the phone, says it is offline, raises no error, and comes back when the server answers.
 */

let native = false;
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Data: 'DATA' },
  Encoding: { UTF8: 'utf8' },
  Filesystem: { writeFile: vi.fn(), rmdir: vi.fn(), readFile: vi.fn() },
}));
vi.mock('@capacitor/core', async (original) => ({
  ...(await original<typeof import('@capacitor/core')>()),
  Capacitor: { isNativePlatform: () => native, convertFileSrc: (uri: string) => uri },
}));

const { setUser } = await import('../../app/auth');
const { networkStore } = await import('../../app/network');
const { notificationsStore } = await import('../../app/notifications');
const { makeUser } = await import('../../test/factories');
const { LearnerTodo } = await import('../../dashboards/LearnerTodo');
const { default: EventsPage } = await import('../../dashboards/EventsPage');
const { memoryStore } = await import('./kv');
const { offlineLibrary } = await import('./library');
const { setLibrary } = await import('./state');
const { bulkStore, downloadInOrder, requiredForOffline } = await import('./required');
const { PROBE_MS } = await import('./OfflineStart');

const USER = makeUser();

let nextId = 1;
const event = (title: string, e: Partial<LearnerEvent>): LearnerEvent => {
  const id = nextId++;
  return {
    course: { id, title },
    kind: 'mandatory',
    state: 'due',
    status: 'missing',
    course_status: 'due',
    due_date: null,
    days_left: null,
    attempt_id: null,
    content_id: 100 + id,
    content_type: 'elearning',
    latest_result: null,
    ...e,
  };
};
const passed = {
  result_id: 1,
  type: 'elearning',
  passed: true,
  completed_at: '2026-05-01T09:00:00.000Z',
  expires_at: '2027-05-01T09:00:00.000Z',
};

const fire = event('Fire safety', { state: 'overdue', status: 'expired', course_status: 'expired' });
const food = event('Food hygiene', { kind: 'required', state: 'overdue', status: 'missing' });
const moving = event('Moving and handling', { state: 'expiring', status: 'expiring', latest_result: passed });
const safeguarding = event('Safeguarding', {});
const dataProtection = event('Data protection', { kind: 'required', state: 'in_progress', attempt_id: 77 });
const baking = event('Baking', { kind: 'optional', state: 'in_progress', status: null, attempt_id: 78 });
const meds = event('Medication', { state: 'pending', course_status: 'pending' });
const health = event('Health and safety', { state: 'done', status: 'in_date', latest_result: passed });
const policy = event('Whistleblowing policy', { content_id: null, content_type: null, document_id: 5 });
const manual = event('First aid', { content_id: null, content_type: null });
const scormCourse = event('Hoist training', { state: 'overdue', content_type: 'scorm' });

const body: LearnerEvents = {
  counts: { overdue: 3, current: 6, completed: 1 },
  data: [fire, food, scormCourse, moving, safeguarding, dataProtection, baking, meds, policy, manual, health],
};

const copy = (contentId: number, title: string): OfflineDownload =>
  ({
    download_id: `00000000-0000-4000-8000-${String(contentId).padStart(12, '0')}`,
    downloaded_at: '2026-11-29T09:00:00.000Z',
    files_expire_at: '2026-11-29T10:00:00.000Z',
    user_id: USER.id,
    content: { id: contentId, title, type: 'elearning' },
    course: { id: contentId - 100, title },
    lessons: [],
    quizzes: [],
    packages: [],
    runtime_files: [],
    learner: { id: String(USER.id), name: 'Carer, Sam' },
  }) as unknown as OfflineDownload;

let library: ReturnType<typeof offlineLibrary>;
let calls: ApiCall[];
/** The server: the to-do, and a download for any content (refused with 422 for `refuse`). */
let refuse: Set<number>;
beforeEach(() => {
  native = false;
  vi.stubEnv('VITE_FORCE_MOBILE', '1');
  library = offlineLibrary(memoryStore());
  setLibrary(library);
  setUser(USER);
  notificationsStore.set([]);
  networkStore.set({ online: true, reachable: true });
  refuse = new Set();
  calls = stubApi(({ route: path, body: sent }) => {
    if (path === `/users/${USER.uuid}/events`) return json(200, { data: body });
    if (path === '/offline/downloads') {
      const id = (sent as { content_id: number }).content_id;
      if (refuse.has(id)) return json(422, { message: 'This content cannot be taken offline.', errors: {} });
      const e = body.data.find((x) => x.content_id === id);
      return json(201, { data: copy(id, e?.course.title ?? 'Course') });
    }
    if (path === '/auth/user') return json(200, { data: USER });
    if (path === '/attempts/current-attempt') return json(200, { data: null });
    return json(200, { data: [] });
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

const renderWith = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
const downloads = () => calls.filter((c) => c.path === '/offline/downloads').map((c) => c.body);
const messages = () => notificationsStore.get().map((n) => [n.type, n.message]);

describe('issue 31 §1: her required training can be taken offline', () => {
  it('chooses the required courses still to do that the phone can take, overdue first, each once', () => {
    expect(requiredForOffline(body.data).map((i) => i.title)).toEqual([
      'Fire safety',
      'Food hygiene',
      'Moving and handling',
      'Safeguarding',
      'Data protection',
    ]);
    // A SCORM package plays offline in the shell only (files.ts): there it is saved too, in its place.
    native = true;
    expect(requiredForOffline(body.data).map((i) => i.title)).toEqual([
      'Fire safety',
      'Food hygiene',
      'Hoist training',
      'Moving and handling',
      'Safeguarding',
      'Data protection',
    ]);
    expect(requiredForOffline([fire, { ...fire, course: { id: 999, title: 'Same content' } }])).toHaveLength(
      1,
    );
  });

  it('offers "Download for offline" on every to-do course she can take online: overdue, required, in progress', async () => {
    renderWith(<LearnerTodo userRef={USER.uuid} />);
    const overdue = await screen.findByRole('region', { name: 'Overdue (3)' });
    for (const title of ['Fire safety', 'Food hygiene'])
      expect(within(overdue).getByRole('button', { name: `Download ${title} for offline` })).toBeVisible();
    // In a browser the mobile build takes no package offline: no button that would fail.
    expect(within(overdue).queryByRole('button', { name: 'Download Hoist training for offline' })).toBeNull();
    const todo = screen.getByRole('region', { name: /^To do/ });
    for (const title of ['Moving and handling', 'Safeguarding', 'Data protection', 'Baking', 'Medication'])
      expect(within(todo).getByRole('button', { name: `Download ${title} for offline` })).toBeVisible();
    // Not a document to read, not a course without online content, not one done.
    for (const title of ['Whistleblowing policy', 'First aid', 'Health and safety'])
      expect(screen.queryByRole('button', { name: `Download ${title} for offline` })).toBeNull();

    // One course on its own.
    await userEvent.click(within(todo).getByRole('button', { name: 'Download Safeguarding for offline' }));
    expect(await within(todo).findByRole('link', { name: 'Take Safeguarding offline' })).toHaveAttribute(
      'href',
      `/offline/${safeguarding.content_id}`,
    );
    expect(await library.getDownload(USER.id, safeguarding.content_id as number)).toBeDefined();
  });

  it('"Download my required training" saves them one after the other, overdue first, and says when all are there', async () => {
    await library.saveDownload(USER.id, {
      download: copy(moving.content_id as number, 'Moving and handling'),
      files: {},
      saved_at: '2026-11-28T09:00:00.000Z',
    });
    renderWith(<LearnerTodo userRef={USER.uuid} />);
    const block = await screen.findByTestId('download-required');
    expect(block).toHaveTextContent(
      'Take the other 4 courses you must do without a signal: save them on this phone, overdue first.',
    );
    await userEvent.click(within(block).getByRole('button', { name: OfflineMessages.saveRequired }));

    await waitFor(() =>
      expect(screen.getByTestId('download-required')).toHaveTextContent(OfflineMessages.requiredSaved),
    );
    // In the to-do's order, the one already on the phone not fetched again, optional and pending ones left.
    expect(downloads()).toEqual([
      { content_id: fire.content_id },
      { content_id: food.content_id },
      { content_id: safeguarding.content_id },
      { content_id: dataProtection.content_id },
    ]);
    expect(messages()).toEqual([['success', OfflineMessages.requiredSaved]]);
    for (const e of [fire, food, moving, safeguarding, dataProtection])
      expect(await screen.findByRole('link', { name: `Take ${e.course.title} offline` })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download Baking for offline' })).toBeVisible();
    expect(bulkStore.get().running).toBe(false);
  });

  it('shows which course it is saving and how far it is', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const run = downloadInOrder(
      USER.id,
      requiredForOffline(body.data),
      async (_user, contentId, progress) => {
        progress(1, 4);
        if (contentId === fire.content_id) await held;
      },
    );
    renderWith(<LearnerTodo userRef={USER.uuid} />);
    const block = await screen.findByTestId('download-required');
    await waitFor(() => expect(block).toHaveTextContent('Saving 1 of 5: Fire safety…'));
    expect(within(block).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '5');
    expect(within(block).getByRole('button', { name: OfflineMessages.saveRequired })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Download Fire safety for offline' })).toHaveTextContent(
      'Saving…',
    );
    release();
    await act(() => run);
  });

  it('goes on after a course the server refuses, stops when the signal goes, and says so', async () => {
    refuse.add(food.content_id as number);
    const first = await downloadInOrder(USER.id, requiredForOffline(body.data));
    expect(first?.saved.map((i) => i.title)).toEqual([
      'Fire safety',
      'Moving and handling',
      'Safeguarding',
      'Data protection',
    ]);
    expect(first?.failed.map((i) => i.title)).toEqual(['Food hygiene']);
    expect(messages()).toEqual([
      ['error', OfflineMessages.requiredPartly.replace(':failed', '1').replace(':total', '5')],
    ]);

    notificationsStore.set([]);
    for (const id of [fire, moving].map((e) => e.content_id as number))
      await library.removeDownload(USER.id, id);
    const tried: number[] = [];
    const second = await downloadInOrder(USER.id, requiredForOffline(body.data), async (_u, contentId) => {
      tried.push(contentId);
      if (contentId === food.content_id) throw new TypeError('Failed to fetch');
    });
    // Fire safety saved, then no answer: nothing more tried.
    expect(tried).toEqual([fire.content_id, food.content_id]);
    expect(second?.stopped).toBe(true);
    expect(messages()).toEqual([
      ['error', OfflineMessages.requiredStopped.replace(':saved', '1').replace(':total', '3')],
    ]);
  });
});

describe('issue 31 §3: the start page opened offline', () => {
  it('asks the server for nothing, says it is offline, shows what is on the phone, raises no error', async () => {
    await library.saveDownload(USER.id, {
      download: copy(fire.content_id as number, 'Fire safety'),
      files: {},
      saved_at: '2026-11-28T09:00:00.000Z',
    });
    networkStore.set({ online: false, reachable: true });
    renderWith(<EventsPage />);
    const notice = await screen.findByTestId('offline-notice');
    expect(within(notice).getByRole('heading')).toHaveTextContent(OfflineMessages.offlineStartMobile);
    const saved = await screen.findByTestId('offline-start-downloads');
    expect(await within(saved).findByRole('link', { name: 'Take Fire safety offline' })).toHaveAttribute(
      'href',
      `/offline/${fire.content_id}`,
    );
    expect(screen.getByTestId('who-am-i')).toHaveTextContent(USER.email);
    expect(calls).toEqual([]);
    expect(messages()).toEqual([]);
    expect(screen.queryByRole('alert')).toBeNull();

    // The signal returns: the online page, read from the server.
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByTestId('learner-todo')).toBeVisible();
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    expect(calls.some((c) => c.path === `/users/${USER.uuid}/events`)).toBe(true);
  });

  it('with the browser online but no answer from the server, asks again quietly and comes back on an answer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    networkStore.set({ online: true, reachable: false });
    renderWith(<EventsPage />);
    await screen.findByTestId('offline-notice');
    expect(calls).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(PROBE_MS);
    });
    expect(await screen.findByTestId('learner-todo')).toBeVisible();
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/auth/user' });
    expect(networkStore.get().reachable).toBe(true);
    expect(messages()).toEqual([]);
  });
});

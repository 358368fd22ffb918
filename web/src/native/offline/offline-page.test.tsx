import { type OfflineDownload, OfflineMessages, type SyncOfflineAttemptBody } from '@cc/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const removed: string[] = [];
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Data: 'DATA' },
  Filesystem: {
    writeFile: vi.fn(),
    rmdir: vi.fn(async (o: { path: string }) => {
      removed.push(o.path);
    }),
  },
}));
vi.mock('@capacitor/core', async (original) => ({
  ...(await original<typeof import('@capacitor/core')>()),
  Capacitor: { isNativePlatform: () => true, convertFileSrc: (uri: string) => uri },
}));

const { setUser } = await import('../../app/auth');
const { makeUser } = await import('../../test/factories');
const { memoryStore } = await import('./kv');
const { offlineLibrary } = await import('./library');
const { setLibrary } = await import('./state');
const { default: OfflinePage } = await import('./OfflinePage');

const USER = 7;
const copy = (contentId: number, title: string, packageUuid: string) => ({
  download: {
    download_id: `0000000${contentId}-1e2f-4a3b-8c4d-5e6f7a8b9c0d`,
    content: { id: contentId, title, type: 'scorm' },
    course: { id: 40 + contentId, title: `${title} course` },
    packages: [{ uuid: packageUuid }],
  } as unknown as OfflineDownload,
  files: {},
  saved_at: '2026-03-02T09:00:00.000Z',
});
const attempt = (uuid: string, contentId: number, o: Partial<SyncOfflineAttemptBody> = {}) => ({
  client_uuid: uuid,
  download_id: `0000000${contentId}-1e2f-4a3b-8c4d-5e6f7a8b9c0d`,
  content_id: contentId,
  started_at: '2026-03-02T09:00:00.000Z',
  completed_at: '2026-03-02T09:30:00.000Z',
  ...o,
});

let library: ReturnType<typeof offlineLibrary>;
beforeEach(async () => {
  removed.length = 0;
  library = offlineLibrary(memoryStore());
  setLibrary(library);
  setUser(makeUser({ id: USER }));
  await library.saveDownload(USER, copy(5, 'Fire safety', 'p5'));
  await library.saveDownload(USER, copy(6, 'Handwashing', 'p6'));
  await library.enqueue(USER, {
    body: attempt('queued-5', 5),
    content_title: 'Fire safety',
    queued_at: '2026-03-02T09:31:00.000Z',
    refused: null,
    tries: 0,
  });
  await library.saveDraft(USER, {
    body: attempt('draft-5', 5, { completed_at: null, cmi: { item1: { 'cmi.core.lesson_location': '3' } } }),
    content_title: 'Fire safety',
  });
});

function renderPage() {
  render(
    <MemoryRouter>
      <OfflinePage />
    </MemoryRouter>,
  );
}

describe('/offline: remove a saved course from the device', () => {
  it('asks first, saying attempts waiting to sync are never deleted, then removes the copy and its files only', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Fire safety from this device' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Remove "Fire safety" from this device?')).toBeTruthy();
    expect(within(dialog).getByText(OfflineMessages.removeConfirm)).toBeTruthy();
    expect(OfflineMessages.removeConfirm).toContain('waiting to sync are never deleted');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));

    await waitFor(() => expect(screen.queryByText('Fire safety course', { exact: false })).toBeNull());
    expect(screen.getByText('Handwashing')).toBeTruthy();
    expect(await library.getDownload(USER, 5)).toBeUndefined();
    expect(removed).toEqual([`offline/${USER}/p5`]); // the players stay: Handwashing still needs them
    // The queued attempt stays, and the unfinished one is queued as it stood (same uuid, not finished).
    const queue = await library.listQueue(USER);
    expect(queue.map((q) => [q.body.client_uuid, q.body.completed_at])).toEqual([
      ['draft-5', null],
      ['queued-5', '2026-03-02T09:30:00.000Z'],
    ]);
    expect(await library.getDraft(USER, 5)).toBeUndefined();
    expect(await screen.findByTestId('offline-queue')).toBeTruthy();
  });

  it('keeps everything when the learner cancels', async () => {
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Handwashing from this device' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await library.getDownload(USER, 6)).toBeDefined();
    expect(removed).toEqual([]);
    expect((await library.listQueue(USER)).map((q) => q.body.client_uuid)).toEqual(['queued-5']);
  });
});

describe('/offline: what the server refused', () => {
  it('shows the learner, in plain words, which step of a synced attempt was refused and why', async () => {
    const withTopics = copy(7, 'Infection control', 'p7');
    (withTopics.download as unknown as { lessons: unknown[]; quizzes: unknown[] }).lessons = [
      { id: 1, title: 'Lesson', topics: [{ id: 11, title: 'Try it', h5p: { id: 21, title: 'Check' } }] },
    ];
    (withTopics.download as unknown as { quizzes: unknown[] }).quizzes = [];
    await library.saveDownload(USER, withTopics);
    await library.confirmSynced(USER, 'synced-7', {
      content_title: 'Infection control',
      outcome: {
        client_uuid: 'synced-7',
        attempt_id: null,
        status: 'incomplete',
        score: null,
        counted: false,
        rule: 'offline_incomplete',
        completed_at: null,
        synced_at: '2026-03-02T10:00:00.000Z',
        refused: [
          { item: 'completed_topic', id: 11, message: 'Pass the activity in this topic to complete it.' },
          { item: 'quiz', id: 99, message: 'The quiz is not part of this content.' },
        ],
      },
    });
    renderPage();
    const synced = await screen.findByTestId('offline-synced');
    const items = within(within(synced).getByTestId('offline-refused')).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([
      '"Try it" was not counted as read. Pass the activity in this topic to complete it.',
      'Some quiz answers were not counted. The quiz is not part of this content.',
    ]);
    expect(within(synced).getByText(/It was not finished, so it does not count yet/)).toBeTruthy();
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { OfflineDownload } from '@cc/contracts';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The shell's plugins, mocked: package files live on the device and load through convertFileSrc.
let native = true;
vi.mock('@capacitor/core', async (original) => ({
  ...(await original<typeof import('@capacitor/core')>()),
  Capacitor: {
    isNativePlatform: () => native,
    convertFileSrc: (uri: string) => uri.replace('file://', 'https://localhost/_capacitor_file_'),
  },
}));
const onDevice = new Map<string, string>();
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Data: 'DATA' },
  Encoding: { UTF8: 'utf8' },
  Filesystem: {
    writeFile: vi.fn(async (o: { path: string; data: string }) => {
      onDevice.set(o.path, atob(o.data));
      return { uri: `file:///data/${o.path}` };
    }),
    readFile: vi.fn(async (o: { path: string; encoding: string }) => {
      const data = onDevice.get(o.path);
      if (data === undefined || o.encoding !== 'utf8') throw new Error('File does not exist.');
      return { data };
    }),
    rmdir: vi.fn(async () => {}),
  },
}));

const { setUser } = await import('../../app/auth');
const { makeUser } = await import('../../test/factories');
const { defaultSink, savePackageFiles } = await import('./files');
const { memoryStore } = await import('./kv');
const { offlineLibrary } = await import('./library');
const { setLibrary } = await import('./state');
type Outcome = import('./OfflineH5PFrame').OfflineH5pOutcome;
const { appendH5pOutcome, H5P_KEPT_PER_TOPIC, OfflineH5PFrame, offlineH5pLaunch } = await import(
  './OfflineH5PFrame'
);
const { default: OfflinePlayerPage, OFFLINE_ACTIVITY_GATE } = await import('./OfflinePlayerPage');
const { api } = await import('../../app/api');

const UUID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const download = {
  download_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  downloaded_at: '2026-03-02T09:00:00.000Z',
  user_id: 7,
  content: { id: 5, title: 'Hand hygiene', type: 'elearning' },
  course: { id: 45, title: 'Infection control' },
  learner: { id: '7', name: 'Carer, Sam' },
  lessons: [
    {
      id: 1,
      title: 'Lesson',
      topics: [
        {
          id: 11,
          title: 'Try it',
          body_html: '<p>Drag the steps into order.</p>',
          skippable: false,
          is_child: false,
          h5p: { id: 21, title: 'Hand hygiene drag and drop' },
        },
      ],
    },
  ],
  quizzes: [],
  runtime_files: [
    '/packages/runtime/h5p.html',
    '/packages/runtime/h5p-frame.js',
    '/packages/runtime/h5p-player/main.bundle.js',
    '/packages/runtime/h5p-player/frame.bundle.js',
  ],
  packages: [
    {
      kind: 'h5p',
      uuid: UUID,
      h5p_id: 21,
      title: 'Hand hygiene drag and drop',
      items: [],
      base_url: `/packages/t/${UUID}`,
      files: ['h5p.json', 'content/content.json', 'H5P.DragText-1.10/library.json'].map((path) => ({
        path,
        url: `/packages/t/${UUID}/${path}`,
      })),
    },
  ],
} as unknown as OfflineDownload;

const device = (path: string) => `https://localhost/_capacitor_file_/data/offline/7/${path}`;
async function storedCopy() {
  const files = await savePackageFiles(
    7,
    download,
    defaultSink(),
    async (url) => new Response(url.endsWith('.json') ? JSON.stringify({ from: url.split('/').pop() }) : 'x'),
  );
  return { download, files, saved_at: '2026-03-02T09:00:00.000Z' };
}

const statement = (o: { sub?: boolean; scaled?: number; success?: boolean; content?: string } = {}) => ({
  verb: { id: 'http://adlnet.gov/expapi/verbs/answered' },
  object: {
    definition: {
      extensions: {
        'http://h5p.org/x-api/h5p-local-content-id': o.content ?? UUID,
        ...(o.sub ? { 'http://h5p.org/x-api/h5p-subContentId': 'q1' } : {}),
      },
    },
  },
  result: { score: { scaled: o.scaled ?? 0.8 }, ...(o.success === undefined ? {} : { success: o.success }) },
});
/** A message as the sandboxed frame posts it: from its window, with the opaque origin "null". */
function fromFrame(frame: HTMLIFrameElement, data: unknown, source: Window | null = frame.contentWindow) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'null', source }));
  });
}

beforeEach(() => {
  native = true;
  setUser(makeUser({ id: 7 }));
});

describe('offline H5P in the shell', () => {
  it('plays the item from the stored player page and package in the opaque sandbox', async () => {
    const stored = await storedCopy();
    expect(offlineH5pLaunch(stored, 21)).toEqual({
      uuid: UUID,
      title: 'Hand hygiene drag and drop',
      json: ['h5p.json', 'content/content.json', 'H5P.DragText-1.10/library.json'],
      base_url: device(UUID),
      player_url: device('runtime/packages/runtime/h5p.html'),
      runtime: device('runtime/packages/runtime/h5p-player'),
    });
    render(
      <OfflineH5PFrame stored={stored} topicId={11} h5p={{ id: 21, title: 'Drag' }} onOutcome={() => {}} />,
    );
    const frame = (await screen.findByTitle('Drag')) as HTMLIFrameElement;
    expect(frame.src).toBe(device('runtime/packages/runtime/h5p.html'));
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-popups allow-modals');
    const seed = JSON.parse(frame.name.slice('cc-h5p:'.length));
    expect(seed).toEqual({
      origin: window.location.origin,
      id: UUID,
      base: device(UUID),
      title: 'Drag',
      runtime: device('runtime/packages/runtime/h5p-player'),
      // Read from the device by the app: the frame could not fetch them there (no CORS for an opaque origin).
      json: {
        'h5p.json': '{"from":"h5p.json"}',
        'content/content.json': '{"from":"content.json"}',
        'H5P.DragText-1.10/library.json': '{"from":"library.json"}',
      },
    });
  });

  it("queues the item's own xAPI outcome with its statement, as the online player reads it, and nothing else", async () => {
    const outcomes: unknown[] = [];
    render(
      <OfflineH5PFrame
        stored={await storedCopy()}
        topicId={11}
        h5p={{ id: 21, title: 'Drag' }}
        onOutcome={(o) => outcomes.push(o)}
      />,
    );
    const frame = (await screen.findByTitle('Drag')) as HTMLIFrameElement;
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement({ sub: true }) });
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement({ content: 'other' }) });
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement() }, window); // not from the frame
    expect(outcomes).toEqual([]);
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement({ scaled: 0.8, success: true }) });
    expect(outcomes).toEqual([
      {
        topic_id: 11,
        h5p_id: 21,
        score_scaled: 0.8,
        success: true,
        completion: null,
        statement: statement({ scaled: 0.8, success: true }),
      },
    ]);
    expect(screen.getByTestId('h5p-result').textContent).toContain('saved on this device');
    fromFrame(frame, { cc: 'h5p', type: 'height', height: 640 });
    expect(frame.style.height).toBe('640px');
  });

  it('writes each outcome into the offline attempt on the device at once', async () => {
    const library = offlineLibrary(memoryStore());
    setLibrary(library);
    await library.saveDownload(7, await storedCopy());
    render(
      <MemoryRouter initialEntries={['/offline/5']}>
        <Routes>
          <Route path="/offline/:contentId" element={<OfflinePlayerPage />} />
        </Routes>
      </MemoryRouter>,
    );
    const frame = (await screen.findByTitle('Hand hygiene drag and drop')) as HTMLIFrameElement;
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement({ scaled: 0.4, success: false }) });
    fromFrame(frame, { cc: 'h5p', type: 'xapi', statement: statement({ scaled: 0.9, success: true }) });
    await waitFor(async () =>
      expect((await library.getDraft(7, 5))?.body.h5p?.map((o) => o.score_scaled)).toEqual([0.4, 0.9]),
    );
  });

  function renderPlayer() {
    render(
      <MemoryRouter initialEntries={['/offline/5']}>
        <Routes>
          <Route path="/offline/:contentId" element={<OfflinePlayerPage />} />
        </Routes>
      </MemoryRouter>,
    );
  }
  const withMustPass = (stored: Awaited<ReturnType<typeof storedCopy>>, mustPass: boolean) => {
    const copy = structuredClone(stored);
    const topic = copy.download.lessons[0]?.topics[0];
    if (topic?.h5p) topic.h5p.must_pass = mustPass;
    return copy;
  };

  it('offers no "I have read" on a topic whose activity must be passed: the copy says so, or the running item reports a score', async () => {
    const library = offlineLibrary(memoryStore());
    setLibrary(library);
    await library.saveDownload(7, withMustPass(await storedCopy(), true));
    renderPlayer();
    await screen.findByTitle('Hand hygiene drag and drop');
    expect(screen.queryByLabelText('I have read "Try it"')).toBeNull();
    expect(screen.getByTestId('activity-gate').textContent).toBe(OFFLINE_ACTIVITY_GATE);
  });

  it('hides "I have read" once the running item says it is scored, as the online player does', async () => {
    const library = offlineLibrary(memoryStore());
    setLibrary(library);
    await library.saveDownload(7, await storedCopy()); // a copy saved before must_pass was sent
    renderPlayer();
    const frame = (await screen.findByTitle('Hand hygiene drag and drop')) as HTMLIFrameElement;
    expect(screen.getByLabelText('I have read "Try it"')).toBeTruthy();
    fromFrame(frame, { cc: 'h5p', type: 'scored', scored: true });
    expect(screen.queryByLabelText('I have read "Try it"')).toBeNull();
    expect(screen.getByTestId('activity-gate')).toBeTruthy();
  });

  it('after the sync, tells the learner which step the server refused and why', async () => {
    const library = offlineLibrary(memoryStore());
    setLibrary(library);
    // An older copy offered "I have read" on the activity; the server refuses it on sync.
    await library.saveDownload(7, await storedCopy());
    const post = vi.spyOn(api, 'post').mockImplementation(async (_path, body) => ({
      status: 201,
      headers: new Headers(),
      data: {
        data: {
          client_uuid: (body as { client_uuid: string }).client_uuid,
          attempt_id: null,
          status: 'incomplete',
          score: null,
          counted: false,
          rule: 'offline_incomplete',
          completed_at: null,
          synced_at: '2026-03-02T10:00:00.000Z',
          refused: [
            { item: 'completed_topic', id: 11, message: 'Pass the activity in this topic to complete it.' },
          ],
        },
      },
    }));
    try {
      renderPlayer();
      await userEvent.click(await screen.findByLabelText('I have read "Try it"'));
      await userEvent.click(screen.getByRole('button', { name: 'Finish and save' }));
      const refused = await screen.findByTestId('offline-refused');
      expect(refused.textContent).toBe(
        '"Try it" was not counted as read. Pass the activity in this topic to complete it.',
      );
      expect(screen.getByTestId('offline-finished').textContent).toContain(
        'It was not finished, so it does not count yet.',
      );
      expect(post).toHaveBeenCalledWith(
        '/offline/attempts',
        expect.objectContaining({ completed_topic_ids: [11] }),
        expect.anything(),
      );
    } finally {
      post.mockRestore();
    }
  });

  it('in a browser (no stored package) says the item needs a connection', async () => {
    native = false;
    const stored = await storedCopy();
    expect(stored.files).toEqual({});
    render(
      <OfflineH5PFrame stored={stored} topicId={11} h5p={{ id: 21, title: 'Drag' }} onOutcome={() => {}} />,
    );
    expect(screen.getByText(/needs a connection/)).toBeTruthy();
    expect(screen.queryByTitle('Drag')).toBeNull();
  });
});

describe('appendH5pOutcome', () => {
  it('keeps at most a bounded number per topic, dropping the least worth first, never the best', () => {
    const o = (topic: number, scaled: number, success: boolean | null = null): Outcome => ({
      topic_id: topic,
      h5p_id: 21,
      score_scaled: scaled,
      success,
    });
    let list: Outcome[] = [o(11, 0.95, true), o(12, 0.1)];
    for (let i = 0; i < H5P_KEPT_PER_TOPIC; i += 1) list = appendH5pOutcome(list, o(11, 0.5));
    const mine = list.filter((x) => x.topic_id === 11);
    expect(mine).toHaveLength(H5P_KEPT_PER_TOPIC);
    expect(mine[0]).toEqual(o(11, 0.95, true));
    expect(list.filter((x) => x.topic_id === 12)).toHaveLength(1);
    list = appendH5pOutcome(list, o(11, 0.2));
    expect(list.filter((x) => x.topic_id === 11).some((x) => x.score_scaled === 0.2)).toBe(false);
  });
});

describe('package-runtime/h5p-frame.js offline', () => {
  it("answers h5p-standalone's fetch of the package's JSON from the seed, and passes anything else on", async () => {
    const code = readFileSync(path.join(__dirname, '../../../public/package-runtime/h5p-frame.js'), 'utf8');
    const base = device(UUID);
    const seed = {
      origin: 'https://localhost',
      id: UUID,
      base,
      title: 'Drag',
      runtime: device('runtime/packages/runtime/h5p-player'),
      json: { 'h5p.json': '{"mainLibrary":"H5P.DragText"}' },
    };
    let options: { h5pJsonPath?: string; frameJs?: string } = {};
    const passedOn: string[] = [];
    const fakeWindow = {
      name: `cc-h5p:${JSON.stringify(seed)}`,
      parent: { postMessage: () => {} },
      localStorage: { getItem: () => null },
      HTMLIFrameElement: { prototype: {} },
      Response,
      fetch: async (url: string) => {
        passedOn.push(url);
        return new Response('{}');
      },
      H5PStandalone: {
        H5P: class {
          constructor(_el: unknown, o: typeof options) {
            options = o;
            // biome-ignore lint/correctness/noConstructorReturn: h5p-standalone's H5P constructor returns a promise
            return Promise.reject(new Error('not in a test')) as never;
          }
        },
      },
    };
    const fakeDocument = {
      title: '',
      body: {},
      documentElement: { scrollHeight: 0 },
      getElementById: () => ({}),
      querySelectorAll: () => [],
    };
    vi.useFakeTimers();
    try {
      new Function('window', 'document', code)(fakeWindow, fakeDocument);
    } finally {
      vi.useRealTimers();
    }
    expect(options.h5pJsonPath).toBe(base);
    expect(options.frameJs).toBe(`${seed.runtime}/frame.bundle.js`);
    const manifest = await fakeWindow.fetch(`${base}/h5p.json`);
    expect(await manifest.json()).toEqual({ mainLibrary: 'H5P.DragText' });
    expect(passedOn).toEqual([]);
    await fakeWindow.fetch(`${base}/content/content.json`);
    expect(passedOn).toEqual([`${base}/content/content.json`]);
  });
});

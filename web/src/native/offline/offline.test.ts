import type { OfflineDownload, OfflineSyncOutcome, SyncOfflineAttemptBody } from '@cc/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const written: { path: string; directory: string }[] = [];
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Data: 'DATA' },
  Filesystem: {
    writeFile: vi.fn(async (o: { path: string; directory: string }) => {
      written.push({ path: o.path, directory: o.directory });
      return { uri: `file:///data/${o.path}` };
    }),
    rmdir: vi.fn(async () => {}),
  },
}));
vi.mock('@capacitor/core', () => ({
  Capacitor: {
    isNativePlatform: () => true,
    convertFileSrc: (uri: string) => uri.replace('file://', 'https://localhost/_capacitor_file_'),
  },
}));

const { memoryStore } = await import('./kv');
const { offlineLibrary } = await import('./library');
const { refusedForGood, syncQueue } = await import('./sync');
const { filesystemSink, localizeBridge, savePackageFiles } = await import('./files');
const { removeSavedCourse } = await import('./remove');

const body = (uuid: string): SyncOfflineAttemptBody => ({
  client_uuid: uuid,
  download_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  content_id: 5,
  started_at: '2026-03-02T09:00:00.000Z',
  completed_at: '2026-03-02T09:30:00.000Z',
});
const outcome = (uuid: string): OfflineSyncOutcome => ({
  client_uuid: uuid,
  attempt_id: 1,
  status: 'passed',
  score: 100,
  counted: true,
  rule: 'only_pass',
  completed_at: '2026-03-02T09:30:00.000Z',
  synced_at: '2026-03-02T10:00:00.000Z',
  refused: [],
});

let kv: ReturnType<typeof memoryStore>;
let library: ReturnType<typeof offlineLibrary>;
beforeEach(() => {
  kv = memoryStore();
  library = offlineLibrary(kv);
});

async function queue(userId: number, ...uuids: string[]) {
  for (const [i, uuid] of uuids.entries())
    await library.enqueue(userId, {
      body: body(uuid),
      content_title: `Course ${uuid}`,
      queued_at: `2026-03-02T09:3${i}:00.000Z`,
      refused: null,
      tries: 0,
    });
}

describe('offline library', () => {
  it("keeps each user's downloads and queue apart (a shared tablet)", async () => {
    await queue(1, 'a');
    await queue(2, 'b');
    expect((await library.listQueue(1)).map((q) => q.body.client_uuid)).toEqual(['a']);
    expect((await library.listQueue(2)).map((q) => q.body.client_uuid)).toEqual(['b']);
    await library.saveDownload(1, {
      download: { content: { id: 5 } } as OfflineDownload,
      files: {},
      saved_at: '2026-03-02T09:00:00.000Z',
    });
    expect(await library.getDownload(2, 5)).toBeUndefined();
    expect((await library.getDownload(1, 5))?.saved_at).toBe('2026-03-02T09:00:00.000Z');
  });
});

describe('drafts', () => {
  it('keeps an unfinished attempt per user and content; finishing queues it with the same uuid and drops the draft', async () => {
    await library.saveDraft(1, { body: body('d1'), content_title: 'Course' });
    expect(await library.getDraft(2, 5)).toBeUndefined();
    expect((await library.getDraft(1, 5))?.body.client_uuid).toBe('d1');
    await library.finishDraft(1, {
      body: body('d1'),
      content_title: 'Course',
      queued_at: '2026-03-02T09:40:00.000Z',
      refused: null,
      tries: 0,
    });
    expect(await library.getDraft(1, 5)).toBeUndefined();
    expect((await library.listQueue(1)).map((q) => q.body.client_uuid)).toEqual(['d1']);
  });
});

describe('syncQueue', () => {
  it('removes an item only after the server confirmed it, and records the outcome', async () => {
    await queue(1, 'a', 'b');
    const sent: string[] = [];
    const report = await syncQueue(library, 1, async (b) => {
      sent.push(b.client_uuid);
      return { ok: true, outcome: outcome(b.client_uuid) };
    });
    expect(sent).toEqual(['a', 'b']);
    expect(report).toEqual({ sent: 2, waiting: 0, refused: 0, complete: true });
    expect(await library.listQueue(1)).toEqual([]);
    expect((await library.listSynced(1)).map((s) => s.outcome.rule)).toEqual(['only_pass', 'only_pass']);
  });

  it('keeps everything from the first network failure on, and a retry sends the rest', async () => {
    await queue(1, 'a', 'b', 'c');
    let calls = 0;
    const flaky = async (b: SyncOfflineAttemptBody) => {
      calls += 1;
      if (b.client_uuid === 'b') throw new TypeError('Failed to fetch');
      return { ok: true as const, outcome: outcome(b.client_uuid) };
    };
    const first = await syncQueue(library, 1, flaky);
    expect(first).toEqual({ sent: 1, waiting: 2, refused: 0, complete: false });
    expect(calls).toBe(2); // c was not tried after b failed: nothing overtakes it
    const kept = await library.listQueue(1);
    expect(kept.map((q) => q.body.client_uuid)).toEqual(['b', 'c']);
    expect(kept[0]?.tries).toBe(1);
    const retry = await syncQueue(library, 1, async (b) => ({ ok: true, outcome: outcome(b.client_uuid) }));
    expect(retry.sent).toBe(2);
    expect(await library.listQueue(1)).toEqual([]);
  });

  it('keeps a server error for later and a refusal on the device, marked, never deleted', async () => {
    await queue(1, 'a', 'b');
    const report = await syncQueue(library, 1, async (b) =>
      b.client_uuid === 'a'
        ? { ok: false, status: 404, message: 'Not found.' }
        : { ok: false, status: 503, message: 'Down' },
    );
    expect(report).toEqual({ sent: 0, waiting: 2, refused: 1, complete: false });
    const kept = await library.listQueue(1);
    expect(kept.map((q) => [q.body.client_uuid, q.refused?.status ?? null])).toEqual([
      ['a', 404],
      ['b', null],
    ]);
  });

  it('tells transient failures from refusals', () => {
    for (const status of [401, 408, 419, 429, 500, 503]) expect(refusedForGood(status)).toBe(false);
    for (const status of [403, 404, 422]) expect(refusedForGood(status)).toBe(true);
  });

  it('a crash after the confirmation but before the delete leaves the item to resend (same outcome server-side)', async () => {
    await queue(1, 'a');
    const failingDelete = { ...kv, delete: vi.fn(async () => Promise.reject(new Error('quota'))) };
    const fragile = offlineLibrary(failingDelete);
    await expect(
      syncQueue(fragile, 1, async (b) => ({ ok: true, outcome: outcome(b.client_uuid) })),
    ).rejects.toThrow('quota');
    expect((await library.listQueue(1)).map((q) => q.body.client_uuid)).toEqual(['a']);
  });
});

describe('package files', () => {
  const download = {
    packages: [
      {
        uuid: 'p1',
        files: [
          { path: 'imsmanifest.xml', url: '/packages/t/p1/imsmanifest.xml' },
          { path: 'sco/index.html', url: '/packages/t/p1/sco/index.html' },
        ],
      },
    ],
    runtime_files: ['/packages/runtime/scorm-frame.js'],
  } as unknown as OfflineDownload;

  it("writes the shell's files under the user's own folder, loads them through convertFileSrc, and points SCO pages at the stored bridge", async () => {
    written.length = 0;
    const html = '<html><head><script src="/packages/runtime/scorm-frame.js"></script></head></html>';
    const bodies: Record<string, string> = {};
    const sink = {
      save: async (userId: number, uuid: string, path: string, url: string, body: Blob) => {
        bodies[path] = await body.text();
        return filesystemSink.save(userId, uuid, path, url, body);
      },
      removePackage: filesystemSink.removePackage,
      removeUser: filesystemSink.removeUser,
    };
    const files = await savePackageFiles(
      7,
      download,
      sink,
      async (url) => new Response(url.endsWith('.html') ? html : 'x'),
    );
    expect(written.map((w) => w.path)).toEqual([
      'offline/7/runtime/packages/runtime/scorm-frame.js',
      'offline/7/p1/imsmanifest.xml',
      'offline/7/p1/sco/index.html',
    ]);
    expect(written.every((w) => w.directory === 'DATA')).toBe(true);
    expect(files.p1?.['sco/index.html']).toBe(
      'https://localhost/_capacitor_file_/data/offline/7/p1/sco/index.html',
    );
    expect(bodies['sco/index.html']).toContain(
      'src="https://localhost/_capacitor_file_/data/offline/7/runtime/packages/runtime/scorm-frame.js"',
    );
  });

  it("rewrites only the bridge tag the server put in, never the package's own markup", () => {
    const page =
      '<script src="/packages/runtime/scorm-frame.js"></script><script src="/packages/runtime/other.js"></script>';
    expect(localizeBridge(page, 'local.js')).toBe(
      '<script src="local.js"></script><script src="/packages/runtime/other.js"></script>',
    );
  });

  it('keeps no package files where packages cannot play offline (a browser)', async () => {
    expect(await savePackageFiles(7, download, null, async () => new Response('x'))).toEqual({});
  });

  it('fails the whole download when one file cannot be fetched', async () => {
    const saved: string[] = [];
    const sink = {
      save: async (_u: number, _p: string, path: string, url: string) => {
        saved.push(path);
        return url;
      },
      removePackage: async () => {},
      removeUser: async () => {},
    };
    await expect(
      savePackageFiles(7, download, sink, async (url) =>
        url.endsWith('index.html') ? new Response('gone', { status: 404 }) : new Response('ok'),
      ),
    ).rejects.toThrow('sco/index.html');
  });
});

describe('removeSavedCourse', () => {
  const saved = (contentId: number, uuids: string[]) => ({
    download: {
      content: { id: contentId, title: `Course ${contentId}` },
      packages: uuids.map((uuid) => ({ uuid })),
    } as unknown as OfflineDownload,
    files: {},
    saved_at: '2026-03-02T09:00:00.000Z',
  });
  const sinkLog = () => {
    const gone: string[] = [];
    const sink = {
      save: async () => '',
      removePackage: async (userId: number, uuid: string) => {
        gone.push(`${userId}/${uuid}`);
      },
      removeUser: async () => {},
    };
    return { gone, sink };
  };

  it("removes the players' files with the user's last package, and only that user's", async () => {
    await library.saveDownload(1, saved(5, ['p1']));
    await library.saveDownload(2, saved(5, ['p1']));
    const { gone, sink } = sinkLog();
    await removeSavedCourse(library, 1, 5, sink);
    expect(gone).toEqual(['1/p1', '1/runtime']);
    expect(await library.getDownload(1, 5)).toBeUndefined();
    expect(await library.getDownload(2, 5)).toBeDefined();
  });

  it('drops an untouched draft, queues one holding work, and never touches the queue', async () => {
    await library.saveDownload(1, saved(5, []));
    await queue(1, 'q');
    await library.saveDraft(1, { body: { ...body('empty'), completed_at: null }, content_title: 'Course' });
    const { gone, sink } = sinkLog();
    await removeSavedCourse(library, 1, 5, sink);
    expect(await library.getDraft(1, 5)).toBeUndefined();
    expect((await library.listQueue(1)).map((q) => q.body.client_uuid)).toEqual(['q']);
    expect(gone).toEqual(['1/runtime']);

    await library.saveDownload(1, saved(5, []));
    await library.saveDraft(1, {
      body: { ...body('work'), completed_at: null, quiz_responses: { '3': { '4': [5] } } },
      content_title: 'Course',
    });
    await removeSavedCourse(library, 1, 5, null, () => new Date('2026-03-02T11:00:00.000Z'));
    const kept = await library.listQueue(1);
    expect(kept.map((q) => [q.body.client_uuid, q.body.completed_at, q.queued_at])).toEqual([
      ['q', '2026-03-02T09:30:00.000Z', '2026-03-02T09:30:00.000Z'],
      ['work', null, '2026-03-02T11:00:00.000Z'],
    ]);
  });
});

import type { OfflineDownload } from '@cc/contracts';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScormItemLaunch } from '../../learning/players/package-api';
import type { RuntimeHooks } from '../../learning/players/scorm-runtime';

// The shell's plugins, mocked: package files live on the device and load through convertFileSrc.
vi.mock('@capacitor/core', async (original) => ({
  ...(await original<typeof import('@capacitor/core')>()),
  Capacitor: {
    isNativePlatform: () => true,
    convertFileSrc: (uri: string) => uri.replace('file://', 'https://localhost/_capacitor_file_'),
  },
}));
vi.mock('@capacitor/filesystem', () => ({
  Directory: { Data: 'DATA' },
  Filesystem: {
    writeFile: vi.fn(async (o: { path: string }) => ({ uri: `file:///data/${o.path}` })),
    rmdir: vi.fn(async () => {}),
  },
}));
// The SCO's frame answers "closed" at once (the real bridge does: scorm-frame.js).
vi.mock('../../learning/players/ScormPlayer', async (original) => ({
  ...(await original<typeof import('../../learning/players/ScormPlayer')>()),
  askFrameToClose: async () => {},
}));
const launched: { sco: string; saved: unknown; hooks: RuntimeHooks }[] = [];
vi.mock('../../learning/players/scorm-runtime', async (original) => ({
  ...(await original<typeof import('../../learning/players/scorm-runtime')>()),
  createRuntime: vi.fn(
    async (
      _launch: unknown,
      item: ScormItemLaunch,
      attempt: { cmi: { items: unknown } },
      hooks: RuntimeHooks,
    ) => {
      launched.push({ sco: item.identifier, saved: structuredClone(attempt.cmi.items), hooks });
      return { api: { getFlattenedCMI: () => ({}) }, dispose: () => {} };
    },
  ),
}));

const { apiOrigin } = await import('../../app/env');
const { filesystemSink, savePackageFiles } = await import('./files');
const { OfflineScormPlayer, localItemState, storedFrameSrc } = await import('./OfflineScormFrame');

const item = (identifier: string, o: Partial<ScormItemLaunch> = {}): ScormItemLaunch => ({
  identifier,
  title: `Part ${identifier}`,
  depth: 1,
  parent: 'org',
  launch_path: `${identifier}/index.html`,
  launch_url: `/packages/t/p1/${identifier}/index.html`,
  scorm_type: 'sco',
  visible: true,
  mastery_score: null,
  scaled_passing_score: null,
  objective_ids: [],
  data_from_lms: null,
  completion_set_by_content: false,
  ...o,
});
const download = {
  download_id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  user_id: 7,
  content: { id: 5, title: 'Infection control', type: 'scorm' },
  learner: { id: '7', name: 'Carer, Sam' },
  runtime_files: ['/packages/runtime/scorm-frame.js'],
  packages: [
    {
      kind: 'scorm',
      uuid: 'p1',
      title: 'Infection control',
      version: '1.2',
      launch_path: 'a/index.html',
      mastery_score: null,
      base_url: '/packages/t/p1',
      items: [
        item('org', { depth: 0, parent: null, launch_path: null, launch_url: null, title: 'Module' }),
        item('a'),
        item('b'),
        item('c'),
      ],
      files: ['a', 'b', 'c'].map((id) => ({
        path: `${id}/index.html`,
        url: `/packages/t/p1/${id}/index.html`,
      })),
    },
  ],
} as unknown as OfflineDownload;

async function storedCopy() {
  const files = await savePackageFiles(
    7,
    download,
    filesystemSink,
    async () => new Response('<html></html>'),
  );
  return { download, files, saved_at: '2026-03-02T09:00:00.000Z' };
}
const deviceUrl = (id: string) => `https://localhost/_capacitor_file_/data/offline/7/p1/${id}/index.html`;
const frame = () => screen.getByTitle(/^Infection control: /) as HTMLIFrameElement;

beforeEach(() => {
  launched.length = 0;
});

describe('offline SCORM in the shell: every SCO of the package', () => {
  it('plays each SCO from its stored file in the opaque sandbox, with a table of contents and Next / Previous', async () => {
    const commits: [string, unknown][] = [];
    render(
      <OfflineScormPlayer stored={await storedCopy()} cmi={{}} onCommit={(s, d) => commits.push([s, d])} />,
    );
    await waitFor(() => expect(frame().src).toBe(deviceUrl('a')));
    expect(frame().getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-popups allow-modals');
    expect(screen.getByRole('navigation', { name: 'Package contents' }).textContent).toContain('Module');
    expect(screen.getByTestId('scorm-progress').textContent).toBe('0 of 3 done');
    expect(screen.getByRole('button', { name: 'Previous' }).hasAttribute('disabled')).toBe(true);

    act(() => launched[0]?.hooks.commit({ cmi: { core: { lesson_status: 'passed' } } }, false));
    expect(commits).toEqual([['a', { cmi: { core: { lesson_status: 'passed' } } }]]);

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(frame().src).toBe(deviceUrl('b')));
    expect(frame().title).toBe('Infection control: Part b');
    await userEvent.click(screen.getByRole('button', { name: /Part c/ }));
    await waitFor(() => expect(frame().src).toBe(deviceUrl('c')));
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(frame().src).toBe(deviceUrl('b')));
    act(() => launched.at(-1)?.hooks.commit({ cmi: { core: { lesson_status: 'incomplete' } } }, false));
    expect(commits.at(-1)).toEqual(['b', { cmi: { core: { lesson_status: 'incomplete' } } }]);
    expect(launched.map((l) => l.sco)).toEqual(['a', 'b', 'c', 'b']);
  });

  it("follows the SCO's own navigation requests and shows the end after the last one", async () => {
    render(<OfflineScormPlayer stored={await storedCopy()} cmi={{}} onCommit={() => {}} />);
    await waitFor(() => expect(frame().src).toBe(deviceUrl('a')));
    act(() => launched[0]?.hooks.finished?.({ kind: 'choice', target: 'c' }));
    await waitFor(() => expect(frame().src).toBe(deviceUrl('c')));
    act(() => launched.at(-1)?.hooks.finished?.({ kind: 'continue' }));
    await screen.findByTestId('scorm-ended');
    expect(screen.getByTestId('scorm-ended').textContent).toContain('You have left “Part c”.');
  });

  it('resumes at the first SCO not done, each SCO starting from what it saved on the device', async () => {
    const cmi = {
      a: { cmi: { core: { lesson_status: 'completed' } } },
      b: { cmi: { core: { lesson_status: 'incomplete', lesson_location: 'p3' } } },
    };
    render(<OfflineScormPlayer stored={await storedCopy()} cmi={cmi} onCommit={() => {}} />);
    await waitFor(() => expect(frame().src).toBe(deviceUrl('b')));
    expect(launched[0]?.saved).toEqual(cmi);
    expect(screen.getByTestId('scorm-progress').textContent).toBe('1 of 3 done');
    expect(screen.getByRole('button', { name: /Part a/ }).textContent).toContain('Completed');
    expect(screen.getByRole('button', { name: /Part b/ }).textContent).toContain('Started');
  });
});

describe('localItemState', () => {
  it("reads a SCO's saved status for the contents list (the server judges on sync)", () => {
    const sco = item('a');
    expect(localItemState('1.2', sco, undefined)).toBe('new');
    expect(localItemState('1.2', sco, { cmi: { core: { lesson_status: 'failed' } } })).toBe('failed');
    expect(localItemState('1.2', sco, { cmi: { core: { lesson_status: 'browsed' } } })).toBe('started');
    expect(
      localItemState('2004', sco, { cmi: { completion_status: 'completed', success_status: 'unknown' } }),
    ).toBe('completed');
    expect(
      localItemState('2004', sco, { cmi: { completion_status: 'completed', success_status: 'passed' } }),
    ).toBe('passed');
    expect(localItemState('1.2', item('x', { scorm_type: 'asset' }), {})).toBe('completed');
  });
});

describe('storedFrameSrc', () => {
  it("keeps a stored file's URL as it is on either shell, and puts a signed path on the API's host", () => {
    expect(storedFrameSrc('capacitor://localhost/_capacitor_file_/data/a.html')).toBe(
      'capacitor://localhost/_capacitor_file_/data/a.html',
    );
    expect(storedFrameSrc('https://localhost/_capacitor_file_/data/a.html')).toBe(
      'https://localhost/_capacitor_file_/data/a.html',
    );
    // In the shell apiOrigin() is the server's address; in this test (the web build) it is the page's own.
    expect(storedFrameSrc('/packages/t/p1/a/index.html')).toBe(`${apiOrigin()}/packages/t/p1/a/index.html`);
  });
});

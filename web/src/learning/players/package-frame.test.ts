import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  type BridgedApi,
  connectScormFrame,
  frameUrl,
  h5pFrameName,
  isFromFrame,
  listenToFrame,
  packageSandbox,
  readH5pMessage,
  readScormCall,
  SCORM_FRAME_PREFIX,
  scormFrameName,
} from './package-frame';

/** A message event as a window receives it (jsdom's MessageEvent accepts only real windows as source). */
const message = (data: unknown, origin: string, source: unknown) =>
  Object.assign(new Event('message'), { data, origin, source });

const fakeWindow = () => ({ postMessage: vi.fn() });

describe('package frame messages (issue 11 finding 1)', () => {
  it("takes a message only from the player's own frame and the origin its package runs in", () => {
    const frame = fakeWindow() as unknown as Window;
    const other = fakeWindow() as unknown as Window;
    expect(isFromFrame({ source: frame, origin: 'null' }, frame, null)).toBe(true);
    expect(isFromFrame({ source: other, origin: 'null' }, frame, null)).toBe(false);
    expect(isFromFrame({ source: frame, origin: 'http://localhost:3000' }, frame, null)).toBe(false);
    expect(isFromFrame({ source: null, origin: 'null' }, frame, null)).toBe(false);
    expect(isFromFrame({ source: frame, origin: 'null' }, null, null)).toBe(false);
    const pkg = 'http://packages.localhost:3000';
    expect(isFromFrame({ source: frame, origin: pkg }, frame, pkg)).toBe(true);
    expect(isFromFrame({ source: frame, origin: 'null' }, frame, pkg)).toBe(false);
    expect(isFromFrame({ source: frame, origin: 'http://evil.localhost:3000' }, frame, pkg)).toBe(false);
  });

  it('frames packages without top navigation, and same-origin only within a package origin', () => {
    expect(packageSandbox(null)).toBe('allow-scripts allow-forms allow-popups allow-modals');
    expect(packageSandbox('http://packages.localhost:3000')).toBe(
      'allow-scripts allow-forms allow-popups allow-modals allow-same-origin',
    );
  });

  it('listenToFrame drops everything that is not from the frame', () => {
    const target = new EventTarget() as unknown as Window;
    const frame = fakeWindow() as unknown as Window;
    const seen: unknown[] = [];
    const stop = listenToFrame(
      () => frame,
      null,
      (data) => seen.push(data),
      target,
    );
    target.dispatchEvent(message('a', 'null', frame));
    target.dispatchEvent(message('b', 'null', fakeWindow()));
    target.dispatchEvent(message('c', 'http://localhost:3000', frame));
    stop();
    target.dispatchEvent(message('d', 'null', frame));
    expect(seen).toEqual(['a']);
  });

  it('reads only well-formed calls of the SCORM API functions and H5P messages', () => {
    expect(
      readScormCall({
        cc: 'scorm',
        id: 1,
        method: 'LMSSetValue',
        args: ['cmi.core.lesson_status', 'passed'],
      }),
    ).toMatchObject({ method: 'LMSSetValue' });
    for (const bad of [
      null,
      'LMSInitialize',
      { cc: 'scorm', id: 1, method: 'loadFromJSON', args: [{}] },
      { cc: 'scorm', id: 1, method: 'getFlattenedCMI', args: [] },
      { cc: 'scorm', id: 1, method: 'constructor', args: [] },
      { cc: 'scorm', id: '1', method: 'LMSInitialize', args: [] },
      { cc: 'scorm', id: 1, method: 'LMSSetValue', args: ['a', 'b', 'c'] },
    ])
      expect(readScormCall(bad)).toBeNull();
    expect(readH5pMessage({ cc: 'h5p', type: 'scored', scored: true })).toEqual({
      type: 'scored',
      scored: true,
    });
    expect(readH5pMessage({ cc: 'h5p', type: 'height', height: 'tall' })).toBeNull();
    expect(readH5pMessage({ cc: 'other', type: 'error' })).toBeNull();
  });
});

/** A stand-in for scorm-again: records calls, keeps values. */
function fakeApi(): BridgedApi & { calls: string[][] } {
  const values: Record<string, string> = { 'cmi.core.student_id': '42' };
  const calls: string[][] = [];
  return {
    calls,
    getFlattenedCMI: () => ({ ...values }),
    LMSInitialize: () => {
      calls.push(['LMSInitialize']);
      return 'true';
    },
    LMSSetValue: (key: string, value: string) => {
      calls.push(['LMSSetValue', key, value]);
      values[key] = value;
      return 'true';
    },
    LMSGetLastError: () => '0',
  };
}

describe('connectScormFrame (the player side of the SCORM bridge)', () => {
  it("makes the frame's calls on the runtime and replies to the frame only", () => {
    const target = new EventTarget() as unknown as Window;
    const frame = fakeWindow();
    const api = fakeApi();
    const stop = connectScormFrame(() => frame as unknown as Window, null, api, target);
    target.dispatchEvent(message({ cc: 'scorm', id: 1, method: 'LMSInitialize', args: [''] }, 'null', frame));
    target.dispatchEvent(
      message({ cc: 'scorm', id: 2, method: 'LMSSetValue', args: ['cmi.suspend_data', 'x'] }, 'null', frame),
    );
    expect(api.calls).toEqual([['LMSInitialize'], ['LMSSetValue', 'cmi.suspend_data', 'x']]);
    expect(frame.postMessage).toHaveBeenCalledTimes(2);
    const [reply, to] = frame.postMessage.mock.calls[1] as [Record<string, unknown>, string];
    expect(to).toBe('*'); // an opaque origin cannot be named: the reply goes to that frame's window only
    expect(reply).toMatchObject({ cc: 'scorm-reply', id: 2, result: 'true', error: '0' });
    expect(reply.values).toMatchObject({ 'cmi.suspend_data': 'x', 'cmi.core.student_id': '42' });
    stop();
  });

  it('ignores calls from another window or another origin, and methods outside the SCORM API', () => {
    const target = new EventTarget() as unknown as Window;
    const frame = fakeWindow();
    const intruder = fakeWindow();
    const api = fakeApi();
    const pkg = 'http://packages.localhost:3000';
    const stop = connectScormFrame(() => frame as unknown as Window, pkg, api, target);
    const set = { cc: 'scorm', id: 1, method: 'LMSSetValue', args: ['cmi.core.lesson_status', 'passed'] };
    target.dispatchEvent(message(set, pkg, intruder));
    target.dispatchEvent(message(set, 'null', frame));
    target.dispatchEvent(message(set, 'http://localhost:3000', frame));
    target.dispatchEvent(message({ cc: 'scorm', id: 2, method: 'loadFromJSON', args: [] }, pkg, frame));
    expect(api.calls).toEqual([]);
    expect(intruder.postMessage).not.toHaveBeenCalled();
    target.dispatchEvent(message(set, pkg, frame));
    expect(api.calls).toEqual([['LMSSetValue', 'cmi.core.lesson_status', 'passed']]);
    expect(frame.postMessage.mock.calls[0]?.[1]).toBe(pkg);
    stop();
  });
});

describe('scorm-frame.js (the SCO side of the SCORM bridge)', () => {
  const source = readFileSync(
    path.resolve(__dirname, '../../../public/package-runtime/scorm-frame.js'),
    'utf8',
  );
  const APP = 'http://localhost:3000';

  /** Runs the bridge in a stand-in window named as the player names the SCO's frame. */
  function run(name: string) {
    const parent = fakeWindow();
    const events = new EventTarget();
    const win: Record<string, unknown> = {
      name,
      parent,
      addEventListener: events.addEventListener.bind(events),
    };
    new Function('window', source)(win);
    return { win, parent, events };
  }
  const seeded = () =>
    run(scormFrameName(APP, '1.2', { getFlattenedCMI: () => ({ 'cmi.core.student_id': '42' }) }));

  it('gives the SCO window.API answering from the seeded values, and posts each call to its parent at the app origin', () => {
    const { win, parent } = seeded();
    const api = win.API as Record<string, (...a: string[]) => string>;
    expect(api.LMSInitialize?.('')).toBe('true');
    expect(api.LMSGetValue?.('cmi.core.student_id')).toBe('42');
    expect(api.LMSSetValue?.('cmi.suspend_data', 'abc')).toBe('true');
    expect(api.LMSGetValue?.('cmi.suspend_data')).toBe('abc');
    expect(parent.postMessage.mock.calls.map((c) => [c[0].method, c[1]])).toEqual([
      ['LMSInitialize', APP],
      ['LMSGetValue', APP],
      ['LMSSetValue', APP],
      ['LMSGetValue', APP],
    ]);
    expect(win.API_1484_11).toBeUndefined();
  });

  it('takes replies only from its parent at the app origin, and only the reply to its latest call', () => {
    const { win, parent, events } = seeded();
    const api = win.API as Record<string, (...a: string[]) => string>;
    api.LMSInitialize?.('');
    const latest = parent.postMessage.mock.calls.at(-1)?.[0].id as number;
    const reply = (values: Record<string, string>, id = latest) => ({
      cc: 'scorm-reply',
      id,
      result: 'true',
      error: '0',
      values,
    });
    events.dispatchEvent(message(reply({ 'cmi.core.student_id': 'forged' }), APP, fakeWindow()));
    events.dispatchEvent(message(reply({ 'cmi.core.student_id': 'forged' }), 'null', parent));
    events.dispatchEvent(message(reply({ 'cmi.core.student_id': 'stale' }, latest - 1), APP, parent));
    expect(api.LMSGetValue?.('cmi.core.student_id')).toBe('42');
    const now = parent.postMessage.mock.calls.at(-1)?.[0].id as number;
    events.dispatchEvent(
      message(
        reply({ 'cmi.core.student_id': '42', 'cmi.core.lesson_status': 'incomplete' }, now),
        APP,
        parent,
      ),
    );
    expect(api.LMSGetValue?.('cmi.core.lesson_status')).toBe('incomplete');
    expect(String(win.name).startsWith(SCORM_FRAME_PREFIX)).toBe(true);
    expect(String(win.name)).toContain('incomplete');
  });

  it("does nothing in a frame the player did not name (a package's own inner frames, a page opened alone)", () => {
    expect(run('contentFrame').win.API).toBeUndefined();
    expect(run(`${SCORM_FRAME_PREFIX}{not json`).win.API).toBeUndefined();
  });
});

describe('packages in the mobile shell (issue 19)', () => {
  const SHELL = 'capacitor://localhost';
  const API = 'https://api.example.com';

  it("resolves the server's package paths against the API origin, not the shell's page", () => {
    expect(frameUrl('/packages/1.2.abc/uuid/sco/index.html?page=2', API)).toBe(
      'https://api.example.com/packages/1.2.abc/uuid/sco/index.html?page=2',
    );
    expect(frameUrl('/packages/runtime/h5p.html', API)).toBe(
      'https://api.example.com/packages/runtime/h5p.html',
    );
    // A package origin's URLs are absolute already; the same-origin web app keeps its paths.
    expect(frameUrl('https://packages.example.com/packages/t/u/a.html', API)).toBe(
      'https://packages.example.com/packages/t/u/a.html',
    );
    expect(frameUrl('/packages/t/u/a.html', '')).toBe('/packages/t/u/a.html');
  });

  it("takes the package frame's messages by the package's origin, whatever the shell's page origin is", () => {
    const frame = fakeWindow() as unknown as Window;
    expect(isFromFrame({ source: frame, origin: 'null' }, frame, null)).toBe(true);
    expect(isFromFrame({ source: frame, origin: SHELL }, frame, null)).toBe(false);
    expect(
      isFromFrame(
        { source: frame, origin: 'https://packages.example.com' },
        frame,
        'https://packages.example.com',
      ),
    ).toBe(true);
  });

  it('seeds the H5P page with the absolute package base and the shell origin to answer to', () => {
    const name = h5pFrameName(SHELL, { uuid: 'u-1', base_url: frameUrl('/packages/t/u-1', API) }, 'Quiz');
    expect(JSON.parse(name.slice('cc-h5p:'.length))).toEqual({
      origin: SHELL,
      id: 'u-1',
      base: 'https://api.example.com/packages/t/u-1',
      title: 'Quiz',
    });
  });

  it("scorm-frame.js posts to the shell's page at the shell origin and takes replies from it only", () => {
    const source = readFileSync(
      path.resolve(__dirname, '../../../public/package-runtime/scorm-frame.js'),
      'utf8',
    );
    const parent = fakeWindow();
    const events = new EventTarget();
    const win: Record<string, unknown> = {
      name: scormFrameName(SHELL, '1.2', { getFlattenedCMI: () => ({ 'cmi.core.student_id': '42' }) }),
      parent,
      addEventListener: events.addEventListener.bind(events),
    };
    new Function('window', source)(win);
    const api = win.API as Record<string, (...a: string[]) => string>;
    expect(api.LMSInitialize?.('')).toBe('true');
    expect(parent.postMessage.mock.calls.at(-1)?.[1]).toBe(SHELL);
    const reply = () => ({
      cc: 'scorm-reply',
      id: parent.postMessage.mock.calls.at(-1)?.[0].id as number,
      result: 'true',
      error: '0',
      values: { 'cmi.core.lesson_status': 'incomplete' },
    });
    events.dispatchEvent(message(reply(), 'https://localhost', parent));
    expect(api.LMSGetValue?.('cmi.core.lesson_status')).toBe('');
    events.dispatchEvent(message(reply(), SHELL, parent));
    expect(api.LMSGetValue?.('cmi.core.lesson_status')).toBe('incomplete');
  });
});

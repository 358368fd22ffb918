import type { Attempt } from '@cc/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScormItemLaunch, ScormLaunch } from './package-api';
import {
  createRuntime,
  entryFor,
  finishCompletion2004,
  finishStatus12,
  firstOpenItem,
  initialCmi,
  itemOutcome,
  launchableItems,
  leaveCommit,
  type Navigation,
  navigationOf,
  neighbour,
  type Runtime,
} from './scorm-runtime';

/** The real scorm-again runtime, driven the way a SCO drives it, hands the CMI the server expects to `commit`. */
const attempt = (cmi: Record<string, unknown> = {}): Attempt =>
  ({
    id: 7,
    uuid: 'u',
    user_id: 42,
    content_id: 1,
    course_id: 1,
    content: { id: 1, title: 'C', type: 'scorm' },
    course: { id: 1, title: 'Course' },
    status: 'in_progress',
    progress: { visited_topic_ids: [], completed_topic_ids: [], skipped_topic_ids: [], current: null },
    cmi,
    score: null,
    version: 3,
    started_at: new Date().toISOString(),
    completed_at: null,
  }) as unknown as Attempt;

const item = (o: Partial<ScormItemLaunch> = {}): ScormItemLaunch => ({
  identifier: 'sco1',
  title: 'SCO 1',
  depth: 0,
  parent: null,
  launch_path: 'index.html',
  launch_url: '/packages/p/index.html',
  scorm_type: 'sco',
  visible: true,
  mastery_score: null,
  scaled_passing_score: null,
  objective_ids: [],
  data_from_lms: null,
  completion_set_by_content: false,
  ...o,
});

const launch = (version: '1.2' | '2004', items: ScormItemLaunch[] = [item()]): ScormLaunch => ({
  uuid: 'p',
  version,
  title: 'P',
  launch_path: 'index.html',
  launch_url: '/packages/p/index.html',
  package_origin: null,
  mastery_score: null,
  items,
  learner: { id: '42', name: 'Doe, Jane' },
});

type Api = Record<string, (...args: string[]) => string>;
type Commit = { cmi: Record<string, unknown>; terminate: boolean };
let runtime: Runtime | null = null;
afterEach(() => runtime?.dispose());

async function start(version: '1.2' | '2004', sco: ScormItemLaunch, cmi: Record<string, unknown> = {}) {
  const commits: Commit[] = [];
  const navigations: Navigation[] = [];
  runtime = await createRuntime(launch(version, [sco]), sco, attempt(cmi), {
    commit: (c, terminate) => commits.push({ cmi: c, terminate }),
    finished: (n) => navigations.push(n),
  });
  return { api: runtime.api as unknown as Api, commits, navigations };
}
const last = (commits: Commit[]) => commits.at(-1)?.cmi.cmi as Record<string, Record<string, unknown>>;

describe('SCORM runtime (scorm-again)', () => {
  it('runs 1.2 (never on the app window: the SCO reaches it through the bridge) and commits the nested CMI on LMSCommit and LMSFinish', async () => {
    const { api, commits } = await start('1.2', item());
    expect(api.LMSInitialize('')).toBe('true');
    expect(api.LMSGetValue('cmi.core.student_id')).toBe('42');
    expect(api.LMSGetValue('cmi.core.student_name')).toBe('Doe, Jane');
    expect(api.LMSGetValue('cmi.core.credit')).toBe('credit');
    expect(api.LMSGetValue('cmi.core.entry')).toBe('ab-initio');
    expect(api.LMSGetValue('cmi.core.lesson_mode')).toBe('normal');
    api.LMSSetValue('cmi.core.lesson_location', 'page-2');
    api.LMSCommit('');
    api.LMSSetValue('cmi.core.score.raw', '90');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    expect(api.LMSFinish('')).toBe('true');
    expect(commits.length).toBeGreaterThanOrEqual(2);
    expect(last(commits).core?.lesson_status).toBe('passed');
    expect(last(commits).core).toMatchObject({ score: { raw: '90' } });
    expect(commits.at(-1)?.terminate).toBe(true);
    expect((window as unknown as { API?: unknown }).API).toBeUndefined();
  });

  it('1.2 LMSFinish without a status (RTE 3.4.2): completed, or judged against the mastery score', async () => {
    const plain = await start('1.2', item());
    plain.api.LMSInitialize('');
    plain.api.LMSFinish('');
    expect(last(plain.commits).core?.lesson_status).toBe('completed');
    expect(plain.commits.at(-1)?.terminate).toBe(true);
    runtime?.dispose();

    const mastered = await start('1.2', item({ mastery_score: 80, data_from_lms: 'lang=en' }));
    mastered.api.LMSInitialize('');
    expect(mastered.api.LMSGetValue('cmi.student_data.mastery_score')).toBe('80');
    expect(mastered.api.LMSGetValue('cmi.launch_data')).toBe('lang=en');
    mastered.api.LMSSetValue('cmi.core.score.raw', '60');
    mastered.api.LMSFinish('');
    expect(last(mastered.commits).core?.lesson_status).toBe('failed');
  });

  it('resumes a SCO from its own saved data, with entry "resume" after a suspended session', async () => {
    const saved = {
      items: { sco1: { cmi: { core: { lesson_location: '5', exit: 'suspend' }, suspend_data: 'x' } } },
    };
    const { api } = await start('1.2', item(), saved);
    api.LMSInitialize('');
    expect(api.LMSGetValue('cmi.core.lesson_location')).toBe('5');
    expect(api.LMSGetValue('cmi.suspend_data')).toBe('x');
    expect(api.LMSGetValue('cmi.core.entry')).toBe('resume');
  });

  it('runs 2004 and resumes from the CMI saved on an older attempt', async () => {
    const { api, commits } = await start('2004', item(), {
      cmi: { location: 'slide-4', suspend_data: 'abc' },
    });
    expect(api.Initialize('')).toBe('true');
    expect(api.GetValue('cmi.location')).toBe('slide-4');
    expect(api.GetValue('cmi.learner_id')).toBe('42');
    expect(api.GetValue('cmi.learner_name')).toBe('Doe, Jane');
    expect(api.GetValue('cmi.mode')).toBe('normal');
    api.SetValue('cmi.completion_status', 'completed');
    api.SetValue('cmi.success_status', 'passed');
    api.SetValue('cmi.score.scaled', '0.9');
    api.Commit('');
    expect(last(commits)).toMatchObject({ completion_status: 'completed', success_status: 'passed' });
    expect((last(commits).score as { scaled: string }).scaled).toBe('0.9');
  });

  it('2004: objectives from the manifest answer by id, and the passing score judges the score at Terminate', async () => {
    const sco = item({ objective_ids: ['PRIMARY', 'obj_a'], scaled_passing_score: 0.8 });
    const { api, commits, navigations } = await start('2004', sco);
    api.Initialize('');
    expect(api.GetValue('cmi.objectives._count')).toBe('2');
    expect(api.GetValue('cmi.objectives.1.id')).toBe('obj_a');
    expect(api.SetValue('cmi.objectives.1.success_status', 'passed')).toBe('true');
    expect(api.GetLastError()).toBe('0');
    expect(api.GetValue('cmi.scaled_passing_score')).toBe('0.8');
    api.SetValue('cmi.score.scaled', '0.07');
    api.SetValue('adl.nav.request', 'continue');
    api.Terminate('');
    // No completion reported: the LMS completes it; 7 % is below 0.8: failed.
    expect(last(commits)).toMatchObject({ completion_status: 'completed', success_status: 'failed' });
    await new Promise((r) => setTimeout(r, 0));
    expect(navigations).toEqual([{ kind: 'continue' }]);
  });
});

describe('SCORM LMS rules (plain functions)', () => {
  it('finishes a 1.2 SCO as RTE 3.4.2 says', () => {
    expect(finishStatus12('not attempted', '', null)).toBe('completed');
    expect(finishStatus12('', '', null)).toBe('completed');
    expect(finishStatus12('incomplete', '', null)).toBe('incomplete');
    expect(finishStatus12('passed', '', null)).toBe('passed');
    expect(finishStatus12('not attempted', '85', 80)).toBe('passed');
    expect(finishStatus12('completed', '79', 80)).toBe('failed');
  });

  it('completes a 2004 SCO that reports no completion unless the content sets completion itself', () => {
    expect(finishCompletion2004('unknown', false)).toBe('completed');
    expect(finishCompletion2004('incomplete', false)).toBe('incomplete');
    expect(finishCompletion2004('unknown', true)).toBe('unknown');
  });

  it('reads entry, navigation requests and initial values', () => {
    expect(entryFor('1.2', undefined)).toBe('ab-initio');
    expect(entryFor('2004', { cmi: { exit: 'suspend' } })).toBe('resume');
    expect(entryFor('2004', { cmi: { exit: '' } })).toBe('');
    expect(navigationOf('continue')).toEqual({ kind: 'continue' });
    expect(navigationOf('{target=quiz}choice')).toEqual({ kind: 'choice', target: 'quiz' });
    expect(navigationOf('exitAll')).toEqual({ kind: 'exit' });
    expect(navigationOf(undefined)).toEqual({ kind: 'exit' });
    const learner = { id: '1', name: 'Doe, Jane' };
    // Objectives already saved keep their place; only missing ids are added after them.
    const saved = { cmi: { objectives: { 0: { id: 'obj_a', success_status: 'passed' } } } };
    expect(initialCmi('2004', item({ objective_ids: ['PRIMARY', 'obj_a'] }), learner, saved)).toMatchObject({
      objectives: { 1: { id: 'PRIMARY' } },
      entry: '',
    });
  });

  it('orders the table of contents and starts at the first item not done', () => {
    const items = [
      item({ identifier: 'h', launch_url: null, launch_path: null, scorm_type: null }),
      item({ identifier: 'a' }),
      item({ identifier: 'b' }),
      item({ identifier: 'x', visible: false }),
      item({ identifier: 'c', scorm_type: 'asset' }),
    ];
    const toc = launchableItems(launch('1.2', items));
    expect(toc.map((i) => i.identifier)).toEqual(['a', 'b', 'c']);
    const a = attempt({
      items: {
        a: { cmi: {}, outcome: { status: 'passed', score: 90 } },
        b: { cmi: {}, outcome: { status: null } },
      },
    });
    expect(itemOutcome(a, 'a', 'a')).toEqual({ status: 'passed', score: 90 });
    expect(itemOutcome(a, 'a', 'c')).toBeUndefined();
    expect(firstOpenItem(toc, a)?.identifier).toBe('b');
    expect(neighbour(toc, 'b', 1)?.identifier).toBe('c');
    expect(neighbour(toc, 'a', -1)).toBeUndefined();
  });
});

describe('leaving a SCO without it finishing (issue 28 item 4)', () => {
  type Leaving = Parameters<typeof leaveCommit>[1];
  it('saves what the SCO set, as a suspend, so the next launch resumes at its location; nothing before it starts or after it finished', async () => {
    const v12 = await start('1.2', item());
    const api12 = v12.api as unknown as Leaving;
    expect(leaveCommit('1.2', api12)).toBeNull(); // not initialised: nothing to save
    v12.api.LMSInitialize('');
    v12.api.LMSSetValue('cmi.core.lesson_status', 'incomplete');
    v12.api.LMSSetValue('cmi.core.lesson_location', '3');
    const left = leaveCommit('1.2', api12) as { cmi: { core: Record<string, unknown> } };
    expect(left.cmi.core).toMatchObject({
      lesson_location: '3',
      lesson_status: 'incomplete',
      exit: 'suspend',
    });
    expect(v12.commits).toEqual([]); // the SCO itself committed nothing
    expect(entryFor('1.2', left)).toBe('resume');
    v12.api.LMSFinish('');
    expect(leaveCommit('1.2', api12)).toBeNull(); // finished: its own last commit is saved
    runtime?.dispose();

    const v2004 = await start('2004', item());
    v2004.api.Initialize('');
    v2004.api.SetValue('cmi.location', '3');
    const left2004 = leaveCommit('2004', v2004.api as unknown as Leaving) as { cmi: Record<string, unknown> };
    expect(left2004.cmi).toMatchObject({ location: '3', exit: 'suspend' });
    expect(entryFor('2004', left2004)).toBe('resume');
    // A SCO that set its own exit keeps it.
    v2004.api.SetValue('cmi.exit', 'normal');
    expect((leaveCommit('2004', v2004.api as unknown as Leaving) as { cmi: { exit: string } }).cmi.exit).toBe(
      'normal',
    );
  });
});

import type { Attempt } from '@cc/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from './scorm-runtime';

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

const launch = (version: '1.2' | '2004') => ({
  uuid: 'p',
  version,
  title: 'P',
  launch_path: 'index.html',
  launch_url: '/packages/p/index.html',
  mastery_score: null,
});

type Api = Record<string, (...args: string[]) => string>;
let runtime: Runtime | null = null;
afterEach(() => runtime?.dispose());

describe('SCORM runtime (scorm-again)', () => {
  it('exposes window.API for 1.2 and commits the nested CMI on LMSCommit and LMSFinish', async () => {
    const commits: { cmi: Record<string, unknown>; terminate: boolean }[] = [];
    runtime = await createRuntime(launch('1.2'), attempt(), (cmi, terminate) =>
      commits.push({ cmi, terminate }),
    );
    const api = (window as unknown as { API: Api }).API;
    expect(api.LMSInitialize('')).toBe('true');
    expect(api.LMSGetValue('cmi.core.student_id')).toBe('42');
    api.LMSSetValue('cmi.core.lesson_location', 'page-2');
    api.LMSCommit('');
    api.LMSSetValue('cmi.core.score.raw', '90');
    api.LMSSetValue('cmi.core.lesson_status', 'passed');
    expect(api.LMSFinish('')).toBe('true');
    expect(commits.length).toBeGreaterThanOrEqual(2);
    const last = commits.at(-1)?.cmi as { cmi: { core: Record<string, unknown> } };
    expect(last.cmi.core.lesson_status).toBe('passed');
    expect((last.cmi.core.score as { raw: string }).raw).toBe('90');
    expect(commits.at(-1)?.terminate).toBe(true);
    runtime.dispose();
    expect((window as unknown as { API?: unknown }).API).toBeUndefined();
  });

  it('exposes window.API_1484_11 for 2004 and resumes from the CMI saved on the attempt', async () => {
    const commits: Record<string, unknown>[] = [];
    runtime = await createRuntime(
      launch('2004'),
      attempt({ cmi: { location: 'slide-4', suspend_data: 'abc' } }),
      (cmi) => commits.push(cmi),
    );
    const api = (window as unknown as { API_1484_11: Api }).API_1484_11;
    expect(api.Initialize('')).toBe('true');
    expect(api.GetValue('cmi.location')).toBe('slide-4');
    expect(api.GetValue('cmi.learner_id')).toBe('42');
    api.SetValue('cmi.completion_status', 'completed');
    api.SetValue('cmi.success_status', 'passed');
    api.SetValue('cmi.score.scaled', '0.9');
    api.Commit('');
    const last = commits.at(-1) as { cmi: Record<string, unknown> };
    expect(last.cmi).toMatchObject({ completion_status: 'completed', success_status: 'passed' });
    expect((last.cmi.score as { scaled: string }).scaled).toBe('0.9');
  });
});

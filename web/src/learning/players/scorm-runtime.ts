import type { Attempt } from '@cc/contracts';
import type { ScormItemLaunch, ScormLaunch } from './package-api';

/**
 * The SCORM runtime: scorm-again (a maintained, complete SCORM 1.2 / 2004 API implementation), on the player's page.
 * The SCO runs in a sandboxed frame of another origin (issue 11 finding 1) and reaches it through the postMessage
 * bridge (package-frame.ts): its window.API (1.2) / window.API_1484_11 (2004) passes each call here. One runtime per
 * SCO launch (issue 10 item 1: multi-SCO packages keep runtime data per SCO).
 *
 * What the LMS owns is here as plain functions: the values set before the SCO starts (initialCmi), the status the LMS records when a SCO finishes
 * without one (finishStatus12 / finishCompletion2004), what a SCO asks of the LMS when it ends (navigationOf), and
 * which item plays next (launchableItems, firstOpenItem, neighbour). The verdict and the rollup over SCOs are the
 * server's (server/src/learning/scorm-completion.ts); the player shows what the server recorded (itemOutcome).
 *
 * Commits: scorm-again hands every LMSCommit / Commit and the final LMSFinish / Terminate commit to the
 * `httpService` we inject. It answers the SCO at once (SCORM calls are synchronous; a synchronous XHR would freeze
 * the page) and passes the CMI ({ cmi: {…} }, scorm-again's json commit format, full CMI) to `commit`, which the
 * player queues as PATCH /attempts/{id} with the attempt's version and the SCO's identifier.
 */
export type CommitFn = (cmi: Record<string, unknown>, terminate: boolean) => void;

/** What a SCO asked for when it ended: the next or previous item, a given item, or to leave. */
export type Navigation =
  | { kind: 'continue' }
  | { kind: 'previous' }
  | { kind: 'choice'; target: string }
  | { kind: 'exit' };

export interface RuntimeHooks {
  commit: CommitFn;
  /** The SCO called LMSFinish / Terminate (after its last commit was handed over). */
  finished?: (navigation: Navigation) => void;
}

interface RuntimeApi {
  loadFromJSON(json: object, CMIElement?: string): void;
  getFlattenedCMI(): Record<string, unknown>;
  [method: string]: unknown;
  cmi: Record<string, unknown>;
  nav?: { event?: string };
  adl?: { nav?: { request?: string } };
}

export interface Runtime {
  api: RuntimeApi;
  dispose(): void;
}

type RuntimeClass = new (settings: object, httpService: object) => RuntimeApi;

/** The ES build exports the class by name, its typings as default: take whichever is there. */
function pick(module: unknown, name: string): RuntimeClass {
  const m = module as Record<string, RuntimeClass | undefined>;
  const found = m[name] ?? m.default;
  if (!found) throw new Error(`scorm-again: ${name} not found`);
  return found;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The items a learner can open, in order: launchable and shown in the table of contents. */
export function launchableItems(launch: ScormLaunch): ScormItemLaunch[] {
  const items = (launch.items ?? []).filter((i) => i.launch_url !== null && i.visible);
  if (items.length) return items;
  // A package presented without items (older server): its launch file is its one SCO.
  return [
    {
      identifier: 'item',
      title: launch.title,
      depth: 0,
      parent: null,
      launch_path: launch.launch_path,
      launch_url: launch.launch_url,
      scorm_type: 'sco',
      visible: true,
      mastery_score: launch.mastery_score,
      scaled_passing_score: null,
      objective_ids: [],
      data_from_lms: null,
      completion_set_by_content: false,
    },
  ];
}

/** Every SCO's saved data on the attempt (server savedItems: an older attempt's CMI is the first SCO's). */
export function savedItems(cmi: Json, firstId: string): Record<string, Json> {
  if (isObject(cmi.items)) return cmi.items as Record<string, Json>;
  return Object.keys(cmi).length ? { [firstId]: cmi } : {};
}

export type ItemOutcome = { status: 'passed' | 'completed' | 'failed' | null; score: number | null };

/** What the server recorded for one SCO of the attempt; undefined when it was never launched. */
export function itemOutcome(attempt: Attempt, firstId: string, id: string): ItemOutcome | undefined {
  const saved = savedItems(attempt.cmi, firstId)[id];
  return saved && isObject(saved.outcome)
    ? (saved.outcome as ItemOutcome)
    : saved
      ? { status: null, score: null }
      : undefined;
}

/** Where a learner starts: the first item not done yet, else the first. */
export function firstOpenItem(items: ScormItemLaunch[], attempt: Attempt): ScormItemLaunch | undefined {
  const firstId = items[0]?.identifier ?? '';
  return items.find((i) => !itemOutcome(attempt, firstId, i.identifier)?.status) ?? items[0];
}

/** The item before or after `id` in the table of contents. */
export function neighbour(items: ScormItemLaunch[], id: string, step: 1 | -1): ScormItemLaunch | undefined {
  const at = items.findIndex((i) => i.identifier === id);
  return at < 0 ? undefined : items[at + step];
}

/** ab-initio on a first launch, resume after a suspended session, else "" (1.2 RTE 3.4.2.1.5, 2004 RTE 4.2.11). */
export function entryFor(version: '1.2' | '2004', previous: Json | undefined): 'ab-initio' | 'resume' | '' {
  const cmi = previous && isObject(previous.cmi) ? previous.cmi : undefined;
  if (!cmi || !Object.keys(cmi).length) return 'ab-initio';
  const exit = version === '1.2' ? (isObject(cmi.core) ? cmi.core.exit : undefined) : cmi.exit;
  return exit === 'suspend' ? 'resume' : '';
}

/**
 * The values the LMS gives a SCO before it starts: who the learner is, credit, entry, mode, the 1.2 mastery score,
 * the 2004 passing score and objective ids (cmi.objectives.n.id, so a SCO addressing its objectives by id finds
 * them), and launch data. Loaded after the SCO's saved data, so they are always current.
 */
export function initialCmi(
  version: '1.2' | '2004',
  item: ScormItemLaunch,
  learner: ScormLaunch['learner'],
  previous: Json | undefined,
): Json {
  const entry = entryFor(version, previous);
  const launchData = item.data_from_lms ? { launch_data: item.data_from_lms } : {};
  if (version === '1.2')
    return {
      core: {
        student_id: learner.id,
        student_name: learner.name,
        credit: 'credit',
        entry,
        lesson_mode: 'normal',
      },
      ...(item.mastery_score !== null ? { student_data: { mastery_score: String(item.mastery_score) } } : {}),
      ...launchData,
    };
  const saved =
    previous && isObject(previous.cmi) && isObject(previous.cmi.objectives) ? previous.cmi.objectives : {};
  const known = new Set(Object.values(saved).map((o) => (isObject(o) ? o.id : undefined)));
  const missing = item.objective_ids.filter((id) => !known.has(id));
  const offset = Object.keys(saved).length;
  return {
    learner_id: learner.id,
    learner_name: learner.name,
    credit: 'credit',
    entry,
    mode: 'normal',
    ...(item.scaled_passing_score !== null
      ? { scaled_passing_score: String(item.scaled_passing_score) }
      : {}),
    ...(missing.length
      ? { objectives: Object.fromEntries(missing.map((id, n) => [String(offset + n), { id }])) }
      : {}),
    ...launchData,
  };
}

/**
 * SCORM 1.2 RTE 3.4.2 (cmi.core.lesson_status): when a SCO finishes, the LMS judges a raw score against the mastery
 * score (credit mode); a SCO that never set a status ("not attempted": a SCO may not set it) is completed.
 */
export function finishStatus12(status: string, raw: string, masteryScore: number | null): string {
  const score = raw === '' ? Number.NaN : Number(raw);
  if (masteryScore !== null && Number.isFinite(score)) return score >= masteryScore ? 'passed' : 'failed';
  return status === '' || status === 'not attempted' ? 'completed' : status;
}

/**
 * SCORM 2004 (sequencing, deliveryControls completionSetByContent="false", the default): a SCO that ends without
 * reporting completion is completed by the LMS. Success is never assumed (no verdict is never a pass).
 */
export function finishCompletion2004(completion: string, completionSetByContent: boolean): string {
  return !completionSetByContent && (completion === '' || completion === 'unknown')
    ? 'completed'
    : completion;
}

/** The navigation a SCO asked for when it ended: 1.2 nav.event, 2004 adl.nav.request. */
export function navigationOf(request: string | undefined): Navigation {
  const value = (request ?? '').trim();
  if (value === 'continue') return { kind: 'continue' };
  if (value === 'previous') return { kind: 'previous' };
  const choice = /^\{target=([^}]+)\}(choice|jump)$/.exec(value);
  return choice?.[1] ? { kind: 'choice', target: choice[1] } : { kind: 'exit' };
}

/** Applies the finish rules to the terminate commit (the SCO's own values stay in the runtime). */
export function applyFinishRules(version: '1.2' | '2004', item: ScormItemLaunch, commit: Json): Json {
  const cmi = isObject(commit.cmi) ? commit.cmi : null;
  if (!cmi) return commit;
  if (version === '1.2') {
    const core = isObject(cmi.core) ? cmi.core : {};
    const score = isObject(core.score) ? core.score : {};
    const status = finishStatus12(
      String(core.lesson_status ?? ''),
      String(score.raw ?? ''),
      item.mastery_score,
    );
    return { ...commit, cmi: { ...cmi, core: { ...core, lesson_status: status } } };
  }
  const completion = finishCompletion2004(
    String(cmi.completion_status ?? ''),
    item.completion_set_by_content,
  );
  return { ...commit, cmi: { ...cmi, completion_status: completion } };
}

/**
 * What the player saves of a SCO the learner leaves without it finishing (the app's menu, the tab closed, the phone
 * locked): everything the SCO has set so far, as a commit would send it, and its exit as "suspend" when the SCO set
 * none, so the next launch is a resume (entry "resume", entryFor) at the location it saved. Null when there is
 * nothing to save: the SCO never initialised, or it finished (its own last commit is saved).
 */
export function leaveCommit(version: '1.2' | '2004', api: RuntimeApi): Json | null {
  const state = api as unknown as { isInitialized?: () => boolean; isTerminated?: () => boolean };
  const render = (api as unknown as { renderCommitCMI?: (terminate: boolean) => unknown }).renderCommitCMI;
  if (!state.isInitialized?.() || state.isTerminated?.() || typeof render !== 'function') return null;
  const commit = render.call(api, false);
  if (!isObject(commit) || !isObject(commit.cmi)) return null;
  const cmi = commit.cmi;
  if (version === '1.2') {
    const core = isObject(cmi.core) ? cmi.core : {};
    return core.exit ? commit : { ...commit, cmi: { ...cmi, core: { ...core, exit: 'suspend' } } };
  }
  return cmi.exit ? commit : { ...commit, cmi: { ...cmi, exit: 'suspend' } };
}

/** Starts a fresh runtime for one SCO of the attempt, with its saved data and the LMS's initial values. */
export async function createRuntime(
  launch: ScormLaunch,
  item: ScormItemLaunch,
  attempt: Attempt,
  hooks: RuntimeHooks | CommitFn,
): Promise<Runtime> {
  const { commit, finished } = typeof hooks === 'function' ? { commit: hooks, finished: undefined } : hooks;
  let api: RuntimeApi | null = null;
  const httpService = {
    reportsRequestCompletion: false,
    processHttpRequest(
      _url: string,
      params: unknown,
      _immediate: boolean,
      _log: unknown,
      _listeners: unknown,
      metadata?: { isTerminateCommit?: boolean },
    ) {
      const terminate = Boolean(metadata?.isTerminateCommit);
      if (isObject(params))
        commit(terminate ? applyFinishRules(launch.version, item, params) : params, terminate);
      if (terminate && finished) {
        const request = launch.version === '1.2' ? api?.nav?.event : api?.adl?.nav?.request;
        // After the SCO's LMSFinish / Terminate has returned: the player may then take its frame away.
        setTimeout(() => finished(navigationOf(request)), 0);
      }
      return { result: 'true', errorCode: 0 };
    },
    updateSettings() {},
  };
  const settings = {
    // Any value turns commits on; our httpService does the sending.
    lmsCommitUrl: `/api/attempts/${attempt.id}`,
    dataCommitFormat: 'json' as const,
    sendFullCommit: true,
    autocommit: false,
    logLevel: 5,
    // The finish rules are ours (applyFinishRules).
    mastery_override: false,
  };
  const firstId = launchableItems(launch)[0]?.identifier ?? item.identifier;
  const previous = savedItems(attempt.cmi, firstId)[item.identifier];
  const initial = initialCmi(
    launch.version,
    item,
    launch.learner ?? { id: String(attempt.user_id), name: '' },
    previous,
  );
  // Not on window.API: the SCO runs in a sandboxed frame of another origin and reaches this runtime only through
  // the postMessage bridge (package-frame.ts connectScormFrame).
  const RuntimeClass =
    launch.version === '2004'
      ? pick(await import('scorm-again/scorm2004'), 'Scorm2004API')
      : pick(await import('scorm-again/scorm12'), 'Scorm12API');
  api = new RuntimeClass(settings, httpService);
  load(api, previous, initial);
  return { api, dispose: () => {} };
}

/** The SCO's saved data (location, suspend data…) first, so a learner resumes where they left; then the LMS's values. */
function load(api: RuntimeApi, previous: Json | undefined, initial: Json) {
  const saved = previous && isObject(previous.cmi) ? { ...previous.cmi } : undefined;
  try {
    if (saved) api.loadFromJSON(saved);
  } catch {
    // Saved data the runtime refuses (e.g. a read-only element) must not stop the package from starting.
  }
  try {
    api.loadFromJSON(initial);
  } catch {
    // Likewise for an initial value the runtime refuses.
  }
}

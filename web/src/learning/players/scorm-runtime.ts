import type { Attempt } from '@cc/contracts';
import type { ScormLaunch } from './package-api';

/**
 * The SCORM runtime: scorm-again (a maintained, complete SCORM 1.2 / 2004 API implementation) exposed to the
 * package's same-origin iframe as window.API (1.2) or window.API_1484_11 (2004), which is where SCOs look for it.
 *
 * Commits: scorm-again hands every LMSCommit / Commit and the final LMSFinish / Terminate commit to the
 * `httpService` we inject. It answers the SCO at once (SCORM calls are synchronous; a synchronous XHR would freeze
 * the page) and passes the CMI ({ cmi: {…} }, scorm-again's json commit format, full CMI) to `commit`, which the
 * player queues as PATCH /attempts/{id} with the attempt's version. The server turns the CMI into the outcome.
 */
export type CommitFn = (cmi: Record<string, unknown>, terminate: boolean) => void;

interface RuntimeApi {
  loadFromJSON(json: object, CMIElement?: string): void;
  on(listenerName: string, callback: (...args: unknown[]) => void): void;
  reset?(settings?: object): void;
  cmi: Record<string, unknown>;
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

type ScormWindow = Window & { API?: unknown; API_1484_11?: unknown };

export async function createRuntime(
  launch: ScormLaunch,
  attempt: Attempt,
  commit: CommitFn,
): Promise<Runtime> {
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
      if (params && typeof params === 'object' && !Array.isArray(params))
        commit(params as Record<string, unknown>, Boolean(metadata?.isTerminateCommit));
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
  };
  const previous = (attempt.cmi as { cmi?: object }).cmi;
  const w = window as ScormWindow;
  if (launch.version === '2004') {
    const Scorm2004API = pick(await import('scorm-again/scorm2004'), 'Scorm2004API');
    const api = new Scorm2004API(settings, httpService);
    resume(api, previous, { learner_id: String(attempt.user_id) });
    w.API_1484_11 = api;
    return { api, dispose: () => void delete w.API_1484_11 };
  }
  const Scorm12API = pick(await import('scorm-again/scorm12'), 'Scorm12API');
  const api = new Scorm12API(settings, httpService);
  resume(api, previous, { core: { student_id: String(attempt.user_id) } });
  w.API = api;
  return { api, dispose: () => void delete w.API };
}

/** Starts from the CMI saved on the attempt (location, suspend data…) so a learner resumes where they left. */
function resume(api: RuntimeApi, previous: object | undefined, identity: object) {
  try {
    api.loadFromJSON(identity);
    if (previous && typeof previous === 'object') api.loadFromJSON(previous);
  } catch {
    // Saved data the runtime refuses (e.g. a read-only element) must not stop the package from starting.
  }
}

/**
 * Package content in its frame (issue 11 finding 1). A SCORM or H5P package is untrusted code: the server serves it
 * as a sandboxed document (an opaque origin, or PACKAGE_ORIGIN when configured) under a signed launch URL, and the
 * player frames it with a matching `sandbox` attribute, so it shares neither the app's origin nor the user's session
 * and cannot navigate the app. The package talks to the player only by postMessage:
 *
 * - SCORM: web/public/package-runtime/scorm-frame.js gives the SCO its window.API / window.API_1484_11: with a
 *   package origin in the launcher page (scorm.html), which frames the SCO in that same origin so the SCO finds the
 *   API on its parent; in the opaque sandbox in the SCO's own page (the server puts the script into every SCORM page). SCORM calls are synchronous, so it answers from the SCO's values, seeded by
 *   the player through the frame's name (scormFrameName) and refreshed by every reply; each call is passed here
 *   (connectScormFrame) and made on the real scorm-again runtime, which commits as before.
 * - H5P: web/public/package-runtime/h5p.html runs h5p-standalone inside the sandbox and posts the xAPI statements,
 *   whether the item is scored, its height and failures (readH5pMessage).
 *
 * Every message is taken only from the player's own frame (event.source is its contentWindow) and from the origin
 * the package runs in ("null" for the opaque sandbox); replies go to that frame only.
 */

/**
 * The sandbox of a package frame: scripts, forms, popups and dialogs; never top navigation. Dialogs (allow-modals)
 * because packages ask with alert / confirm, e.g. the golf examples' "resume where you left off?", which a sandbox
 * without it answers "no" unseen (issue 28 item 4); it gives the frame neither the app's origin nor its session.
 */
export function packageSandbox(packageOrigin: string | null): string {
  // With a package origin the frame runs in that origin (not the app's), so frames inside one package can script
  // each other, as real packages do; without one it is an opaque origin.
  return packageOrigin
    ? 'allow-scripts allow-forms allow-popups allow-modals allow-same-origin'
    : 'allow-scripts allow-forms allow-popups allow-modals';
}

/** The origin messages from package content carry: the package origin, or "null" for the opaque sandbox. */
export const frameOrigin = (packageOrigin: string | null) => packageOrigin ?? 'null';

/** Where replies may go: the package origin; an opaque origin cannot be named, the target window is checked instead. */
export const replyTarget = (packageOrigin: string | null) => packageOrigin ?? '*';

/** Whether `event` comes from `frame`'s document and the origin its package runs in. */
export function isFromFrame(
  event: Pick<MessageEvent, 'source' | 'origin'>,
  frame: Window | null | undefined,
  packageOrigin: string | null,
): boolean {
  return Boolean(frame) && event.source === frame && event.origin === frameOrigin(packageOrigin);
}

/** Listens to messages from one package frame; returns the function that stops listening. */
export function listenToFrame(
  frame: () => Window | null | undefined,
  packageOrigin: string | null,
  onMessage: (data: unknown, source: Window) => void,
  target: Window = window,
): () => void {
  const listener = (event: MessageEvent) => {
    if (!isFromFrame(event, frame(), packageOrigin)) return;
    onMessage(event.data, event.source as Window);
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}

/**
 * A relative launch URL is on the API's host; an absolute one (a package origin) is taken as it is. In the mobile
 * shell the page is capacitor://localhost or https://localhost, so a path alone would point into the app bundle.
 */
export function frameUrl(url: string, apiOrigin: string): string {
  return /^https?:\/\//i.test(url) ? url : `${apiOrigin}${url}`;
}

// ---------------------------------------------------------------------------------------------------------------
// SCORM

export const SCORM_FRAME_PREFIX = 'cc-scorm:';

/** The SCORM methods a SCO may call through the bridge: the two APIs' eight functions each, nothing else. */
export const SCORM_METHODS = new Set([
  'LMSInitialize',
  'LMSFinish',
  'LMSGetValue',
  'LMSSetValue',
  'LMSCommit',
  'LMSGetLastError',
  'LMSGetErrorString',
  'LMSGetDiagnostic',
  'Initialize',
  'Terminate',
  'GetValue',
  'SetValue',
  'Commit',
  'GetLastError',
  'GetErrorString',
  'GetDiagnostic',
]);

/** The runtime as the bridge uses it: scorm-again's API object. */
export interface BridgedApi {
  getFlattenedCMI(): Record<string, unknown>;
  [method: string]: unknown;
}

/** The SCO's values as the frame answers GetValue from them: every flattened CMI element that holds a value. */
export function scormValues(api: BridgedApi): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(api.getFlattenedCMI()))
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values[key] = String(value);
  return values;
}

/**
 * The frame's name: what the bridge starts from (the player's origin, the version, the values) and, when the player
 * frames the launcher page (a package origin), the SCO's URL the launcher opens below itself.
 */
export function scormFrameName(
  appOrigin: string,
  version: '1.2' | '2004',
  api: BridgedApi,
  launch?: string,
): string {
  return (
    SCORM_FRAME_PREFIX + JSON.stringify({ origin: appOrigin, version, values: scormValues(api), launch })
  );
}

interface ScormCall {
  cc: 'scorm';
  id: number;
  method: string;
  args: string[];
}

/** A well-formed call of an allowed method with at most two string arguments; anything else is dropped. */
export function readScormCall(data: unknown): ScormCall | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.cc !== 'scorm' || typeof d.id !== 'number' || typeof d.method !== 'string') return null;
  if (!SCORM_METHODS.has(d.method)) return null;
  const args = Array.isArray(d.args) ? d.args : [];
  if (args.length > 2) return null;
  return { cc: 'scorm', id: d.id, method: d.method, args: args.map((a) => String(a ?? '')) };
}

/**
 * Serves one SCO frame's SCORM calls with `api` (the player's scorm-again runtime): each call is made on the
 * runtime, and the reply carries its result, the runtime's last error and the SCO's values after it.
 */
export function connectScormFrame(
  frame: () => Window | null | undefined,
  packageOrigin: string | null,
  api: BridgedApi,
  target: Window = window,
): () => void {
  const lastError = (): string => {
    const fn = (api.GetLastError ?? api.LMSGetLastError) as (() => unknown) | undefined;
    return typeof fn === 'function' ? String(fn.call(api)) : '0';
  };
  return listenToFrame(
    frame,
    packageOrigin,
    (data, source) => {
      const call = readScormCall(data);
      if (!call) return;
      const fn = api[call.method];
      if (typeof fn !== 'function') return;
      let result: string;
      try {
        result = String(fn.apply(api, call.args));
      } catch {
        result = 'false';
      }
      const error = call.method.endsWith('GetLastError') ? '0' : lastError();
      source.postMessage(
        { cc: 'scorm-reply', id: call.id, result, error, values: scormValues(api) },
        replyTarget(packageOrigin),
      );
    },
    target,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// H5P

export const H5P_FRAME_PREFIX = 'cc-h5p:';

/**
 * The frame's name: what the player page inside the sandbox starts from. `offline` (native/offline, a copy stored on
 * the device): where the player's own files (h5p-player/) are, and the package's JSON files, which the frame cannot
 * fetch there (package-runtime/h5p-frame.js).
 */
export function h5pFrameName(
  appOrigin: string,
  launch: { uuid: string; base_url: string },
  title: string,
  offline?: { runtime: string; json: Record<string, string> },
): string {
  return (
    H5P_FRAME_PREFIX +
    JSON.stringify({ origin: appOrigin, id: launch.uuid, base: launch.base_url, title, ...offline })
  );
}

export type H5pFrameMessage =
  | { type: 'xapi'; statement: unknown }
  | { type: 'scored'; scored: boolean }
  | { type: 'height'; height: number }
  | { type: 'error' };

/** A message of the H5P player page, or null for anything else. */
export function readH5pMessage(data: unknown): H5pFrameMessage | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  if (d.cc !== 'h5p') return null;
  if (d.type === 'xapi' && d.statement && typeof d.statement === 'object')
    return { type: 'xapi', statement: d.statement };
  if (d.type === 'scored' && typeof d.scored === 'boolean') return { type: 'scored', scored: d.scored };
  if (d.type === 'height' && typeof d.height === 'number' && Number.isFinite(d.height))
    return { type: 'height', height: d.height };
  if (d.type === 'error') return { type: 'error' };
  return null;
}

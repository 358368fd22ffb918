import type { Attempt } from '@cc/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { apiOrigin } from '../../app/env';
import type { ScormItemLaunch, ScormLaunch } from '../../learning/players/package-api';
import {
  connectScormFrame,
  frameUrl,
  packageSandbox,
  scormFrameName,
} from '../../learning/players/package-frame';
import { askFrameToClose, ScormContents } from '../../learning/players/ScormPlayer';
import {
  createRuntime,
  launchableItems,
  type Navigation,
  neighbour,
  type Runtime,
} from '../../learning/players/scorm-runtime';
import { type BadgeTone, Button, cx } from '../../ui';
import type { StoredDownload } from './library';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The launch data the online runtime expects, made from the stored copy (no server call). */
export function offlineLaunch(stored: StoredDownload): ScormLaunch | null {
  const pkg = stored.download.packages.find((p) => p.kind === 'scorm');
  if (!pkg) return null;
  const items = pkg.items as unknown as ScormItemLaunch[];
  const local = stored.files[pkg.uuid] ?? {};
  return {
    uuid: pkg.uuid,
    version: pkg.version === '2004' ? '2004' : '1.2',
    title: pkg.title,
    launch_path: pkg.launch_path ?? '',
    // The stored file's URL on the device (the shell's file URL); the signed URL where nothing was stored.
    launch_url: local[pkg.launch_path ?? ''] ?? `${pkg.base_url}/${pkg.launch_path}`,
    package_origin: null,
    player_url: null,
    mastery_score: pkg.mastery_score,
    items: items.map((i) => ({
      ...i,
      launch_url: i.launch_path === null ? null : (local[i.launch_path] ?? i.launch_url),
    })),
    learner: stored.download.learner,
  };
}

/**
 * The frame's address: a stored file's URL as it is (convertFileSrc gives https://localhost/_capacitor_file_/… on
 * Android but capacitor://localhost/_capacitor_file_/… on iOS, which frameUrl would take for a path on the API's
 * host); a signed path (nothing stored) on the API's host.
 */
export const storedFrameSrc = (url: string) =>
  /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : frameUrl(url, apiOrigin());

export type LocalState = 'passed' | 'completed' | 'failed' | 'started' | 'new';

/**
 * What a SCO's saved data says, for the table of contents only: the verdict is the server's on sync (mastery and
 * passing scores, the rollup: server/src/learning/scorm-completion.ts). An asset is done once opened.
 */
export function localItemState(version: '1.2' | '2004', item: ScormItemLaunch, data: unknown): LocalState {
  if (!isObject(data)) return 'new';
  if (item.scorm_type === 'asset') return 'completed';
  const cmi = isObject(data.cmi) ? data.cmi : {};
  if (version === '1.2') {
    const status = isObject(cmi.core) ? cmi.core.lesson_status : undefined;
    return status === 'passed' || status === 'failed' || status === 'completed' ? status : 'started';
  }
  if (cmi.success_status === 'passed' || cmi.success_status === 'failed') return cmi.success_status;
  return cmi.completion_status === 'completed' ? 'completed' : 'started';
}

const STATE: Record<LocalState, { label: string; tone: BadgeTone }> = {
  passed: { label: 'Passed', tone: 'success' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Not passed', tone: 'danger' },
  started: { label: 'Started', tone: 'warning' },
  new: { label: 'Not started', tone: 'neutral' },
};
const isDone = (s: LocalState) => s !== 'new' && s !== 'started';

/**
 * A saved SCORM package played offline, every SCO of it: the table of contents, Previous / Next and the SCO's own
 * navigation requests as in the online player (learning/players/ScormPlayer.tsx), the same runtime (scorm-again)
 * and postMessage bridge, the SCO in the same opaque sandbox (never the app's origin). Each SCO's commits go to
 * `onCommit` (the offline attempt's cmi, by SCO identifier) instead of PATCH /attempts/{id}, and a SCO opened again
 * resumes from what it saved on the device.
 */
export function OfflineScormPlayer({
  stored,
  cmi,
  onCommit,
}: {
  stored: StoredDownload;
  /** The offline attempt's data so far: SCO identifier -> its last commit. */
  cmi: Record<string, Json>;
  onCommit: (sco: string, data: Json) => void;
}) {
  const launch = useMemo(() => offlineLaunch(stored), [stored]);
  const items = useMemo(() => (launch ? launchableItems(launch) : []), [launch]);
  const saved = useRef(cmi);
  saved.current = cmi;
  const stateOf = (i: ScormItemLaunch) =>
    launch ? localItemState(launch.version, i, cmi[i.identifier]) : 'new';
  const [currentId, setCurrentId] = useState<string | null>(
    () =>
      (
        items.find((i) => !isDone(launch ? localItemState(launch.version, i, cmi[i.identifier]) : 'new')) ??
        items[0]
      )?.identifier ?? null,
  );
  const [session, setSession] = useState(0);
  const [ended, setEnded] = useState(false);
  const [name, setName] = useState<string | null>(null);
  const [readyKey, setReadyKey] = useState<string | null>(null);
  const item = items.find((i) => i.identifier === currentId);
  const key = item ? `${item.identifier}#${session}` : null;
  const keyRef = useRef(key);
  keyRef.current = key;
  const leaving = useRef<string | null>(null);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const commitRef = useRef(onCommit);
  commitRef.current = onCommit;

  /** Ends the SCO on show as leaving a page does (its unload handlers call LMSFinish), before another starts. */
  const closeFrame = async () => {
    const frame = frameRef.current;
    if (!frame) return;
    leaving.current = keyRef.current;
    await askFrameToClose(frame, null);
    await new Promise<void>((resolve) => {
      frame.addEventListener('load', () => resolve(), { once: true });
      setTimeout(resolve, 3000); // a frame that never loads the blank page does not hold the learner
      frame.src = 'about:blank';
    });
  };
  const show = (next: ScormItemLaunch) => {
    setEnded(false);
    setReadyKey(null);
    if (next.identifier === currentId) setSession((s) => s + 1);
    else setCurrentId(next.identifier);
  };
  const open = (next: ScormItemLaunch | undefined) => {
    if (next) void closeFrame().then(() => show(next));
  };
  const navigate = useRef<(n: Navigation) => void>(() => {});
  navigate.current = (n: Navigation) => {
    if (!item) return;
    const target =
      n.kind === 'continue'
        ? neighbour(items, item.identifier, 1)
        : n.kind === 'previous'
          ? neighbour(items, item.identifier, -1)
          : n.kind === 'choice'
            ? items.find((i) => i.identifier === n.target)
            : undefined;
    if (target) show(target);
    else setEnded(true);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: one runtime per SCO session
  useEffect(() => {
    if (!launch || !item || !key || ended) return;
    let disconnect = () => {};
    let runtime: Runtime | null = null;
    let cancelled = false;
    const sco = item.identifier;
    // The runtime reads the attempt's id, user and saved SCO data ({ items }): the device's data, so a SCO resumes.
    const attempt = {
      id: 0,
      user_id: stored.download.user_id,
      cmi: { items: saved.current },
    } as unknown as Attempt;
    void createRuntime(launch, item, attempt, {
      commit: (data) => commitRef.current(sco, data),
      finished: (n) => {
        if (!cancelled && keyRef.current === key && leaving.current !== key) navigate.current(n);
      },
    }).then((created) => {
      if (cancelled) return created.dispose();
      runtime = created;
      let own: Window | null = null;
      disconnect = connectScormFrame(
        () => (own ??= frameRef.current?.contentWindow ?? null),
        null,
        created.api,
      );
      // An asset never talks to the runtime: opening it is doing it (as online).
      if (item.scorm_type === 'asset' && !saved.current[sco]) commitRef.current(sco, {});
      setName(scormFrameName(window.location.origin, launch.version, created.api));
      setReadyKey(key);
    });
    return () => {
      cancelled = true;
      // Still served for a moment: the closed SCO's finishing calls reach its own runtime.
      const stop = disconnect;
      setTimeout(() => stop(), 5000);
      runtime?.dispose();
    };
  }, [launch, key, ended]);

  if (!launch || !items.length || !items.some((i) => i.launch_url))
    return <p className="text-sm text-slate-700">This package has nothing to play.</p>;
  const multi = items.length > 1;
  const done = items.filter((i) => isDone(stateOf(i))).length;
  const previous = item ? neighbour(items, item.identifier, -1) : undefined;
  const next = item ? neighbour(items, item.identifier, 1) : undefined;

  return (
    <div className={cx(multi ? 'grid gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]' : '')}>
      {multi ? (
        <ScormContents
          items={launch.items}
          currentId={currentId}
          done={done}
          total={items.length}
          badgeOf={(i) => STATE[stateOf(i)]}
          onOpen={open}
        />
      ) : null}
      <div className="min-w-0 space-y-3">
        {item && ended ? (
          <div
            className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
            data-testid="scorm-ended"
          >
            <p className="text-sm text-slate-800">
              {multi
                ? `You have left “${item.title}”. ${done} of ${items.length} parts are done.`
                : 'You have left the package.'}
            </p>
            <div className="flex flex-wrap gap-3">
              <Button variant="secondary" onClick={() => open(item)}>
                Open again
              </Button>
              {next ? <Button onClick={() => open(next)}>Next: {next.title}</Button> : null}
            </div>
          </div>
        ) : null}
        {item?.launch_url && !ended && name && readyKey === key ? (
          <iframe
            key={key}
            ref={frameRef}
            title={multi ? `${launch.title}: ${item.title}` : launch.title}
            name={name}
            src={storedFrameSrc(item.launch_url)}
            sandbox={packageSandbox(null)}
            className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
          />
        ) : null}
        {item && !ended ? (
          <div className="flex flex-wrap items-center justify-between gap-3">
            {multi ? (
              <Button variant="secondary" onClick={() => open(previous)} disabled={!previous}>
                Previous
              </Button>
            ) : (
              <span />
            )}
            <Button variant="secondary" onClick={() => void closeFrame().then(() => setEnded(true))}>
              {multi ? 'Close this part' : 'Close the package'}
            </Button>
            {multi ? (
              <Button variant="secondary" onClick={() => open(next)} disabled={!next}>
                Next
              </Button>
            ) : (
              <span />
            )}
          </div>
        ) : null}
      </div>
    </div>
  );
}

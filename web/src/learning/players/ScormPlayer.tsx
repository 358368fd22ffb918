import type { Attempt } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { isApiError } from '../../app/api';
import { authStore } from '../../app/auth';
import { apiOrigin } from '../../app/env';
import { Badge, type BadgeTone, Button, cx, Spinner } from '../../ui';
import { handleAttemptUpdateFailure, patchAttemptOnLeave } from '../api';
import { getOutbox, savedLocallyMessage } from '../attempt-outbox';
import { fetchScormLaunch, type ScormItemLaunch, type ScormLaunch } from './package-api';
import {
  connectScormFrame,
  frameUrl,
  listenToFrame,
  packageSandbox,
  replyTarget,
  scormFrameName,
} from './package-frame';
import {
  createRuntime,
  firstOpenItem,
  type ItemOutcome,
  itemOutcome,
  launchableItems,
  leaveCommit,
  type Navigation,
  neighbour,
  type Runtime,
} from './scorm-runtime';

export interface ScormPlayerProps {
  attempt: Attempt;
  title?: string;
  onAttemptChange?: (attempt: Attempt) => void;
}

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  passed: { label: 'Passed', tone: 'success' },
  completed: { label: 'Completed', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  started: { label: 'Started', tone: 'warning' },
  new: { label: 'Not started', tone: 'neutral' },
};
const stateOf = (o: ItemOutcome | undefined) =>
  (o ? STATUS[o.status ?? 'started'] : undefined) ?? { label: 'Not started', tone: 'neutral' as const };

/**
 * Plays the SCORM package of a SCORM attempt (issue 4 item 2, issue 10 item 1): the package's table of contents
 * (every item of its organisation; headings, and the SCOs with what was recorded for each), and the current SCO in a
 * sandboxed iframe at its signed launch URL, in an origin that is not the app's (issue 11 finding 1), with its own
 * scorm-again runtime here (scorm-runtime.ts) that the SCO's window.API / window.API_1484_11 reaches by postMessage
 * (package-frame.ts: the frame's name seeds the SCO's values, messages only from this frame and its origin). Moving to another item closes the SCO's frame (a SCO finishes on unload) before the next one
 * starts. Every commit is saved as PATCH /attempts/{id} { version, cmi, sco, commit } in order, one at a time; the
 * server rolls the SCOs up and finishes the attempt when all are done. A SCO left without finishing (the app's menu,
 * the tab closed, the page hidden) is saved as it stands (saveOnLeave, issue 28 item 4), so the learner resumes there. On 409 the server's message is shown (spec 1 §4);
 * other failures go through the learner pages' handleAttemptUpdateFailure.
 */
/** How long a closed SCO's frame is still listened to for its finishing calls (LMSFinish / Terminate on unload). */
const FINISH_GRACE_MS = 5000;

/**
 * Asks the package frame to end its SCO first (scorm-frame.js: the launcher empties the SCO's frame, whose finishing
 * calls it still passes on), and waits for its answer, at most a few seconds.
 */
export function askFrameToClose(frame: HTMLIFrameElement, packageOrigin: string | null): Promise<void> {
  const target = frame.contentWindow;
  if (!target) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      resolve();
    }, 3000);
    stop = listenToFrame(
      () => target,
      packageOrigin,
      (message) => {
        if ((message as { cc?: unknown } | null)?.cc !== 'scorm-closed') return;
        clearTimeout(timer);
        stop();
        resolve();
      },
    );
    target.postMessage({ cc: 'scorm-close' }, replyTarget(packageOrigin));
  });
}

export function ScormPlayer({ attempt, title, onAttemptChange }: ScormPlayerProps) {
  const launch = useQuery({
    queryKey: ['learning', 'scorm-launch', attempt.id],
    queryFn: () => fetchScormLaunch(attempt.id),
    retry: false,
  });
  const data = launch.data;
  const items = useMemo(() => (data ? launchableItems(data) : []), [data]);
  const [currentId, setCurrentId] = useState<string | null>(null);
  /** A new session of the same item (opened again after it ended). */
  const [session, setSession] = useState(0);
  const [readyKey, setReadyKey] = useState<string | null>(null);
  /** The SCO frame's name: the bridge's seed (the player's origin, the version, the SCO's values). */
  const [frameName, setFrameName] = useState('');
  /** The SCO ended its session itself (LMSFinish / Terminate) or the learner closed it. */
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string>('');
  const version = useRef(attempt.version);
  const finished = useRef(attempt.status !== 'in_progress');
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const onChange = useRef(onAttemptChange);
  onChange.current = onAttemptChange;
  const current = useRef(attempt);
  current.current = attempt;
  const inProgress = attempt.status === 'in_progress';

  useEffect(() => {
    version.current = Math.max(version.current, attempt.version);
  }, [attempt.version]);

  // Start where the learner left off: the first item not done yet.
  useEffect(() => {
    if (items.length && currentId === null)
      setCurrentId(firstOpenItem(items, current.current)?.identifier ?? null);
  }, [items, currentId]);

  const item = items.find((i) => i.identifier === currentId);
  const key = item ? `${item.identifier}#${session}` : null;
  const keyRef = useRef(key);
  keyRef.current = key;

  const frameRef = useRef<HTMLIFrameElement>(null);
  /** The session being closed by the player: its SCO's own finish must not move the player again. */
  const leaving = useRef<string | null>(null);
  /**
   * Ends the SCO on show the way a browser does when a learner leaves a page: its frame navigates to a blank page,
   * so its beforeunload / unload handlers run (where SCOs call LMSFinish / Terminate). Removing a frame fires no
   * beforeunload, and Chromium no longer runs unload handlers.
   */
  const closeFrame = async () => {
    const frame = frameRef.current;
    if (!frame) return;
    leaving.current = keyRef.current;
    await askFrameToClose(frame, data?.package_origin ?? null);
    await new Promise<void>((resolve) => {
      const done = () => resolve();
      frame.addEventListener('load', done, { once: true });
      setTimeout(done, 3000); // a frame that never loads the blank page does not hold the learner
      frame.src = 'about:blank';
    });
  };
  const close = () => void closeFrame().then(() => setEnded(true));

  const open = (next: ScormItemLaunch | undefined) => {
    if (!next) return;
    void closeFrame().then(() => show(next));
  };
  const show = (next: ScormItemLaunch) => {
    setEnded(false);
    setReadyKey(null);
    if (next.identifier === currentId) setSession((s) => s + 1);
    else setCurrentId(next.identifier);
  };
  /** A SCO ended its session: go where it asked (next, previous, an item), else show that it ended. */
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
    // The SCO has finished already: its frame is left as it is.
    if (target) show(target);
    else setEnded(true);
  };

  useEffect(() => {
    if (!data || !item || !key || !inProgress || ended) return;
    let runtime: Runtime | null = null;
    let disconnect: (() => void) | null = null;
    let cancelled = false;
    const sco = item.identifier;
    // This launch of the SCO and the order of its commits: the server keeps the newest of them (a late or resent one
    // changes nothing) and takes the save sent as the learner leaves even when it overtakes a commit under way.
    const launchId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    let seq = 0;
    const order = () => ({ session: launchId, seq: ++seq });
    /** What was last handed to the server, so leaving right after a commit sends nothing again. */
    let lastSent = '';
    const commit = (cmi: Record<string, unknown>) => {
      const ordered = order();
      lastSent = JSON.stringify(cmi);
      queue.current = queue.current.then(async () => {
        // Once a commit finished the attempt (passed, completed, failed), later ones (LMSFinish) have nothing to add.
        if (finished.current) return;
        // Through the attempt outbox (issue 31 §2): kept on the device until the server has it.
        const userId = authStore.get().user?.id;
        if (userId === undefined) return;
        const result = await getOutbox()
          .submit({
            kind: 'attempt',
            user_id: userId,
            attempt_id: current.current.id,
            version: version.current,
            body: { cmi, sco, commit: ordered },
          })
          .catch(() => ({ state: 'refused' as const, status: 0, error: null }));
        if (result.state === 'waiting') {
          setProblem(null);
          setSaved(savedLocallyMessage());
          return;
        }
        try {
          if (result.state === 'refused') throw result.error;
          const next = result.data as Attempt;
          version.current = next.version;
          finished.current = next.status !== 'in_progress';
          setProblem(null);
          setSaved(next.status === 'in_progress' ? 'Progress saved.' : 'Finished: your result is recorded.');
          current.current = next;
          onChange.current?.(next);
        } catch (error) {
          if (isApiError(error) && (error.status === 409 || error.status === 422))
            setProblem(error.data?.message ?? error.message);
          handleAttemptUpdateFailure(error);
        }
      });
    };
    const start = async (launchData: ScormLaunch) => {
      // The previous SCO's last commits (sent as its frame closed) are saved before this one reads the attempt.
      await queue.current;
      if (cancelled) return;
      const created = await createRuntime(launchData, item, current.current, {
        commit,
        // Only the SCO on show may move the player (a SCO closed by moving on finishes after the move).
        finished: (n) => {
          if (!cancelled && keyRef.current === key && leaving.current !== key) navigate.current(n);
        },
      });
      if (cancelled) return created.dispose();
      runtime = created;
      const origin = launchData.package_origin ?? null;
      // This session's frame window, kept once seen: the SCO's last calls (LMSFinish in its unload handler) can
      // arrive after the player moved on, because a frame of another origin unloads in its own process.
      let own: Window | null = null;
      const frameWindow = () => (own ??= frameRef.current?.contentWindow ?? null);
      disconnect = connectScormFrame(frameWindow, origin, created.api);
      // An asset never talks to the runtime: opening it is doing it (recorded as completed by the server).
      if (
        item.scorm_type === 'asset' &&
        !itemOutcome(current.current, items[0]?.identifier ?? '', sco)?.status
      )
        commit({});
      const scoUrl = item.launch_url ? frameUrl(item.launch_url, apiOrigin()) : undefined;
      setFrameName(
        scormFrameName(
          window.location.origin,
          launchData.version,
          created.api,
          launchData.player_url ? scoUrl : undefined,
        ),
      );
      setReadyKey(key);
    };
    /**
     * Leaving the SCO without it finishing (the app's menu or breadcrumb, the tab or the app closed, the phone
     * locked) saves what it has set so far: SCOs often commit only when they finish, and a frame taken away or a
     * page closed may never get there. Sent with fetch keepalive, so it outlives the page. When the page is going
     * (hidden, closed) it goes at once, even past a commit under way (the commit order above keeps the newest);
     * inside the app it waits for that commit, and the next SCO's commits wait for it (the queue), so none of them
     * meets a version the other already moved on.
     */
    const saveOnLeave = (pageGoing: boolean) => {
      if (!runtime || finished.current) return;
      const cmi = leaveCommit(data.version, runtime.api);
      if (!cmi || JSON.stringify(cmi) === lastSent) return;
      lastSent = JSON.stringify(cmi);
      const ordered = order();
      // Kept in the attempt outbox too, under the same client id (issue 31 §2): if the keepalive send never
      // arrives (no signal as the phone locks), the outbox sends it later; if it did, the resend records nothing.
      const userId = authStore.get().user?.id;
      const clientId = crypto.randomUUID();
      const attemptId = current.current.id;
      const kept =
        userId === undefined
          ? Promise.resolve()
          : getOutbox()
              .enqueue({
                kind: 'attempt',
                user_id: userId,
                attempt_id: attemptId,
                version: version.current,
                body: { cmi, sco, commit: ordered },
                client_id: clientId,
              })
              .then(
                () => undefined,
                () => undefined,
              );
      const send = () =>
        patchAttemptOnLeave(attemptId, {
          version: version.current,
          cmi,
          sco,
          commit: ordered,
          client_id: clientId,
        }).then((next) => {
          if (!next) return;
          // Arrived: the outbox's copy is cleared by its (recorded-once) send.
          if (userId !== undefined) void kept.then(() => getOutbox().drain(userId, { force: true }));
          version.current = Math.max(version.current, next.version);
          current.current = next;
          onChange.current?.(next);
        });
      if (pageGoing) {
        const sent = send();
        queue.current = queue.current.then(() => sent);
      } else queue.current = queue.current.then(send);
    };
    const onHidden = () => {
      if (document.visibilityState === 'hidden') saveOnLeave(true);
    };
    const onPageHide = () => saveOnLeave(true);
    window.addEventListener('pagehide', onPageHide);
    document.addEventListener('visibilitychange', onHidden);
    start(data).catch(() => setProblem('The SCORM player could not start.'));
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onHidden);
      // Leaving the player (a route change inside the app) or this SCO's session.
      saveOnLeave(false);
      cancelled = true;
      // Still served for a moment: the closed SCO's finishing calls are saved through its own runtime and queue.
      const stop = disconnect;
      setTimeout(() => stop?.(), FINISH_GRACE_MS);
      runtime?.dispose();
    };
  }, [data, item, key, inProgress, ended, items]);

  const heading = title ?? data?.title ?? 'SCORM package';
  const firstId = items[0]?.identifier ?? '';
  const multi = items.length > 1;
  const done = items.filter((i) => itemOutcome(attempt, firstId, i.identifier)?.status).length;
  const previous = item ? neighbour(items, item.identifier, -1) : undefined;
  const next = item ? neighbour(items, item.identifier, 1) : undefined;
  const showFrame = Boolean(data && item?.launch_url && inProgress && !ended && readyKey === key);

  return (
    <section className="space-y-3" data-player="scorm" aria-label={heading}>
      <p className="font-medium text-slate-900">{heading}</p>
      {launch.isPending ? <Spinner label="Loading the package" /> : null}
      {launch.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {isApiError(launch.error) && launch.error.status === 404
            ? 'No SCORM package has been uploaded for this content yet.'
            : 'The SCORM package could not be loaded.'}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800">
          {problem}
        </p>
      ) : null}
      {!inProgress ? <p className="text-sm text-slate-700">This attempt is finished.</p> : null}
      <div className={cx(multi ? 'grid gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]' : '')}>
        {multi && data ? (
          <ScormContents
            items={data.items ?? []}
            currentId={currentId}
            done={done}
            total={items.length}
            badgeOf={(i) => stateOf(itemOutcome(attempt, firstId, i.identifier))}
            onOpen={open}
            disabled={!inProgress}
          />
        ) : null}
        <div className="min-w-0 space-y-3">
          {inProgress && item && ended ? (
            <div
              className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
              data-testid="scorm-ended"
            >
              <p className="text-sm text-slate-800">
                {multi ? `You have left “${item.title}”.` : 'You have left the package.'}{' '}
                {multi ? `${done} of ${items.length} parts are done.` : ''}
              </p>
              <div className="flex flex-wrap gap-3">
                <Button variant="secondary" onClick={() => open(item)}>
                  Open again
                </Button>
                {next ? <Button onClick={() => open(next)}>Next: {next.title}</Button> : null}
              </div>
            </div>
          ) : null}
          {showFrame && data && item?.launch_url ? (
            <iframe
              key={key}
              ref={frameRef}
              title={multi ? `${heading}: ${item.title}` : heading}
              name={frameName}
              src={frameUrl(data.player_url ?? item.launch_url, apiOrigin())}
              sandbox={packageSandbox(data.package_origin ?? null)}
              className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
              allow="fullscreen; autoplay"
            />
          ) : null}
          {inProgress && item && !ended ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              {multi ? (
                <Button variant="secondary" onClick={() => open(previous)} disabled={!previous}>
                  Previous
                </Button>
              ) : (
                <span />
              )}
              <Button variant="secondary" onClick={close}>
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
      <p className="sr-only" aria-live="polite">
        {saved}
      </p>
    </section>
  );
}

/**
 * The package's table of contents beside the frame (the online player's and the offline one's): every visible
 * item, a heading for an item without a launch URL, and a button with its state for the others.
 */
export function ScormContents({
  items,
  currentId,
  done,
  total,
  badgeOf,
  onOpen,
  disabled = false,
}: {
  items: ScormItemLaunch[];
  currentId: string | null | undefined;
  done: number;
  total: number;
  badgeOf: (item: ScormItemLaunch) => { tone: BadgeTone; label: string };
  onOpen: (item: ScormItemLaunch) => void;
  disabled?: boolean;
}) {
  return (
    <nav aria-label="Package contents" className="self-start rounded-lg border border-slate-200 bg-white p-2">
      <p className="flex items-center justify-between px-2 pb-2 text-sm font-semibold text-slate-900">
        Contents
        <span className="text-xs font-normal text-slate-600" data-testid="scorm-progress">
          {done} of {total} done
        </span>
      </p>
      <ul>
        {items
          .filter((i) => i.visible)
          .map((i) => {
            const indent = { paddingLeft: `${0.5 + i.depth}rem` };
            if (!i.launch_url)
              return (
                <li key={i.identifier} style={indent} className="pt-2 text-xs font-semibold text-slate-600">
                  {i.title}
                </li>
              );
            const state = badgeOf(i);
            const here = i.identifier === currentId;
            return (
              <li key={i.identifier}>
                <button
                  type="button"
                  style={indent}
                  disabled={disabled}
                  aria-current={here ? 'step' : undefined}
                  onClick={() => onOpen(i)}
                  className={cx(
                    'focus-ring flex w-full items-center justify-between gap-2 rounded-md py-1.5 pr-2 text-left text-sm',
                    here
                      ? 'bg-primary-100 font-semibold text-primary-900'
                      : 'text-slate-800 hover:bg-slate-100',
                  )}
                >
                  <span className="min-w-0 flex-1">{i.title}</span>
                  <Badge tone={state.tone}>{state.label}</Badge>
                </button>
              </li>
            );
          })}
      </ul>
    </nav>
  );
}

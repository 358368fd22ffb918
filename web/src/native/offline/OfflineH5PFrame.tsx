import type { SyncOfflineAttemptBody } from '@cc/contracts';
import { useEffect, useRef, useState } from 'react';
import { h5pOutcomeOf, type XapiStatement } from '../../learning/players/h5p-xapi';
import {
  h5pFrameName,
  listenToFrame,
  packageSandbox,
  readH5pMessage,
} from '../../learning/players/package-frame';
import { RUNTIME_FOLDER, readStoredText } from './files';
import type { StoredDownload } from './library';

export type OfflineH5pOutcome = NonNullable<SyncOfflineAttemptBody['h5p']>[number];

/** Statements kept per item in one offline attempt: the sync body allows 1000 in all (contracts/offline.ts). */
export const H5P_KEPT_PER_TOPIC = 20;

/** How much an outcome could count on the server (which keeps the best per topic): a pass first, then the score. */
const worth = (o: OfflineH5pOutcome) => (o.success === true ? 2 : 0) + (o.score_scaled ?? 0);

/**
 * Adds an item's outcome to the attempt's list. A learner retrying an item many times must not make the attempt too
 * big to sync (refused, stranded on the device): past H5P_KEPT_PER_TOPIC for a topic, its least worth outcome goes
 * (the oldest among equals), so the one the server would keep as the best is always sent.
 */
export function appendH5pOutcome(list: OfflineH5pOutcome[], outcome: OfflineH5pOutcome): OfflineH5pOutcome[] {
  const next = [...list, outcome];
  const mine = next.filter((o) => o.topic_id === outcome.topic_id);
  if (mine.length <= H5P_KEPT_PER_TOPIC) return next;
  const least = mine.reduce((low, o) => (worth(o) < worth(low) ? o : low));
  return next.filter((o) => o !== least);
}

/** The JSON files h5p-standalone fetches: the package's h5p.json, its content and each library's library.json. */
export const fetchedJson = (path: string) =>
  path === 'h5p.json' || path === 'content/content.json' || /^[^/]+\/library\.json$/.test(path);

const PLAYER_PAGE = 'packages/runtime/h5p.html';
const PLAYER_BUNDLE = 'packages/runtime/h5p-player/main.bundle.js';
const MAX_HEIGHT = 4000;

/**
 * Where a stored H5P item plays from on the device: the stored player page (h5p.html, which loads h5p-player/
 * beside it), the item's stored folder (h5p.json, content/, libraries) and the stored player files' folder.
 * Null when the copy lacks any of them (a browser keeps no package files: the item needs a connection there).
 */
export function offlineH5pLaunch(stored: StoredDownload, h5pId: number) {
  const pkg = stored.download.packages.find((p) => p.kind === 'h5p' && p.h5p_id === h5pId);
  const runtime = stored.files[RUNTIME_FOLDER] ?? {};
  const manifest = pkg ? stored.files[pkg.uuid]?.['h5p.json'] : undefined;
  const player = runtime[PLAYER_PAGE];
  const bundle = runtime[PLAYER_BUNDLE];
  if (!pkg || !manifest || !player || !bundle) return null;
  return {
    uuid: pkg.uuid,
    title: pkg.title,
    json: pkg.files.map((f) => f.path).filter(fetchedJson),
    base_url: manifest.slice(0, -'/h5p.json'.length),
    player_url: player,
    runtime: bundle.slice(0, -'/main.bundle.js'.length),
  };
}

/**
 * A saved H5P item played offline in the shell: the same player page (h5p-standalone, web/public/package-runtime/
 * h5p.html) from its stored copy, in the same opaque sandbox as online (never the app's origin), loaded through
 * Capacitor.convertFileSrc URLs. Its xAPI statements are read as the online player reads them (h5p-xapi.ts
 * h5pOutcomeOf: the item's own completed / answered outcome) and go to `onOutcome` with the statement, queued in the
 * offline attempt; the server judges them on sync like an online H5P result (pass mark, topic completion).
 */
export function OfflineH5PFrame({
  stored,
  topicId,
  h5p,
  onOutcome,
  onScored,
}: {
  stored: StoredDownload;
  topicId: number;
  h5p: { id: number; title: string };
  onOutcome: (outcome: OfflineH5pOutcome) => void;
  /** Whether the running item is a scored activity (as online: H5PPlayer's onScored); not called when unknown. */
  onScored?: (scored: boolean) => void;
}) {
  const launch = offlineH5pLaunch(stored, h5p.id);
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(0);
  const [problem, setProblem] = useState(false);
  const [kept, setKept] = useState(false);
  const [json, setJson] = useState<Record<string, string> | null>(null);
  const outcomeRef = useRef(onOutcome);
  outcomeRef.current = onOutcome;
  const scoredRef = useRef(onScored);
  scoredRef.current = onScored;
  const uuid = launch?.uuid;
  const userId = stored.download.user_id;
  const jsonPaths = launch?.json.join('\n') ?? '';

  // The package's JSON, read from the device and handed to the frame in its seed (readStoredText says why).
  useEffect(() => {
    if (!uuid) return;
    let cancelled = false;
    const paths = jsonPaths.split('\n').filter(Boolean);
    Promise.all(paths.map(async (p) => [p, await readStoredText(userId, uuid, p)] as const))
      .then((entries) => {
        if (!cancelled) setJson(Object.fromEntries(entries));
      })
      .catch(() => {
        if (!cancelled) setProblem(true);
      });
    return () => {
      cancelled = true;
    };
  }, [uuid, userId, jsonPaths]);

  useEffect(() => {
    if (!uuid) return;
    return listenToFrame(
      () => frameRef.current?.contentWindow,
      null,
      (raw) => {
        const message = readH5pMessage(raw);
        if (!message) return;
        if (message.type === 'xapi') {
          const statement = message.statement as XapiStatement;
          const outcome = h5pOutcomeOf(statement, uuid);
          if (!outcome) return;
          outcomeRef.current({
            topic_id: topicId,
            h5p_id: h5p.id,
            ...outcome,
            statement: statement as Record<string, unknown>,
          });
          setKept(true);
        } else if (message.type === 'scored') scoredRef.current?.(message.scored);
        else if (message.type === 'height') setHeight(Math.min(Math.max(message.height, 0), MAX_HEIGHT));
        else if (message.type === 'error') setProblem(true);
      },
    );
  }, [uuid, topicId, h5p.id]);

  if (!launch)
    return (
      <p className="mt-2 text-sm text-slate-600">
        The interactive item "{h5p.title}" needs a connection: open the course online to complete it.
      </p>
    );
  return (
    <section className="mt-3 space-y-2" data-player="h5p" aria-label={h5p.title}>
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          The interactive item could not be started.
        </p>
      ) : null}
      {json ? (
        <iframe
          ref={frameRef}
          title={h5p.title}
          name={h5pFrameName(window.location.origin, launch, h5p.title, { runtime: launch.runtime, json })}
          src={launch.player_url}
          sandbox={packageSandbox(null)}
          allow="fullscreen"
          className="h5p-host block w-full min-h-24 border-0"
          style={height ? { height: `${height}px` } : undefined}
        />
      ) : null}
      <p aria-live="polite" data-testid="h5p-result" className="text-sm text-slate-700">
        {kept ? 'Your result is saved on this device. It is marked when it reaches the server.' : ''}
      </p>
    </section>
  );
}

import type { Attempt, H5pResult } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../app/api';
import { apiOrigin } from '../../app/env';
import { Spinner } from '../../ui';
import { type H5pOutcome, h5pOutcomeOf, type XapiStatement } from './h5p-xapi';
import { fetchH5pLaunch } from './package-api';
import { frameUrl, h5pFrameName, listenToFrame, packageSandbox, readH5pMessage } from './package-frame';

/** The tallest the item's frame grows to (its page scrolls beyond that). */
const MAX_HEIGHT = 4000;

/**
 * The real H5P player: h5p-standalone 3.8.2 (H5P core + frame), vendored under web/public/h5p-player/ (see its
 * README: the npm package's preinstall script breaks npm installs). An H5P package's libraries are untrusted code
 * (issue 11 finding 1), so h5p-standalone does not run in the app page: it runs in a sandboxed frame, the page
 * web/public/package-runtime/h5p.html served at the launch data's player_url, in an origin that is not the app's.
 * The frame's name tells it the package (uuid and signed base_url) and this page's origin (package-frame.ts).
 *
 * Results: the frame posts every xAPI statement of H5P.externalDispatcher; only messages from this frame and the
 * origin the package runs in are read (package-frame.ts listenToFrame). The item's completed/answered outcome
 * (h5p-xapi.ts) goes to `onOutcome`, which records it on the attempt (PATCH /attempts/{id} with `h5p`). What the
 * learner reads is the verdict the server recorded (it judges a score without a verdict against the pass mark), never
 * a guess here.
 *
 * `onScored` tells the page whether the item is a scored activity (its H5P instance has a max score, H5P's question
 * contract, as the frame reports it), so the page asks for the activity rather than offering "Mark complete" on it.
 */
export interface H5PPlayerProps {
  attempt: Attempt;
  h5pId: number;
  title?: string;
  /** Records the item's outcome; resolves with the result the server keeps for it, or null when it was not saved. */
  onOutcome?: (outcome: H5pOutcome) => Promise<H5pResult | null>;
  /** Whether the item is a scored activity (true), has nothing to score (false); not called when unknown. */
  onScored?: (scored: boolean) => void;
}

type Recorded = {
  state: 'saving' | 'passed' | 'failed' | 'done' | 'error';
  score: number | null;
  passMark?: number | null;
};

export function recordedText(r: Recorded): string {
  const pct = r.score === null ? '' : ` (${Math.round(r.score * 100)}%)`;
  switch (r.state) {
    case 'saving':
      return 'Saving your result…';
    case 'passed':
      return `Your result has been recorded: passed${pct}.`;
    case 'failed': {
      const need = r.passMark == null ? '' : ` You need ${r.passMark}% to pass.`;
      return `Your result has been recorded: not passed${pct}.${need} You can try again.`;
    }
    case 'done':
      return `Your result has been recorded${pct}.`;
    case 'error':
      return 'Your result could not be saved.';
  }
}

export function H5PPlayer({ attempt, h5pId, title, onOutcome, onScored }: H5PPlayerProps) {
  const launch = useQuery({
    queryKey: ['learning', 'h5p-launch', attempt.id, h5pId],
    queryFn: () => fetchH5pLaunch(attempt.id, h5pId),
    retry: false,
  });
  const [problem, setProblem] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<Recorded | null>(null);
  const data = launch.data;
  // The listener lives as long as the rendered item; these refs give it the latest props.
  const outcomeRef = useRef(onOutcome);
  outcomeRef.current = onOutcome;
  const scoredRef = useRef(onScored);
  scoredRef.current = onScored;
  const openRef = useRef(attempt.status === 'in_progress');
  openRef.current = attempt.status === 'in_progress';

  const frameRef = useRef<HTMLIFrameElement>(null);
  const [height, setHeight] = useState(0);

  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    setProblem(null);
    setRecorded(null);
    setHeight(0);
    const contentId = data.uuid;
    const onStatement = (statement: XapiStatement) => {
      const outcome = h5pOutcomeOf(statement, contentId);
      const record = outcomeRef.current;
      if (!outcome || !record || !openRef.current || cancelled) return;
      setRecorded({ state: 'saving', score: outcome.score_scaled ?? null });
      void record(outcome).then((kept) => {
        if (cancelled) return;
        if (!kept) return setRecorded({ state: 'error', score: null });
        setRecorded({
          state: kept.success === true ? 'passed' : kept.success === false ? 'failed' : 'done',
          score: kept.score_scaled,
          passMark: kept.pass_mark ?? null,
        });
      });
    };
    const stop = listenToFrame(
      () => frameRef.current?.contentWindow,
      data.package_origin ?? null,
      (raw) => {
        const message = readH5pMessage(raw);
        if (!message || cancelled) return;
        if (message.type === 'xapi') onStatement(message.statement as XapiStatement);
        else if (message.type === 'scored') scoredRef.current?.(message.scored);
        else if (message.type === 'height') setHeight(Math.min(Math.max(message.height, 0), MAX_HEIGHT));
        else setProblem('The interactive item could not be started.');
      },
    );
    return () => {
      cancelled = true;
      stop();
    };
  }, [data]);

  const heading = title ?? data?.title ?? 'Interactive item';
  return (
    <section className="space-y-2" data-player="h5p" aria-label={heading}>
      <p className="font-medium text-slate-900">{heading}</p>
      {launch.isPending ? <Spinner label="Loading the interactive item" /> : null}
      {launch.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {isApiError(launch.error) && launch.error.status === 404
            ? 'This interactive item has no H5P package yet.'
            : 'The interactive item could not be loaded.'}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {data ? (
        <iframe
          key={data.base_url}
          ref={frameRef}
          title={title ?? data.title ?? 'Interactive item'}
          name={h5pFrameName(
            window.location.origin,
            // Absolute: the player page may be on the API's host while this page is the shell's (issue 19).
            { uuid: data.uuid, base_url: frameUrl(data.base_url, apiOrigin()) },
            title ?? data.title ?? 'Interactive item',
          )}
          src={frameUrl(data.player_url, apiOrigin())}
          sandbox={packageSandbox(data.package_origin ?? null)}
          allow="fullscreen"
          className="h5p-host block w-full min-h-24 border-0"
          style={height ? { height: `${height}px` } : undefined}
        />
      ) : null}
      <p
        aria-live="polite"
        data-testid="h5p-result"
        className={
          recorded?.state === 'error' || recorded?.state === 'failed'
            ? 'text-sm text-amber-800'
            : 'text-sm text-slate-700'
        }
      >
        {recorded ? recordedText(recorded) : ''}
      </p>
    </section>
  );
}

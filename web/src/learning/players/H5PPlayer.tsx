import type { Attempt, H5pResult } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../app/api';
import { apiOrigin } from '../../app/env';
import { Spinner } from '../../ui';
import { type H5pOutcome, h5pOutcomeOf, type XapiStatement } from './h5p-xapi';
import { fetchH5pLaunch } from './package-api';

/**
 * The real H5P player: h5p-standalone 3.8.2 (H5P core + frame), vendored under web/public/h5p-player/ (see its
 * README: the npm package's preinstall script breaks npm installs) and loaded once from /h5p-player/. It renders
 * the extracted .h5p served by the API at /packages/{uuid}/ (h5p.json, content/content.json, the libraries).
 *
 * Results: the player listens to H5P.externalDispatcher 'xAPI' (H5P core relays the statements of content running
 * in its iframe to the page's dispatcher) and hands the item's completed/answered outcome (h5p-xapi.ts) to
 * `onOutcome`, which records it on the attempt (PATCH /attempts/{id} with `h5p`). What the learner reads is the
 * verdict the server recorded (it judges a score without a verdict against the pass mark), never a guess here.
 *
 * `onScored` tells the page whether the item is a scored activity (its H5P instance has a max score, H5P's question
 * contract), so the page asks for the activity rather than offering "Mark complete" on it.
 */
const PLAYER_BASE = '/h5p-player';

interface H5PStandaloneGlobal {
  H5P: new (el: HTMLElement, options: Record<string, unknown>) => Promise<unknown>;
}
interface XapiEvent {
  data?: { statement?: XapiStatement };
}
interface H5PInstance {
  getMaxScore?: () => number;
}
interface H5PDispatcher {
  on: (type: string, listener: (event: XapiEvent) => void) => void;
  off: (type: string, listener: (event: XapiEvent) => void) => void;
}
declare global {
  interface Window {
    H5PStandalone?: H5PStandaloneGlobal;
    H5P?: { externalDispatcher?: H5PDispatcher };
  }
}

let loading: Promise<H5PStandaloneGlobal> | null = null;

/** Adds /h5p-player/main.bundle.js once; resolves with window.H5PStandalone. */
export function loadH5PStandalone(doc: Document = document): Promise<H5PStandaloneGlobal> {
  if (window.H5PStandalone) return Promise.resolve(window.H5PStandalone);
  loading ??= new Promise<H5PStandaloneGlobal>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = `${PLAYER_BASE}/main.bundle.js`;
    script.async = true;
    script.onload = () =>
      window.H5PStandalone ? resolve(window.H5PStandalone) : reject(new Error('H5P player missing'));
    script.onerror = () => reject(new Error('H5P player could not be loaded'));
    doc.head.appendChild(script);
  }).catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
}

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

/** The item's H5P instance inside h5p-standalone's frame, once H5P core has created it (null if unreachable). */
async function findInstance(el: HTMLElement, isCancelled: () => boolean): Promise<H5PInstance | null> {
  for (let i = 0; i < 50 && !isCancelled(); i++) {
    try {
      const frame = el.querySelector('iframe');
      const h5p = (frame?.contentWindow as (Window & { H5P?: { instances?: H5PInstance[] } }) | null)?.H5P;
      const instance = h5p?.instances?.[0];
      if (instance) return instance;
    } catch {
      return null; // a frame of another origin: the page cannot look inside
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

export function H5PPlayer({ attempt, h5pId, title, onOutcome, onScored }: H5PPlayerProps) {
  const launch = useQuery({
    queryKey: ['learning', 'h5p-launch', attempt.id, h5pId],
    queryFn: () => fetchH5pLaunch(attempt.id, h5pId),
    retry: false,
  });
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<Recorded | null>(null);
  const data = launch.data;
  // The listener lives as long as the rendered item; these refs give it the latest props.
  const outcomeRef = useRef(onOutcome);
  outcomeRef.current = onOutcome;
  const scoredRef = useRef(onScored);
  scoredRef.current = onScored;
  const titleRef = useRef('');
  titleRef.current = title ?? data?.title ?? 'Interactive item';
  const openRef = useRef(attempt.status === 'in_progress');
  openRef.current = attempt.status === 'in_progress';

  useEffect(() => {
    const el = host.current;
    if (!data || !el) return;
    let cancelled = false;
    el.replaceChildren();
    setProblem(null);
    setRecorded(null);
    const contentId = data.uuid;
    const onXapi = (event: XapiEvent) => {
      const outcome = h5pOutcomeOf(event.data?.statement, contentId);
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
    let dispatcher: H5PDispatcher | undefined;
    loadH5PStandalone()
      .then(async (standalone) => {
        if (cancelled) return;
        await new standalone.H5P(el, {
          id: data.uuid,
          h5pJsonPath: `${apiOrigin()}${data.base_url}`,
          frameJs: `${PLAYER_BASE}/frame.bundle.js`,
          frameCss: `${PLAYER_BASE}/styles/h5p.css`,
          frame: false,
          copyright: false,
          export: false,
          embed: false,
          fullScreen: true,
        });
        if (cancelled) return;
        // h5p-standalone leaves its iframe unnamed; screen readers need a frame title (WCAG 4.1.2).
        for (const frame of el.querySelectorAll('iframe')) frame.title ||= titleRef.current;
        dispatcher = window.H5P?.externalDispatcher;
        dispatcher?.on('xAPI', onXapi);
        const instance = await findInstance(el, () => cancelled);
        if (instance && !cancelled) {
          let max = 0;
          try {
            max = typeof instance.getMaxScore === 'function' ? Number(instance.getMaxScore()) : 0;
          } catch {
            max = 0;
          }
          scoredRef.current?.(Number.isFinite(max) && max > 0);
        }
      })
      .catch(() => {
        if (!cancelled) setProblem('The interactive item could not be started.');
      });
    return () => {
      cancelled = true;
      dispatcher?.off('xAPI', onXapi);
      el.replaceChildren();
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
      <div ref={host} className="h5p-host min-h-24" />
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

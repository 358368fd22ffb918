import type { Attempt } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../app/api';
import { apiOrigin } from '../../app/env';
import { Spinner } from '../../ui';
import { fetchH5pLaunch } from './package-api';

/**
 * The real H5P player: h5p-standalone 3.8.2 (H5P core + frame), vendored under web/public/h5p-player/ (see its
 * README: the npm package's preinstall script breaks npm installs) and loaded once from /h5p-player/. It renders
 * the extracted .h5p served by the API at /packages/{uuid}/ (h5p.json, content/content.json, the libraries).
 */
const PLAYER_BASE = '/h5p-player';

interface H5PStandaloneGlobal {
  H5P: new (el: HTMLElement, options: Record<string, unknown>) => Promise<unknown>;
}
declare global {
  interface Window {
    H5PStandalone?: H5PStandaloneGlobal;
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
}

export function H5PPlayer({ attempt, h5pId, title }: H5PPlayerProps) {
  const launch = useQuery({
    queryKey: ['learning', 'h5p-launch', attempt.id, h5pId],
    queryFn: () => fetchH5pLaunch(attempt.id, h5pId),
    retry: false,
  });
  const host = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const data = launch.data;

  useEffect(() => {
    const el = host.current;
    if (!data || !el) return;
    let cancelled = false;
    el.replaceChildren();
    setProblem(null);
    loadH5PStandalone()
      .then((standalone) => {
        if (cancelled) return;
        return new standalone.H5P(el, {
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
      })
      .catch(() => {
        if (!cancelled) setProblem('The interactive item could not be started.');
      });
    return () => {
      cancelled = true;
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
    </section>
  );
}

import type { Attempt } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../app/api';
import { Spinner } from '../../ui';
import { handleAttemptUpdateFailure, patchAttempt } from '../api';
import { fetchScormLaunch } from './package-api';
import { createRuntime, type Runtime } from './scorm-runtime';

export interface ScormPlayerProps {
  attempt: Attempt;
  title?: string;
  onAttemptChange?: (attempt: Attempt) => void;
}

/**
 * Plays the SCORM package of a SCORM attempt (issue 4 item 2): the launch file in a same-origin iframe at
 * /packages/{uuid}/…, the scorm-again runtime on window.API / window.API_1484_11 (scorm-runtime.ts), and every
 * commit saved as PATCH /attempts/{id} { version, cmi } in order, one at a time. On 409 the server's message is
 * shown (spec 1 §4); other failures go through the learner pages' handleAttemptUpdateFailure.
 */
export function ScormPlayer({ attempt, title, onAttemptChange }: ScormPlayerProps) {
  const launch = useQuery({
    queryKey: ['learning', 'scorm-launch', attempt.id],
    queryFn: () => fetchScormLaunch(attempt.id),
    retry: false,
  });
  const [ready, setReady] = useState(false);
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

  const data = launch.data;
  useEffect(() => {
    if (!data || !inProgress) return;
    let runtime: Runtime | null = null;
    let cancelled = false;
    const commit = (cmi: Record<string, unknown>) => {
      queue.current = queue.current.then(async () => {
        // Once a commit finished the attempt (passed, completed, failed), later ones (LMSFinish) have nothing to add.
        if (finished.current) return;
        try {
          const next = await patchAttempt(current.current.id, { version: version.current, cmi });
          version.current = next.version;
          finished.current = next.status !== 'in_progress';
          setProblem(null);
          setSaved(next.status === 'in_progress' ? 'Progress saved.' : 'Finished: your result is recorded.');
          onChange.current?.(next);
        } catch (error) {
          if (isApiError(error) && (error.status === 409 || error.status === 422))
            setProblem(error.data?.message ?? error.message);
          handleAttemptUpdateFailure(error);
        }
      });
    };
    createRuntime(data, current.current, commit).then(
      (created) => {
        if (cancelled) return created.dispose();
        runtime = created;
        setReady(true);
      },
      () => setProblem('The SCORM player could not start.'),
    );
    return () => {
      cancelled = true;
      runtime?.dispose();
      setReady(false);
    };
  }, [data, inProgress]);

  const heading = title ?? data?.title ?? 'SCORM package';
  return (
    <section className="space-y-2" data-player="scorm" aria-label={heading}>
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
      {data && ready && inProgress ? (
        <iframe
          title={heading}
          src={data.launch_url}
          className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
          allow="fullscreen; autoplay"
        />
      ) : null}
      <p className="sr-only" aria-live="polite">
        {saved}
      </p>
    </section>
  );
}

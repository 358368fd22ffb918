import type { Attempt } from '@cc/contracts';
import { useEffect, useRef, useState } from 'react';
import { apiOrigin } from '../../app/env';
import type { ScormItemLaunch, ScormLaunch } from '../../learning/players/package-api';
import {
  connectScormFrame,
  frameUrl,
  packageSandbox,
  scormFrameName,
} from '../../learning/players/package-frame';
import { createRuntime, launchableItems } from '../../learning/players/scorm-runtime';
import type { StoredDownload } from './library';

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
    // The stored file's URL: the same signed URL in the browser (answered from Cache Storage by the service
    // worker when offline), the shell's file URL on a device.
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
 * A saved SCORM package played offline: the same runtime (scorm-again) and postMessage bridge as online, the SCO in
 * the same opaque sandbox (never the app's origin). Its commits go to `onCommit` (the offline attempt) instead of
 * PATCH /attempts/{id}. Plays the first SCO; a multi-SCO package's others need the online player.
 */
export function OfflineScormFrame({
  stored,
  onCommit,
}: {
  stored: StoredDownload;
  onCommit: (sco: string, cmi: Record<string, unknown>) => void;
}) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const [name, setName] = useState<string | null>(null);
  const launch = offlineLaunch(stored);
  const item = launch ? launchableItems(launch)[0] : undefined;
  const commitRef = useRef(onCommit);
  commitRef.current = onCommit;

  // biome-ignore lint/correctness/useExhaustiveDependencies: one runtime per stored copy and item
  useEffect(() => {
    if (!launch || !item) return;
    let disconnect = () => {};
    let cancelled = false;
    // The runtime only reads id, user_id and the saved CMI of an attempt: an offline attempt starts empty.
    const attempt = { id: 0, user_id: stored.download.user_id, cmi: {} } as unknown as Attempt;
    void createRuntime(launch, item, attempt, {
      commit: (cmi) => commitRef.current(item.identifier, cmi),
    }).then((runtime) => {
      if (cancelled) return;
      disconnect = connectScormFrame(() => frameRef.current?.contentWindow, null, runtime.api);
      setName(scormFrameName(window.location.origin, launch.version, runtime.api));
    });
    return () => {
      cancelled = true;
      disconnect();
    };
  }, [stored.download.download_id, item?.identifier]);

  if (!launch || !item?.launch_url)
    return <p className="text-sm text-slate-700">This package has nothing to play.</p>;
  return name ? (
    <iframe
      ref={frameRef}
      title={launch.title}
      name={name}
      src={frameUrl(item.launch_url, apiOrigin())}
      sandbox={packageSandbox(null)}
      className="h-[70vh] w-full rounded-lg border border-slate-200 bg-white"
    />
  ) : null;
}

import { OfflineMessages } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { isApiError } from '../../app/api';
import { useAuth } from '../../app/auth';
import { notifyError, notifySuccess } from '../../app/notifications';
import { useStore } from '../../app/store';
import { Button, ButtonLink, type ButtonSize } from '../../ui';
import { bulkStore } from './required';
import { downloadForOffline, getLibrary, savedStore } from './state';

export { canTakeOffline } from './required';

/**
 * "Download for offline" beside a content the learner can start (mobile build); "Available offline" once saved, on
 * every page that shows it (savedStore), and "Saving…" while "Download my required training" saves this one.
 */
export function OfflineDownloadButton({
  contentId,
  title,
  size = 'sm',
  className,
}: {
  contentId: number;
  title: string;
  size?: ButtonSize;
  className?: string;
}) {
  const { user } = useAuth();
  const version = useStore(savedStore, (s) => s.version);
  const inBulk = useStore(bulkStore, (s) => s.current?.contentId === contentId);
  const [saved, setSaved] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the change signal (a copy saved or removed elsewhere)
  useEffect(() => {
    if (!user) return;
    let live = true;
    void getLibrary()
      .getDownload(user.id, contentId)
      .then((d) => live && setSaved(Boolean(d)));
    return () => {
      live = false;
    };
  }, [user, contentId, version]);

  if (!user) return null;
  if (saved)
    return (
      <ButtonLink
        size={size}
        variant="secondary"
        className={className}
        to={`/offline/${contentId}`}
        aria-label={`Take ${title} offline`}
      >
        {OfflineMessages.savedForOffline}
      </ButtonLink>
    );

  async function save() {
    if (!user) return;
    setProgress('Saving…');
    try {
      await downloadForOffline(user.id, contentId, undefined, (done, total) =>
        setProgress(`Saving ${done} of ${total}…`),
      );
      setSaved(true);
      // The offline pages' code, fetched now (and kept by the app's service worker) so they open without a network.
      void import('./pages');
      notifySuccess(OfflineMessages.downloaded);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, OfflineMessages.downloadFailed);
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null || inBulk;
  return (
    <Button
      size={size}
      variant="secondary"
      className={className}
      loading={busy}
      onClick={() => void save()}
      aria-label={`Download ${title} for offline`}
    >
      {progress ?? (inBulk ? 'Saving…' : OfflineMessages.saveForOffline)}
    </Button>
  );
}

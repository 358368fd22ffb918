import { OfflineMessages } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { isApiError } from '../../app/api';
import { useAuth } from '../../app/auth';
import { notifyError, notifySuccess } from '../../app/notifications';
import { Button, ButtonLink } from '../../ui';
import { packagesPlayOffline } from './files';
import { downloadForOffline, getLibrary } from './state';

/** "Download for offline" beside a content the learner can start (mobile build); "Available offline" once saved. */
/** Whether this device can take a content of this type offline: e-learning anywhere, packages in the shell. */
export function canTakeOffline(type: string): boolean {
  return type === 'elearning' || (type === 'scorm' && packagesPlayOffline());
}

export function OfflineDownloadButton({ contentId, title }: { contentId: number; title: string }) {
  const { user } = useAuth();
  const [saved, setSaved] = useState(false);
  const [progress, setProgress] = useState<string | null>(null);

  useEffect(() => {
    if (!user) return;
    void getLibrary()
      .getDownload(user.id, contentId)
      .then((d) => setSaved(Boolean(d)));
  }, [user, contentId]);

  if (!user) return null;
  if (saved)
    return (
      <ButtonLink
        size="sm"
        variant="secondary"
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

  return (
    <Button
      size="sm"
      variant="secondary"
      loading={progress !== null}
      onClick={() => void save()}
      aria-label={`Download ${title} for offline`}
    >
      {progress ?? OfflineMessages.saveForOffline}
    </Button>
  );
}

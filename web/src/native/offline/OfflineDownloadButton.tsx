import { OfflineMessages } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { isApiError } from '../../app/api';
import { useAuth } from '../../app/auth';
import { notifyError, notifySuccess } from '../../app/notifications';
import { Button, ButtonLink } from '../../ui';
import { downloadForOffline, getLibrary } from './state';

/** "Download for offline" beside a content the learner can start (mobile build); "Available offline" once saved. */
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

import { OfflineMessages } from '@cc/contracts';
import { Button } from '../../ui';
import { useOfflineSync, waitingText } from './state';

/**
 * "N attempts waiting to sync" / "Synced", with "Sync now". Shown on the offline page and on the learner's start
 * page in the mobile build, so a learner back in signal sees their offline work go through.
 */
export function OfflineSyncBanner({ hideWhenEmpty = false }: { hideWhenEmpty?: boolean }) {
  const sync = useOfflineSync();
  if (sync.userId === null) return null;
  if (hideWhenEmpty && sync.waiting === 0 && sync.online) return null;
  const failed = sync.last && !sync.last.complete && sync.waiting > 0;
  return (
    <section
      aria-label="Offline sync"
      data-testid="offline-sync"
      className="mb-4 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-4 py-3"
    >
      <div className="min-w-0 text-sm">
        <p className="font-medium text-slate-900" role="status">
          {waitingText(sync.waiting)}
        </p>
        {!sync.online ? <p className="text-slate-600">{OfflineMessages.offlineNow}</p> : null}
        {sync.online && failed ? <p className="text-slate-600">{OfflineMessages.syncFailed}</p> : null}
        {sync.refused ? (
          <p className="text-danger-700">
            {sync.refused} could not be accepted by the server. They stay on this device; ask your manager for
            help.
          </p>
        ) : null}
      </div>
      {sync.waiting > 0 ? (
        <Button
          size="sm"
          variant="secondary"
          loading={sync.syncing}
          disabled={!sync.online}
          onClick={() => void sync.syncNow()}
        >
          Sync now
        </Button>
      ) : null}
    </section>
  );
}

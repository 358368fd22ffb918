import { formatDateTime, OfflineMessages, type OfflineRule } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { useAuth } from '../../app/auth';
import { notifyError, notifySuccess } from '../../app/notifications';
import { useStore } from '../../app/store';
import { Badge, Button, ButtonLink, Card, ConfirmDialog, EmptyState, PageHeader, Spinner } from '../../ui';
import type { QueuedAttempt, StoredDownload, SyncedAttempt } from './library';
import { OfflineSyncBanner } from './OfflineSyncBanner';
import { RefusedSteps } from './RefusedSteps';
import { getLibrary, removeFromDevice, syncStore } from './state';

/** What the server decided, in the learner's words (server/src/offline/rules.ts). */
export const RULE_TEXT: Record<OfflineRule, string> = {
  offline_incomplete: 'Saved. It was not finished, so it does not count yet.',
  offline_failed: 'Saved. Not passed this time.',
  failed_result: 'Saved. Not passed this time.',
  only_pass: 'Passed. Your record is updated.',
  later_pass_counts: 'Passed. This is now your latest completion.',
  earlier_pass_kept: 'Passed. You had already passed later online, so that completion stays on your record.',
};

/**
 * /offline (mobile build): the courses saved on this device for the signed-in user, what waits to sync and what
 * was synced. Everything here is read from the device, so the page works without a network.
 */
export default function OfflinePage() {
  const { user } = useAuth();
  const sync = useStore(syncStore);
  const [downloads, setDownloads] = useState<StoredDownload[] | null>(null);
  const [queue, setQueue] = useState<QueuedAttempt[]>([]);
  const [synced, setSynced] = useState<SyncedAttempt[]>([]);
  const [removing, setRemoving] = useState<StoredDownload | null>(null);
  const [changed, setChanged] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read the device when a sync changes the counts
  useEffect(() => {
    if (!user) return;
    const library = getLibrary();
    void Promise.all([
      library.listDownloads(user.id),
      library.listQueue(user.id),
      library.listSynced(user.id),
    ]).then(([d, q, s]) => {
      setDownloads(d);
      setQueue(q);
      setSynced(s.sort((a, b) => b.outcome.synced_at.localeCompare(a.outcome.synced_at)));
    });
  }, [user, sync.waiting, sync.last, changed]);

  async function remove(stored: StoredDownload) {
    if (!user) return;
    try {
      await removeFromDevice(user.id, stored.download.content.id);
    } catch (error) {
      notifyError(null, OfflineMessages.removeFailed);
      throw error;
    }
    notifySuccess(OfflineMessages.removed);
    setChanged((n) => n + 1);
  }

  return (
    <>
      <PageHeader
        title="Offline learning"
        description="Courses saved on this device. Take them without a connection; your answers are sent when you are back online."
      />
      <OfflineSyncBanner />
      <Card title="Saved on this device" data-testid="offline-downloads">
        {downloads === null ? (
          <Spinner label="Loading saved courses" />
        ) : downloads.length === 0 ? (
          <EmptyState
            title="Nothing saved yet"
            description={OfflineMessages.noDownloads}
            action={<ButtonLink to="/">Find a course</ButtonLink>}
          />
        ) : (
          <ul className="divide-y divide-slate-100">
            {downloads.map((d) => (
              <li
                key={d.download.content.id}
                className="flex flex-wrap items-center justify-between gap-3 py-3"
              >
                <div className="min-w-0">
                  <p className="font-medium text-slate-900 wrap-anywhere">{d.download.content.title}</p>
                  <p className="text-sm text-slate-600 wrap-anywhere">
                    {d.download.course.title} · saved {formatDateTime(d.saved_at)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <ButtonLink
                    size="sm"
                    to={`/offline/${d.download.content.id}`}
                    aria-label={`Take ${d.download.content.title}`}
                  >
                    Take
                  </ButtonLink>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => setRemoving(d)}
                    aria-label={`Remove ${d.download.content.title} from this device`}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Card>
      {queue.length ? (
        <Card title="Waiting to sync" data-testid="offline-queue" className="mt-4">
          <ul className="divide-y divide-slate-100">
            {queue.map((q) => (
              <li key={q.body.client_uuid} className="py-3 text-sm">
                <p className="font-medium text-slate-900 wrap-anywhere">{q.content_title}</p>
                <p className="text-slate-600">
                  Taken {formatDateTime(q.body.completed_at ?? q.body.started_at)}{' '}
                  {q.refused ? (
                    <Badge tone="danger">Not accepted: {q.refused.message}</Badge>
                  ) : (
                    <Badge tone="warning">Waiting</Badge>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {synced.length ? (
        <Card title="Synced" data-testid="offline-synced" className="mt-4">
          <ul className="divide-y divide-slate-100">
            {synced.map((s) => (
              <li key={s.outcome.client_uuid} className="py-3 text-sm">
                <p className="font-medium text-slate-900 wrap-anywhere">{s.content_title}</p>
                <p className="text-slate-600">
                  {RULE_TEXT[s.outcome.rule]}
                  {s.outcome.score !== null ? ` Score ${s.outcome.score}%.` : ''}
                </p>
                <RefusedSteps outcome={s.outcome} downloads={downloads ?? []} />
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title={OfflineMessages.removeTitle.replace(':title', removing?.download.content.title ?? '')}
        message={OfflineMessages.removeConfirm}
        confirmLabel="Remove"
        onConfirm={() => (removing ? remove(removing) : undefined)}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

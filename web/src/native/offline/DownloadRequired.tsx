import { type LearnerEvent, OfflineMessages } from '@cc/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useAuth } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { useStore } from '../../app/store';
import { Button } from '../../ui';
import { bulkStore, downloadInOrder, requiredForOffline } from './required';
import { getLibrary, savedStore } from './state';

/** "Take the 3 courses you must do without a signal: save them on this phone, overdue first." */
function helpText(left: number, someSaved: boolean): string {
  const the = someSaved ? 'the other' : 'the';
  return left === 1
    ? `Take ${the} course you must do without a signal: save it on this phone.`
    : `Take ${the} ${left} courses you must do without a signal: save them on this phone, overdue first.`;
}

/**
 * "Download my required training" at the top of the to-do in the mobile app (issue 31 §1): saves on the phone the
 * mandatory and required courses still to do, overdue first, one after the other with their progress; once they
 * are all there it says so.
 */
export function DownloadRequiredTraining({ events }: { events: readonly LearnerEvent[] }) {
  const { user } = useAuth();
  const items = useMemo(() => requiredForOffline(events), [events]);
  const version = useStore(savedStore, (s) => s.version);
  const bulk = useStore(bulkStore);
  const [saved, setSaved] = useState<ReadonlySet<number> | null>(null);
  const userId = user?.id ?? null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: version is the change signal (a copy saved or removed)
  useEffect(() => {
    if (userId === null) return;
    let live = true;
    getLibrary()
      .listDownloads(userId)
      .then(
        (list) => live && setSaved(new Set(list.map((d) => d.download.content.id))),
        () => live && setSaved(new Set()),
      );
    return () => {
      live = false;
    };
  }, [userId, version]);

  if (userId === null || saved === null || items.length === 0) return null;
  const left = items.filter((i) => !saved.has(i.contentId));

  if (!bulk.running && left.length === 0)
    return (
      <div className="border-b border-slate-100 px-5 py-3" data-testid="download-required">
        <p className="text-sm text-success-800">{OfflineMessages.requiredSaved}</p>
      </div>
    );

  const percent = bulk.total
    ? Math.round(
        ((bulk.done + (bulk.files.total ? bulk.files.done / bulk.files.total : 0)) / bulk.total) * 100,
      )
    : 0;
  return (
    <div className="space-y-3 border-b border-slate-100 px-5 py-4" data-testid="download-required">
      {bulk.running ? null : (
        <p className="text-sm text-slate-700" id="download-required-help">
          {helpText(left.length, left.length < items.length)}
        </p>
      )}
      <Button
        variant="secondary"
        className="w-full sm:w-auto"
        loading={bulk.running}
        aria-describedby={bulk.running ? undefined : 'download-required-help'}
        onClick={() =>
          void downloadInOrder(userId, items).catch(() => notifyError(null, OfflineMessages.downloadFailed))
        }
      >
        {OfflineMessages.saveRequired}
      </Button>
      {/* Always there, so a screen reader hears each course as it is saved. */}
      <div className="space-y-1" aria-live="polite">
        {bulk.running ? (
          <>
            <p className="text-sm text-slate-700 wrap-anywhere">
              {bulk.current
                ? `Saving ${Math.min(bulk.done + 1, bulk.total)} of ${bulk.total}: ${bulk.current.title}…`
                : 'Getting ready…'}
            </p>
            <div
              role="progressbar"
              aria-label="Downloading your required training"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 w-full overflow-hidden rounded bg-slate-200"
            >
              <div className="h-full bg-primary-600" style={{ width: `${Math.max(4, percent)}%` }} />
            </div>
          </>
        ) : null}
      </div>
    </div>
  );
}

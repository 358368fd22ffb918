import { formatDateTime, OfflineMessages } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../app/api';
import { isMobile } from '../../app/env';
import { networkStore, retryNetwork } from '../../app/network';
import { useStore } from '../../app/store';
import { Button, ButtonLink, Card, EmptyState, Spinner } from '../../ui';
import type { StoredDownload } from './library';
import { OfflineSyncBanner } from './OfflineSyncBanner';
import { getLibrary, syncStore } from './state';

/** How often the start page asks the server again while the browser says online but no answer came. */
export const PROBE_MS = 15_000;

/**
 * The start page without a connection (issue 31 §3): says so once, in words, and shows what the device holds (the
 * courses saved for offline use, read from IndexedDB, and what waits to sync) instead of the server's lists failing
 * one by one with "contact support". The web app has no offline copies: it says it is offline and no more.
 *
 * It turns back into the online page as soon as the signal returns: the browser's `online` event (network.ts), or,
 * when the browser said online all along and the server did not answer (a signal too weak, a captive network), the
 * first answer to a quiet call made every PROBE_MS (the api client marks the server reachable on any answer).
 */
export function OfflineStart({ userId }: { userId: number }) {
  const online = useStore(networkStore, (s) => s.online);
  const waiting = useStore(syncStore, (s) => s.waiting);
  const mobile = isMobile();
  const [downloads, setDownloads] = useState<StoredDownload[] | null>(null);

  useEffect(() => {
    if (!online) return;
    const timer = setInterval(() => {
      // Only its answer matters (any answer, even 401, is the server answering): nothing to show, nothing to say.
      // A call that hangs is given up before the next (an abort says nothing about the network).
      api
        .get('/auth/user', {
          skipAuthHandling: true,
          actingAs: false,
          signal: AbortSignal.timeout(PROBE_MS - 1000),
        })
        .catch(() => undefined);
    }, PROBE_MS);
    return () => clearInterval(timer);
  }, [online]);

  useEffect(() => {
    if (!mobile) return;
    let live = true;
    getLibrary()
      .listDownloads(userId)
      .then(
        (d) => live && setDownloads(d),
        () => live && setDownloads([]),
      );
    return () => {
      live = false;
    };
  }, [mobile, userId]);

  return (
    <>
      <section
        role="status"
        aria-labelledby="offline-notice-title"
        data-testid="offline-notice"
        className="rounded-xl border border-warning-500 bg-warning-50 px-5 py-4"
      >
        <h2 id="offline-notice-title" className="text-base font-semibold text-slate-900">
          {mobile ? OfflineMessages.offlineStartMobile : OfflineMessages.offlineStartWeb}
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          {mobile
            ? 'What you do offline is kept on this phone and sent when you are back online. Your other courses and your training history come back with the signal.'
            : 'Your courses and your training history come back when you are online.'}
        </p>
        {/* The browser says it is online but the server did not answer: the learner may ask again. */}
        {online ? (
          <Button size="sm" variant="secondary" className="mt-3" onClick={retryNetwork}>
            Try again
          </Button>
        ) : null}
      </section>
      {mobile && waiting > 0 ? <OfflineSyncBanner /> : null}
      {mobile ? (
        <Card title="Saved on this phone" data-testid="offline-start-downloads">
          {downloads === null ? (
            <Spinner label="Loading saved courses" />
          ) : downloads.length === 0 ? (
            <EmptyState
              title="Nothing saved on this phone"
              description={`When you are online, use “${OfflineMessages.saveRequired}” or “${OfflineMessages.saveForOffline}” on a course to take it without a signal.`}
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
                  <ButtonLink
                    size="sm"
                    to={`/offline/${d.download.content.id}`}
                    aria-label={`Take ${d.download.content.title} offline`}
                  >
                    Take
                  </ButtonLink>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-3 text-sm">
            <Link className="text-primary-700 underline" to="/offline">
              All offline learning
            </Link>
          </p>
        </Card>
      ) : null}
    </>
  );
}

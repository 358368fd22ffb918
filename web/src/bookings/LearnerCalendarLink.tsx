import { BookingsMessages, formatDate, formatDateTime } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Button, Card, ConfirmDialog, Spinner } from '../ui';
import { createCalendarFeed, learnerBookingKeys, revokeCalendarFeed, useCalendarFeed } from './learner-api';

/**
 * The personal calendar feed (GET/POST/DELETE /users/{me}/calendar-feed): a private address a calendar app
 * subscribes to, listing every session the learner holds a place on. The address is a secret: the server shows it
 * once, when made, so it is shown here with a copy button until the page is left. Making a new one stops the old;
 * revoking stops it (both asked first).
 */
export function LearnerCalendarLink({ me }: { me: number }) {
  const qc = useQueryClient();
  const feed = useCalendarFeed(me);
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<'renew' | 'revoke' | null>(null);
  const [copied, setCopied] = useState(false);
  const active = feed.data?.active ?? false;

  const create = async () => {
    setBusy(true);
    try {
      const res = await createCalendarFeed(me);
      setShownUrl(res.data.data.url);
      setCopied(false);
      qc.setQueryData(learnerBookingKeys.feed(me), { ...res.data.data, url: null });
      notifySuccess(res.data.message ?? BookingsMessages.calendarFeedCreated);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The calendar link could not be made.');
      throw error;
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    try {
      const res = await revokeCalendarFeed(me);
      setShownUrl(null);
      await qc.invalidateQueries({ queryKey: learnerBookingKeys.feed(me) });
      notifySuccess(res.data?.message ?? BookingsMessages.calendarFeedRevoked);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The calendar link could not be revoked.');
      throw error;
    }
  };
  const copy = async () => {
    if (!shownUrl) return;
    try {
      await navigator.clipboard.writeText(shownUrl);
      setCopied(true);
    } catch {
      // No clipboard (an insecure page or a refusal): the text is selected for a manual copy.
      const input = document.getElementById('calendar-feed-url') as HTMLInputElement | null;
      input?.select();
    }
  };

  return (
    <Card title="Calendar link" data-testid="calendar-link">
      {feed.isPending ? (
        <Spinner label="Loading your calendar link" />
      ) : feed.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          Your calendar link could not be loaded. Please reload the page.
        </p>
      ) : (
        <div className="space-y-3 text-sm text-slate-700">
          <p>
            Subscribe to your bookings from your phone or computer calendar (Outlook, Google, Apple): your
            sessions appear there and stay up to date. The link is private: anyone who has it can see your
            sessions.
          </p>
          {shownUrl ? (
            <div className="space-y-2 rounded-lg bg-warning-100/50 p-3 ring-1 ring-warning-500/30">
              <label htmlFor="calendar-feed-url" className="block font-medium text-slate-900">
                Your calendar link (shown only now: copy it)
              </label>
              <div className="flex flex-col gap-2 sm:flex-row">
                <input
                  id="calendar-feed-url"
                  readOnly
                  value={shownUrl}
                  onFocus={(e) => e.currentTarget.select()}
                  className="block h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 font-mono text-xs text-slate-900"
                />
                <Button variant="secondary" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              </div>
              <p aria-live="polite" className="text-xs text-slate-600">
                {copied
                  ? 'The link is on your clipboard: paste it into your calendar’s “subscribe” box.'
                  : ''}
              </p>
            </div>
          ) : null}
          {active ? (
            <p data-testid="calendar-link-state">
              Your calendar link is on.{' '}
              {[
                feed.data?.created_at ? `Made ${formatDate(feed.data.created_at)}` : null,
                feed.data?.last_used_at
                  ? `last read by your calendar ${formatDateTime(feed.data.last_used_at)}`
                  : 'not read by a calendar yet',
              ]
                .filter(Boolean)
                .join(', ')}
              .
            </p>
          ) : (
            <p data-testid="calendar-link-state">You have no calendar link.</p>
          )}
          <div className="flex flex-wrap gap-2">
            {active ? (
              <>
                <Button variant="secondary" size="sm" onClick={() => setConfirm('renew')}>
                  Make a new link
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-danger-700"
                  onClick={() => setConfirm('revoke')}
                >
                  Revoke the link
                </Button>
              </>
            ) : (
              <Button size="sm" onClick={() => create().catch(() => undefined)} loading={busy}>
                Create a calendar link
              </Button>
            )}
          </div>
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'renew' ? 'Make a new calendar link?' : 'Revoke your calendar link?'}
        message={
          confirm === 'renew'
            ? 'Your current link stops working: calendars subscribed to it stop updating until you give them the new one.'
            : 'Calendars subscribed to it stop updating. You can make a new link at any time.'
        }
        confirmLabel={confirm === 'renew' ? 'Make a new link' : 'Revoke the link'}
        tone={confirm === 'renew' ? 'primary' : 'danger'}
        onConfirm={confirm === 'renew' ? create : revoke}
        onClose={() => setConfirm(null)}
      />
    </Card>
  );
}

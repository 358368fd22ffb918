import { type AccountEvent, ActivityPerm, AUTH_EVENT_LABELS, formatDateTime } from '@cc/contracts';
import { useState } from 'react';
import { useAuth, usePermission } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import { Badge, type BadgeTone, PagedListCard } from '../ui';
import { deviceLabel, useAccountActivity } from './api';

const TONES: Record<AccountEvent['event'], BadgeTone> = {
  login: 'success',
  logout: 'neutral',
  failed_login: 'danger',
  password_reset: 'warning',
  password_changed: 'primary',
};

/**
 * Account activity (permission 91) on `/users/{uuid}`: the user's sign-ins, sign-outs, failed sign-ins and password
 * resets and changes, newest first, with address and device. Shown to holders of 91 and to the user themself.
 */
export function AccountActivityCard({ userId }: { userId: number }) {
  const { user: me } = useAuth();
  const allowed = usePermission([ActivityPerm.accountActivity]);
  if (!allowed && me?.id !== userId) return null;
  return <AccountActivity userId={userId} />;
}

function AccountActivity({ userId }: { userId: number }) {
  const [page, setPage] = useState(1);
  const events = useAccountActivity(userId, page);
  return (
    <PagedListCard
      title="Account activity"
      testId="account-activity"
      listLabel="Account activity"
      loadingLabel="Loading account activity"
      pagesLabel="Account activity pages"
      isLoading={events.isLoading}
      errorTitle="Account activity could not be loaded"
      errorText={events.isError ? errorEnvelope(events.error, 'Please try again.').message : undefined}
      empty={{
        title: 'No account activity yet',
        description: 'Sign-ins and password changes will appear here.',
      }}
      page={events.data}
      onPageChange={setPage}
      itemClassName="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-center sm:justify-between"
      renderItem={(e) => (
        <>
          <span className="flex flex-wrap items-center gap-2">
            <Badge tone={TONES[e.event]}>{AUTH_EVENT_LABELS[e.event]}</Badge>
            <span className="text-sm text-slate-700">{deviceLabel(e.user_agent, e.via)}</span>
          </span>
          <span className="flex flex-wrap gap-x-3 text-sm text-slate-600">
            <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>
            {e.ip ? <span>Address {e.ip}</span> : null}
          </span>
        </>
      )}
    />
  );
}

import { type AccountEvent, ActivityPerm, AUTH_EVENT_LABELS, formatDateTime } from '@cc/contracts';
import { useState } from 'react';
import { useAuth, usePermission } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import { Badge, type BadgeTone, Card, CardPagination, EmptyState } from '../ui';
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
    <Card title="Account activity" padded={false} data-testid="account-activity">
      {events.isError ? (
        <EmptyState
          title="Account activity could not be loaded"
          description={errorEnvelope(events.error, 'Please try again.').message}
        />
      ) : events.isLoading ? (
        <div className="space-y-3 p-5" role="status" aria-busy="true" aria-label="Loading account activity">
          {[0, 1, 2].map((i) => (
            <div key={i} className="cc-skeleton h-4 w-2/3 rounded bg-slate-200" />
          ))}
        </div>
      ) : !events.data?.data.length ? (
        <EmptyState
          title="No account activity yet"
          description="Sign-ins and password changes will appear here."
        />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Account activity">
          {events.data.data.map((e) => (
            <li
              key={e.id}
              className="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="flex flex-wrap items-center gap-2">
                <Badge tone={TONES[e.event]}>{AUTH_EVENT_LABELS[e.event]}</Badge>
                <span className="text-sm text-slate-700">{deviceLabel(e.user_agent, e.via)}</span>
              </span>
              <span className="flex flex-wrap gap-x-3 text-sm text-slate-600">
                <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time>
                {e.ip ? <span>Address {e.ip}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      <CardPagination meta={events.data?.meta} onPageChange={setPage} label="Account activity pages" />
    </Card>
  );
}

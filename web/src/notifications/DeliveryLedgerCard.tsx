import {
  DashboardsPerm,
  describeDelivery,
  formatDate,
  formatDateTime,
  type NotificationDelivery,
  ResultsPerm,
} from '@cc/contracts';
import { useState } from 'react';
import { useAuth, usePermissionChecker } from '../app/auth';
import { errorEnvelope } from '../entities/shared';
import { Badge, type BadgeTone, PagedListCard } from '../ui';
import { useDeliveryLedger } from './api';

const TONES: Record<NotificationDelivery['state'], BadgeTone> = {
  pending: 'warning',
  held: 'warning',
  sent: 'success',
  failed: 'danger',
  read: 'primary',
  dismissed: 'neutral',
  skipped: 'neutral',
};
const STATE_LABEL: Record<NotificationDelivery['state'], string> = {
  pending: 'Queued',
  held: 'Held',
  sent: 'Sent',
  failed: 'Failed',
  read: 'Read',
  dismissed: 'Dismissed',
  skipped: 'Not needed',
};
const CHANNEL_LABEL: Record<NotificationDelivery['channel'], string> = {
  in_app: 'In the app',
  email: 'E-mail',
  push: 'Push notification',
};

/** "HH:MM" (UK time) of an instant: held e-mails wait for the end of the night, so the time is what matters. */
const timeOf = (iso: string) => formatDateTime(iso).split(' ').at(-1) ?? iso;

function occasionText(d: NotificationDelivery): string {
  if (d.kind === 'booking') return `Booking: ${d.title}`;
  if (d.kind === 'message') return d.title;
  if (d.kind === 'care_certificate') return d.title;
  if (d.kind === 'document_reminder') return `${d.title} (reminder from a manager)`;
  if (d.kind === 'behind_reminder') return `${d.title} (reminder from a manager)`;
  if (d.kind === 'due_reminder') return `${d.title} (${d.occasion} days before the due date)`;
  if (d.kind === 'exemption_ended')
    return `${d.course?.title ?? 'A course'}: exemption ended${d.expires_at ? ` (${formatDate(d.expires_at)})` : ''}`;
  if (d.kind === 'manager_digest') return `Weekly digest (${d.occasion.replace('-W', ', week ')})`;
  const course = d.course?.title ?? 'A course';
  const when = d.occasion === '0' ? 'expiry day' : `${d.occasion} days before expiry`;
  return `${course}: ${when}${d.expires_at ? ` (expires ${formatDate(d.expires_at)})` : ''}`;
}

/**
 * "Never received" for managers (issue 14): the user's delivery ledger on `/users/{uuid}`, each reminder by channel
 * with its state in plain words (Sent, Held until 07:00, Failed after 5 attempts and why, Read). Shown to the user
 * themself and to holders of the manager dashboard (105) or search training records (24), as the server allows.
 */
export function DeliveryLedgerCard({ userRef, userId }: { userRef: string; userId: number }) {
  const { user: me } = useAuth();
  const can = usePermissionChecker();
  const allowed =
    me?.id === userId || can([DashboardsPerm.managerDashboard, ResultsPerm.searchTrainingRecords], 'any');
  if (!allowed) return null;
  return <Ledger userRef={userRef} />;
}

function Ledger({ userRef }: { userRef: string }) {
  const [page, setPage] = useState(1);
  const ledger = useDeliveryLedger(userRef, page);
  return (
    <PagedListCard
      title="Reminders and notifications"
      testId="delivery-ledger"
      listLabel="Reminders and notifications"
      loadingLabel="Loading reminders"
      pagesLabel="Reminder pages"
      isLoading={ledger.isLoading}
      errorTitle="The reminders could not be loaded"
      errorText={ledger.isError ? errorEnvelope(ledger.error, 'Please try again.').message : undefined}
      empty={{
        title: 'No reminders yet',
        description: 'Reminders before training expires, and whether they arrived, will appear here.',
      }}
      page={ledger.data}
      onPageChange={setPage}
      itemClassName="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-start sm:justify-between"
      renderItem={(d) => (
        <>
          <span className="min-w-0">
            <span className="block text-sm font-medium text-slate-900">{occasionText(d)}</span>
            <span className="block text-sm text-slate-600">
              {CHANNEL_LABEL[d.channel]} · {describeDelivery(d, timeOf)}
            </span>
          </span>
          <span className="flex shrink-0 flex-wrap items-center gap-2 text-sm text-slate-600">
            <Badge tone={TONES[d.state]}>{STATE_LABEL[d.state]}</Badge>
            <time dateTime={d.sent_at ?? d.created_at}>{formatDateTime(d.sent_at ?? d.created_at)}</time>
          </span>
        </>
      )}
    />
  );
}

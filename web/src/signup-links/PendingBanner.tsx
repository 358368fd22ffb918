import { formatDate } from '@cc/contracts';
import { useAuth } from '../app/auth';
import { useMySignup } from './api';

/**
 * On the learner's dashboards while their account, made through a sign-up link, waits for a manager (issue 18). They
 * can already learn; the banner says what happens next. Nothing shows for anyone else.
 */
export function PendingApprovalBanner() {
  const { user } = useAuth();
  const mine = useMySignup(Boolean(user));
  if (mine.data?.status !== 'pending') return null;
  return (
    <div
      role="status"
      data-testid="pending-approval-banner"
      className="mb-4 rounded-lg border border-warning-500/40 bg-warning-100 px-4 py-3 text-sm text-warning-800"
    >
      <p className="font-semibold">Your account is waiting for approval</p>
      <p>
        A manager at {mine.data.organisation} will approve your account. You can start your training now:
        everything you complete counts. Your start date is {formatDate(mine.data.start_date)}.
      </p>
    </div>
  );
}

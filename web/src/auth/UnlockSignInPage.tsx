import { useAuth } from '../app/auth';
import { ButtonLink } from '../ui';
import { AuthHeading, ErrorSummary, StatusMessage, splitErrors } from './shared';

/**
 * /unlock-sign-in/{token} (issue 29 §8): the route's loader has already followed the mailed link (POST
 * /api/auth/unlock-sign-in), which lets this browser sign in while failed sign-ins elsewhere hold the account's new
 * devices back; this shows the outcome and the way to the sign-in page.
 */
export default function UnlockSignInPage() {
  const { message, error } = useAuth();
  const errors = splitErrors(error, []);
  return (
    <div className="space-y-6">
      <AuthHeading title="Sign in from this browser" />
      {message ? <StatusMessage>{message}</StatusMessage> : null}
      <ErrorSummary lines={errors.summary} />
      <ButtonLink to="/login" className="w-full">
        Go to sign in
      </ButtonLink>
    </div>
  );
}

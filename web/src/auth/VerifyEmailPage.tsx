import { useState } from 'react';
import { sendVerificationEmail, useAuth } from '../app/auth';
import { Button, ButtonLink } from '../ui';
import { AuthHeading, ErrorSummary, StatusMessage, splitErrors } from './shared';

/**
 * /verify-email/{token}: the route's loader has already called POST /api/auth/verify-email (spec 1 §2
 * "triggers email verification with the token before entry"); this shows the outcome. A signed-in user whose
 * link failed can ask for a new one (POST /api/auth/{uuid}/verification-send).
 */
export default function VerifyEmailPage() {
  const { message, error, user, loading } = useAuth();
  const [resent, setResent] = useState(false);
  const errors = splitErrors(error, []);
  const canResend = Boolean(user && !user.emailVerified && (error || resent));
  return (
    <div className="space-y-6">
      <AuthHeading title="E-mail verification" />
      {message ? <StatusMessage>{message}</StatusMessage> : null}
      <ErrorSummary lines={errors.summary} />
      {canResend ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-600">
            We can send a new verification link to{' '}
            <span className="font-medium break-all">{user?.email}</span>.
          </p>
          <Button
            variant="secondary"
            loading={loading}
            onClick={async () => setResent((await sendVerificationEmail()) || resent)}
          >
            Send a new link
          </Button>
        </div>
      ) : null}
      <ButtonLink to={user ? '/' : '/login'} className="w-full">
        {user ? 'Continue to the app' : 'Go to sign in'}
      </ButtonLink>
    </div>
  );
}

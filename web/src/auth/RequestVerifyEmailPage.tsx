import { useEffect } from 'react';
import { clearAuthFeedback, sendVerificationEmail, useAuth } from '../app/auth';
import { Button, ButtonLink, Card } from '../ui';
import { ErrorSummary, StatusMessage, splitErrors } from './shared';

/**
 * /request/verify-email (spec 1 §2, external layout, auth required): why the address must be verified, and a
 * button for a new link (POST /api/auth/{uuid}/verification-send); the server's answer is shown.
 */
export default function RequestVerifyEmailPage() {
  const { user, loading, message, error } = useAuth();

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  if (!user) return null;
  const errors = splitErrors(error, []);
  return (
    <Card>
      <div className="space-y-5 py-1">
        <div className="space-y-2">
          <h1 className="text-xl font-semibold text-slate-900">Verify your e-mail address</h1>
          {user.emailVerified ? (
            <p className="text-sm text-slate-600">
              Your address <span className="font-medium break-all text-slate-800">{user.email}</span> is
              verified. There is nothing more to do.
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-600">
                We need to confirm that{' '}
                <span className="font-medium break-all text-slate-800">{user.email}</span> is your address, so
                that password resets and important notices reach you.
              </p>
              <p className="text-sm text-slate-600">
                Open the link in the e-mail we sent you. If you cannot find it, we can send a new one; a new
                link replaces the earlier ones.
              </p>
            </>
          )}
        </div>
        {message ? <StatusMessage>{message}</StatusMessage> : null}
        <ErrorSummary lines={errors.summary} />
        <div className="flex flex-col gap-3 sm:flex-row">
          {user.emailVerified ? null : (
            <Button loading={loading} onClick={() => void sendVerificationEmail()}>
              Send a new link
            </Button>
          )}
          <ButtonLink to="/" variant="secondary">
            Back to the start page
          </ButtonLink>
        </div>
      </div>
    </Card>
  );
}

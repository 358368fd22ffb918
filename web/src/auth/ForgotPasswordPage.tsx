import { type FormEvent, useEffect, useState } from 'react';
import { clearAuthFeedback, forgotPassword, useAuth } from '../app/auth';
import { Button, TextField } from '../ui';
import { AuthHeading, ErrorSummary, StatusMessage, splitErrors, TextLink } from './shared';

/**
 * /forgot-password (spec 1 §2, §4): the loader has logged out any signed-in user. The server answers the same
 * neutral message whether or not the address has an account; that message is what we show.
 */
export default function ForgotPasswordPage() {
  const { loading, error, message } = useAuth();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSent(await forgotPassword(email.trim()));
  };

  const errors = splitErrors(error, ['email']);
  return (
    <div className="space-y-6">
      <AuthHeading title="Forgotten your password?">
        <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      </AuthHeading>
      {sent && message ? (
        <div className="space-y-4">
          <StatusMessage>{message}</StatusMessage>
          <p className="text-sm text-slate-600">
            The link works once and for a limited time. Check your spam folder if it does not arrive in a few
            minutes.
          </p>
          <Button variant="secondary" onClick={() => setSent(false)}>
            Use a different address
          </Button>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          <ErrorSummary lines={errors.summary} />
          <TextField
            label="E-mail address"
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.fields.email}
          />
          <Button type="submit" className="w-full" loading={loading}>
            Send the reset link
          </Button>
        </form>
      )}
      <p className="text-center text-sm text-slate-600">
        Remembered it? <TextLink to="/login">Back to sign in</TextLink>
      </p>
    </div>
  );
}

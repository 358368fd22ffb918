import { type FormEvent, useEffect, useId, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { clearAuthFeedback, resetPassword, useAuth } from '../app/auth';
import { Button, ButtonLink, TextField } from '../ui';
import {
  AuthHeading,
  ErrorSummary,
  PASSWORD_RULE_HINT,
  StatusMessage,
  splitErrors,
  TextLink,
} from './shared';

/**
 * /reset-password/{token}?email=… (spec 1 §2, §4): the loader has logged out any signed-in user. A 422 lists
 * every failing password rule, one per line (spec 1 §4, §5); a dead link offers to request a new one.
 */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const { loading, error, message } = useAuth();
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [done, setDone] = useState(false);
  const summaryId = useId();

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await resetPassword({
      token,
      email: email.trim(),
      password,
      password_confirmation: confirmation,
    });
    if (ok) setDone(true);
    else setConfirmation('');
  };

  if (done) {
    return (
      <div className="space-y-6">
        <AuthHeading title="Password changed" />
        <StatusMessage>{message ?? 'Your password has been reset.'}</StatusMessage>
        <p className="text-sm text-slate-600">You can now sign in with your new password.</p>
        <ButtonLink to="/login" className="w-full">
          Go to sign in
        </ButtonLink>
      </div>
    );
  }

  const errors = splitErrors(error, ['email', 'password_confirmation']);
  const badLink = errors.keys.includes('token');
  const passwordInvalid = errors.passwordRules.length > 0;
  return (
    <div className="space-y-6">
      <AuthHeading title="Choose a new password">
        <p>Enter your e-mail address and a new password. Your organisation's password rules apply.</p>
      </AuthHeading>
      <form className="space-y-4" onSubmit={submit} noValidate>
        <ErrorSummary
          id={summaryId}
          lines={errors.summary}
          title={passwordInvalid ? 'Your new password does not meet these rules:' : undefined}
        >
          {badLink ? <TextLink to="/forgot-password">Request a new reset link</TextLink> : null}
        </ErrorSummary>
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
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint={PASSWORD_RULE_HINT}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={passwordInvalid || undefined}
          aria-describedby={passwordInvalid ? summaryId : undefined}
        />
        <TextField
          label="Confirm the new password"
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={errors.fields.password_confirmation}
        />
        <Button type="submit" className="w-full" loading={loading}>
          Set the new password
        </Button>
      </form>
      <p className="text-center text-sm text-slate-600">
        <TextLink to="/login">Back to sign in</TextLink>
      </p>
    </div>
  );
}

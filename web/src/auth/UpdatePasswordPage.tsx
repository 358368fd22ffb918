import { type FormEvent, useEffect, useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { authStore, clearAuthFeedback, logout, updatePassword, useAuth } from '../app/auth';
import { safeRedirect } from '../app/navigation';
import { addNotification } from '../app/notifications';
import { Button, ButtonLink, TextField } from '../ui';
import { AuthHeading, ErrorSummary, PASSWORD_RULE_HINT, StatusMessage, splitErrors } from './shared';

export const PASSWORD_MUST_CHANGE = 'Your password has expired or must be changed before you can continue.';

/**
 * /update-password (auth required). While password_change_required is true the guard keeps the user here and
 * the API refuses everything else, so the page says why and offers a way out (sign out). On success the user
 * goes on to where they were heading (?redirect=), else to the start page.
 */
export default function UpdatePasswordPage() {
  const { loading, error, user } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form, setForm] = useState({ current_password: '', password: '', password_confirmation: '' });
  const summaryId = useId();
  const forced = Boolean(user?.password_change_required);

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await updatePassword(form)) {
      addNotification({
        type: 'success',
        message: authStore.get().message ?? 'Your password has been updated.',
      });
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } else {
      setForm((f) => ({ ...f, password_confirmation: '' }));
    }
  };

  const errors = splitErrors(error, ['current_password', 'password_confirmation']);
  const passwordInvalid = errors.passwordRules.length > 0;
  return (
    <div className="space-y-6">
      <AuthHeading title="Change your password">
        {user ? (
          <p>
            Signed in as <span className="font-medium break-all text-slate-800">{user.email}</span>
          </p>
        ) : null}
      </AuthHeading>
      {forced ? (
        <StatusMessage tone="warning">
          <p className="font-semibold">{PASSWORD_MUST_CHANGE}</p>
          <p className="mt-1">Choose a new password to carry on using the app.</p>
        </StatusMessage>
      ) : null}
      <form className="space-y-4" onSubmit={submit} noValidate>
        <ErrorSummary
          id={summaryId}
          lines={errors.summary}
          title={passwordInvalid ? 'Your new password does not meet these rules:' : undefined}
        />
        <TextField
          label="Current password"
          type="password"
          name="current_password"
          autoComplete="current-password"
          required
          value={form.current_password}
          onChange={set('current_password')}
          error={errors.fields.current_password}
        />
        <TextField
          label="New password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint={`${PASSWORD_RULE_HINT} It must differ from your current password; your organisation may ask for more.`}
          value={form.password}
          onChange={set('password')}
          aria-invalid={passwordInvalid || undefined}
          aria-describedby={passwordInvalid ? summaryId : undefined}
        />
        <TextField
          label="Confirm the new password"
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={form.password_confirmation}
          onChange={set('password_confirmation')}
          error={errors.fields.password_confirmation}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          {forced ? (
            <Button variant="secondary" onClick={() => void logout({ redirect: '/login' })}>
              Sign out
            </Button>
          ) : (
            <ButtonLink to={safeRedirect(params.get('redirect'))} variant="secondary">
              Cancel
            </ButtonLink>
          )}
          <Button type="submit" loading={loading}>
            Change password
          </Button>
        </div>
      </form>
    </div>
  );
}

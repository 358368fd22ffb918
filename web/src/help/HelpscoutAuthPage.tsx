import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authStore, clearAuthFeedback, login, logout, useAuth } from '../app/auth';
import { safeRedirect } from '../app/navigation';
import { Button, FormError, TextField } from '../ui';

/**
 * /helpscout-auth (spec 1 §2 help-desk layout, no auth): a support agent signs in inside the help-desk tool's frame
 * with the normal session, then goes on to ?redirect= (the customer view). Support agents are super admins (the
 * catalogue has no support permission); anyone else is told so and signed out again.
 */
export default function HelpscoutAuthPage() {
  const { user, loading, error } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [refused, setRefused] = useState(false);
  const next = safeRedirect(params.get('redirect') ?? '/helpscout-app');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setRefused(false);
    clearAuthFeedback();
    if (!(await login({ email: email.trim(), password }))) return;
    // Read after login: the store holds the user who just signed in.
    if (!authStore.get().user?.super_admin) {
      setRefused(true);
      await logout({ redirect: false });
      return;
    }
    navigate(next, { replace: true });
  };

  if (user?.super_admin)
    return (
      <div className="mx-auto max-w-sm space-y-3">
        <h1 className="text-lg font-semibold text-slate-900">Help desk</h1>
        <p className="text-sm text-slate-700">You are signed in as {user.name}.</p>
        <Link
          to={next}
          className="focus-ring inline-block rounded text-sm font-medium text-primary-800 underline"
        >
          Continue to the customer view
        </Link>
      </div>
    );

  const fieldErrors = error?.errors ?? {};
  return (
    <div className="mx-auto max-w-sm">
      <h1 className="text-lg font-semibold text-slate-900">Help desk sign-in</h1>
      <p className="mt-1 text-sm text-slate-600">
        Sign in with your support account to see the customer beside the conversation.
      </p>
      <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
        <FormError
          error={
            refused
              ? { message: 'Only support agents can use the help desk view. You have been signed out again.' }
              : error
                ? { message: error.message }
                : null
          }
        />
        <TextField
          label="E-mail address"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldErrors.email}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
        />
        <Button type="submit" loading={loading} className="w-full">
          Sign in
        </Button>
      </form>
    </div>
  );
}

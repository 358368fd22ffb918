import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { clearAuthFeedback, login, useAuth } from '../app/auth';
import { safeRedirect } from '../app/navigation';
import { RedirectIfAuthenticated } from '../layouts/guards';
import { afterPasswordSignIn } from '../native/tablet/session';
import { SignInNotice, TabletLogin } from '../native/tablet/TabletLogin';
import { Button, FormError, TextField } from '../ui';

/** /login (spec 1 §2): a logged-in user goes to /. */
export default function LoginPage() {
  return (
    <RedirectIfAuthenticated>
      <SignInNotice />
      <TabletLogin passwordForm={(email) => <LoginForm key={email ?? ''} initialEmail={email} />} />
    </RedirectIfAuthenticated>
  );
}

/**
 * Web session or, in mobile mode, a bearer token (spec 1 §4); then back to ?redirect=. A shared tablet then asks
 * the person to join it (web/src/native/tablet/).
 */
function LoginForm({ initialEmail }: { initialEmail: string | null }) {
  const { loading, error } = useAuth();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [email, setEmail] = useState(initialEmail ?? '');
  const [password, setPassword] = useState('');

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await login({ email: email.trim(), password })) {
      await afterPasswordSignIn();
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    }
  };

  const fieldErrors = error?.errors ?? {};
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Sign in</h1>
      <p className="mt-1 text-sm text-slate-600">Use the e-mail address and password of your account.</p>
      <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
        <FormError error={error ? { message: error.message } : null} />
        <TextField
          label="E-mail address"
          type="email"
          name="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fieldErrors.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
        />
        <div className="flex items-center justify-end">
          <Link
            to="/forgot-password"
            className="focus-ring rounded text-sm font-medium text-primary-700 hover:text-primary-900 hover:underline"
          >
            Forgotten your password?
          </Link>
        </div>
        <Button type="submit" className="w-full" loading={loading}>
          Sign in
        </Button>
      </form>
    </div>
  );
}

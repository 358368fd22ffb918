import {
  formatDate,
  type PasswordRequirements,
  type PublicSignupLink,
  SIGNUP_CONFIRM_PARAM,
  SignupLinkMessages,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../app/api';
import { setUser } from '../app/auth';
import { loadWhitelabel, useWhitelabel } from '../app/whitelabel';
import { AuthHeading, ErrorSummary, StatusMessage, TextLink } from '../auth/shared';
import { Button, Card, Spinner, TextField } from '../ui';
import { confirmSignup, openLink, signUp } from './api';

/** The organisation's rules as a checklist that ticks while the new starter types (the server checks them again). */
export function passwordChecks(r: PasswordRequirements, password: string) {
  return [
    { label: `At least ${r.min_length} characters`, ok: [...password].length >= r.min_length },
    ...(r.require_uppercase ? [{ label: 'An upper case letter', ok: /\p{Lu}/u.test(password) }] : []),
    ...(r.require_lowercase ? [{ label: 'A lower case letter', ok: /\p{Ll}/u.test(password) }] : []),
    ...(r.require_number ? [{ label: 'A number', ok: /\p{N}/u.test(password) }] : []),
    ...(r.require_symbol ? [{ label: 'A symbol', ok: /[^\p{L}\p{N}]/u.test(password) }] : []),
  ];
}

function Checklist({
  requirements,
  password,
  id,
}: {
  requirements: PasswordRequirements;
  password: string;
  id: string;
}) {
  return (
    <div id={id} className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm">
      <p className="font-medium text-slate-800">Your password needs:</p>
      <ul className="mt-1 space-y-1" aria-live="polite">
        {passwordChecks(requirements, password).map((c) => (
          <li key={c.label} className={c.ok ? 'text-success-800' : 'text-slate-700'}>
            <span aria-hidden="true">{c.ok ? '✓' : '○'}</span> {c.label}
            <span className="sr-only">{c.ok ? ' (done)' : ' (not yet)'}</span>
          </li>
        ))}
        <li className="text-slate-600">Not a password found in data breaches</li>
      </ul>
    </div>
  );
}

function DeadLink() {
  return (
    <Card className="mx-auto mt-10 max-w-lg" data-testid="signup-invalid">
      <AuthHeading title="This link does not work" />
      <p className="mt-3 text-slate-700">{SignupLinkMessages.invalidLink}</p>
      <p className="mt-3 text-sm text-slate-600">
        Already have an account? <TextLink to="/login">Sign in</TextLink>
      </p>
    </Card>
  );
}

/**
 * /signUpOnMonday?token=… (spec 1 §2, no login; issue 18): a new starter fills in their account for the home the link
 * was made for, with its job role and start date, and is asked to check their e-mail (issue 29 §5: the same answer
 * whether or not the address has an account). The link mailed to them comes back here as ?confirm=…: the account is
 * made, and they land on their learner dashboard, signed in and waiting for a manager's approval. A link that does
 * not work shows one message, whatever the reason.
 */
export default function SignUpPage() {
  const [params] = useSearchParams();
  const confirm = params.get(SIGNUP_CONFIRM_PARAM);
  if (confirm !== null) return <ConfirmSignUp token={confirm} />;
  return <SignUpWithLink token={params.get('token') ?? ''} />;
}

function ConfirmSignUp({ token }: { token: string }) {
  const navigate = useNavigate();
  const [dead, setDead] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  // One call per page, even when React runs the effect twice (a confirm link works once).
  const call = useRef<ReturnType<typeof confirmSignup> | null>(null);
  useEffect(() => {
    let live = true;
    call.current ??= confirmSignup(token);
    call.current
      .then((res) => {
        if (!live) return;
        setUser(res.data.user);
        navigate('/learner-dashboard', { replace: true });
      })
      .catch((error) => {
        if (!live) return;
        if (isApiError(error) && (error.status === 404 || error.status === 422)) setDead(true);
        else
          setFailed(
            isApiError(error) && error.data?.message
              ? error.data.message
              : 'Something went wrong. Please open the link again.',
          );
      });
    return () => {
      live = false;
    };
  }, [token, navigate]);
  if (dead) return <DeadLink />;
  if (failed)
    return (
      <Card className="mx-auto mt-10 max-w-lg">
        <AuthHeading title="Your account could not be created" />
        <div className="mt-3">
          <ErrorSummary lines={[failed]} />
        </div>
      </Card>
    );
  return (
    <div className="flex justify-center py-16">
      <Spinner label="Creating your account" />
    </div>
  );
}

function SignUpWithLink({ token }: { token: string }) {
  const link = useQuery({
    queryKey: ['signup-links', 'open', token],
    enabled: token !== '',
    retry: false,
    queryFn: () => openLink(token),
  });
  const slug = link.data?.organisation.slug;
  useEffect(() => {
    if (slug) void loadWhitelabel({ slug });
  }, [slug]);

  if (!token || link.isError) return <DeadLink />;
  if (!link.data)
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Opening your sign-up link" />
      </div>
    );
  return <SignUpForm token={token} link={link.data} />;
}

function SignUpForm({ token, link }: { token: string; link: PublicSignupLink }) {
  const wl = useWhitelabel();
  const [form, setForm] = useState({ name: '', email: '', password: '', password_confirmation: '' });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [summary, setSummary] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [checkEmail, setCheckEmail] = useState<string | null>(null);
  const [dead, setDead] = useState(false);
  const rulesId = useId();
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setSummary([]);
    try {
      const res = await signUp({ token, ...form, name: form.name.trim(), email: form.email.trim() });
      setCheckEmail(res.data.message);
    } catch (error) {
      if (isApiError(error) && error.status === 404) setDead(true);
      else if (isApiError(error) && error.status === 422) {
        const fieldErrors = (error.data?.errors ?? {}) as Record<string, string[]>;
        setErrors(fieldErrors);
        setSummary(fieldErrors.password ?? (fieldErrors.token ? [SignupLinkMessages.invalidLink] : []));
      } else
        setSummary([
          isApiError(error) && error.data?.message
            ? error.data.message
            : 'Something went wrong. Please try again.',
        ]);
    } finally {
      setBusy(false);
    }
  };

  if (dead) return <DeadLink />;
  if (checkEmail)
    return (
      <Card className="mx-auto mt-10 max-w-lg">
        <AuthHeading title="Check your e-mail" />
        <div className="mt-3">
          <StatusMessage>{checkEmail}</StatusMessage>
        </div>
      </Card>
    );

  return (
    <div className="mx-auto max-w-lg space-y-4 py-4">
      <Card>
        <div className="space-y-3">
          {wl.logo ? <img src={wl.logo} alt="" className="h-10 w-auto max-w-full object-contain" /> : null}
          <AuthHeading title={`Join ${link.organisation.name}`}>
            <p>
              Create your account to start your training before your first day. A manager will then approve
              it.
            </p>
          </AuthHeading>
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">Job role</dt>
              <dd className="font-medium text-slate-900" data-testid="signup-role">
                {link.role}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Start date</dt>
              <dd className="font-medium text-slate-900">{formatDate(link.start_date)}</dd>
            </div>
          </dl>
        </div>
      </Card>
      <Card>
        <form className="space-y-4" onSubmit={submit} noValidate>
          <ErrorSummary
            lines={summary}
            title={errors.password ? 'Your password does not meet these rules:' : undefined}
          />
          <TextField
            label="Full name"
            name="name"
            autoComplete="name"
            required
            value={form.name}
            onChange={set('name')}
            error={errors.name}
          />
          <TextField
            label="E-mail address"
            type="email"
            name="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
            error={errors.email}
          />
          <TextField
            label="Password"
            type="password"
            name="password"
            autoComplete="new-password"
            required
            value={form.password}
            onChange={set('password')}
            aria-describedby={rulesId}
            aria-invalid={errors.password ? true : undefined}
          />
          <Checklist id={rulesId} requirements={link.password_requirements} password={form.password} />
          <TextField
            label="Confirm the password"
            type="password"
            name="password_confirmation"
            autoComplete="new-password"
            required
            value={form.password_confirmation}
            onChange={set('password_confirmation')}
            error={errors.password_confirmation}
          />
          <Button type="submit" className="w-full" loading={busy}>
            Create my account
          </Button>
        </form>
      </Card>
      <p className="text-center text-sm text-slate-600">
        Already have an account? <TextLink to="/login">Sign in</TextLink>
      </p>
    </div>
  );
}

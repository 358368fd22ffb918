import { DEFAULT_PASSWORD_REQUIREMENTS, PASSWORD_MIN_LENGTH } from '@cc/contracts';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { clearAuthFeedback, REGISTER_PLANS, type RegisterPlan, register, useAuth } from '../app/auth';
import { Badge, Button, TextField } from '../ui';
import {
  AuthHeading,
  ErrorSummary,
  PASSWORD_RULE_HINT,
  StatusMessage,
  splitErrors,
  TextLink,
} from './shared';

const PLAN_LABEL: Record<RegisterPlan, string> = {
  free: 'Free plan',
  standard: 'Standard plan',
  enterprise: 'Enterprise plan',
};

/** A new organisation starts with the default rules (ASVS 2.1) and refuses breached passwords (the server enforces them). */
export const NEW_ORGANISATION_PASSWORD_HINT = (() => {
  const r = DEFAULT_PASSWORD_REQUIREMENTS;
  const kinds = [
    r.require_uppercase && 'an upper case letter',
    r.require_lowercase && 'a lower case letter',
    r.require_number && 'a number',
    r.require_symbol && 'a symbol',
  ].filter(Boolean) as string[];
  if (!kinds.length && r.min_length === PASSWORD_MIN_LENGTH) return PASSWORD_RULE_HINT;
  const needs = kinds.length
    ? `, with ${kinds.slice(0, -1).join(', ')}${kinds.length > 1 ? ' and ' : ''}${kinds.at(-1)}`
    : '';
  return `At least ${r.min_length} characters${needs}. Passwords found in data breaches are refused.`;
})();

const FIELDS = ['name', 'organisation', 'email', 'password_confirmation'] as const;

export function isPlan(value: string | undefined): value is RegisterPlan {
  return (REGISTER_PLANS as readonly string[]).includes(value ?? '');
}

/**
 * /register/{plan} (spec 1 §2, §7 POST /register/{plan}): a new organisation and its administrator. The server
 * e-mails a link to confirm the address; following it creates the account, and the person then signs in. The page
 * shows the server's message (the same whether or not the address already has an account).
 */
export default function RegisterPage() {
  const { plan } = useParams();
  const { loading, error, message } = useAuth();
  const [sent, setSent] = useState(false);
  const [form, setForm] = useState({
    name: '',
    organisation: '',
    email: '',
    password: '',
    password_confirmation: '',
  });
  const summaryId = useId();

  useEffect(() => {
    clearAuthFeedback();
  }, []);

  if (!isPlan(plan)) return <Navigate to="/404?resource=plan" replace />;

  const set = (field: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await register(plan, {
      ...form,
      name: form.name.trim(),
      organisation: form.organisation.trim(),
      email: form.email.trim(),
    });
    if (ok) setSent(true);
  };

  if (sent) {
    return (
      <div className="space-y-6">
        <AuthHeading title="Check your e-mail" />
        <StatusMessage>
          {message ?? 'Please check your e-mail to finish creating your account.'}
        </StatusMessage>
        <p className="text-sm text-slate-600">
          The link in it works for 24 hours. Nothing arrived? Check your spam folder, or{' '}
          <TextLink to="/login">sign in</TextLink> if you already have an account.
        </p>
        <p className="text-sm text-slate-600">
          When you first sign in, you can start from the care sector’s common core and mandatory training for
          your job roles, and see it before anything is added.
        </p>
      </div>
    );
  }

  const errors = splitErrors(error, FIELDS);
  const passwordInvalid = errors.passwordRules.length > 0;
  return (
    <div className="space-y-6">
      <AuthHeading title="Create your account">
        <p className="flex flex-wrap items-center gap-2">
          <span>Set up your organisation and its administrator account.</span>
          <Badge tone="primary">{PLAN_LABEL[plan]}</Badge>
        </p>
      </AuthHeading>
      <form className="space-y-4" onSubmit={submit} noValidate>
        <ErrorSummary
          id={summaryId}
          lines={errors.summary}
          title={passwordInvalid ? 'Your password does not meet these rules:' : undefined}
        />
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          required
          value={form.name}
          onChange={set('name')}
          error={errors.fields.name}
        />
        <TextField
          label="Organisation name"
          name="organisation"
          autoComplete="organization"
          required
          value={form.organisation}
          onChange={set('organisation')}
          error={errors.fields.organisation}
        />
        <TextField
          label="E-mail address"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={form.email}
          onChange={set('email')}
          error={errors.fields.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          hint={NEW_ORGANISATION_PASSWORD_HINT}
          value={form.password}
          onChange={set('password')}
          aria-invalid={passwordInvalid || undefined}
          aria-describedby={passwordInvalid ? summaryId : undefined}
        />
        <TextField
          label="Confirm the password"
          type="password"
          name="password_confirmation"
          autoComplete="new-password"
          required
          value={form.password_confirmation}
          onChange={set('password_confirmation')}
          error={errors.fields.password_confirmation}
        />
        <Button type="submit" className="w-full" loading={loading}>
          Create the account
        </Button>
      </form>
      <p className="text-center text-sm text-slate-600">
        Already have an account? <TextLink to="/login">Sign in</TextLink>
      </p>
    </div>
  );
}

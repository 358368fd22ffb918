import { PASSWORD_MIN_LENGTH } from '@cc/contracts';
import { type ReactNode, useEffect, useRef } from 'react';
import { Link, type LinkProps } from 'react-router';
import type { AuthError } from '../app/auth';
import { cx } from '../ui';

/**
 * The rule every password follows (ASVS 2.1, the server's defaults), in plain words for the password fields; an
 * organisation may ask for more, and the server lists whatever a password misses.
 */
export const PASSWORD_RULE_HINT = `At least ${PASSWORD_MIN_LENGTH} characters: a few unrelated words make a good one. Passwords found in data breaches are refused.`;

/** The heading block every authentication page starts with. */
export function AuthHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="space-y-1">
      <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
      {children ? <div className="text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}

export function TextLink({ className, ...rest }: LinkProps) {
  return (
    <Link
      className={cx(
        'focus-ring rounded font-medium text-primary-700 underline-offset-2 hover:text-primary-900 hover:underline',
        className,
      )}
      {...rest}
    />
  );
}

/**
 * How a failed auth call is shown: field errors of the listed fields go under their field; the password rules
 * (spec 1 §4, §5: every failing rule, one per line) and anything without a field go in the summary at the top.
 */
export interface SplitErrors {
  /** Lines for the summary, each shown on its own line. */
  summary: string[];
  /** Messages per inline field, joined by line breaks (the field shows them pre-line). */
  fields: Record<string, string | undefined>;
  /** The server said the password fails these rules. */
  passwordRules: string[];
  /** The field names the server returned. */
  keys: string[];
}

export const CHECK_FIELDS = 'Please correct the highlighted fields.';

export function splitErrors(error: AuthError | null, inlineFields: readonly string[]): SplitErrors {
  if (!error) return { summary: [], fields: {}, passwordRules: [], keys: [] };
  const errors = error.errors ?? {};
  const fields: Record<string, string | undefined> = {};
  for (const name of inlineFields) {
    const messages = errors[name];
    if (messages?.length) fields[name] = messages.join('\n');
  }
  const passwordRules = inlineFields.includes('password') ? [] : (errors.password ?? []);
  const others = Object.entries(errors)
    .filter(([key]) => key !== 'password' && !inlineFields.includes(key))
    .flatMap(([, messages]) => messages);
  let summary = [...passwordRules, ...others];
  if (!summary.length) summary = Object.keys(fields).length ? [CHECK_FIELDS] : [error.message];
  return { summary, fields, passwordRules, keys: Object.keys(errors) };
}

/**
 * The error summary of an auth form: announced (role=alert) and focused when it appears, each line on its own
 * line; `children` adds an action (e.g. a link to request a new reset link).
 */
export function ErrorSummary({
  id,
  lines,
  title,
  children,
}: {
  id?: string;
  lines: string[];
  title?: string;
  children?: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const key = lines.join('\n');
  useEffect(() => {
    if (key) ref.current?.focus();
  }, [key]);
  if (!lines.length) return null;
  return (
    <div
      id={id}
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="focus-ring rounded-lg border border-danger-200 bg-danger-100 px-4 py-3 text-sm text-danger-800"
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {lines.length === 1 && !title ? (
        <p>{lines[0]}</p>
      ) : (
        <ul className={cx('space-y-1', title && 'mt-1')} data-testid="error-lines">
          {lines.map((line) => (
            <li key={line} className="flex gap-2">
              <span aria-hidden="true">–</span>
              <span>{line}</span>
            </li>
          ))}
        </ul>
      )}
      {children ? <div className="mt-2">{children}</div> : null}
    </div>
  );
}

const TONES = {
  success: 'border-success-500/30 bg-success-100 text-success-800',
  info: 'border-primary-200 bg-primary-100 text-primary-900',
  warning: 'border-warning-500/40 bg-warning-100 text-warning-800',
} as const;

/** A success (or neutral) outcome: announced politely. */
export function StatusMessage({
  children,
  tone = 'success',
  className,
}: {
  children: ReactNode;
  tone?: keyof typeof TONES;
  className?: string;
}) {
  return (
    <div role="status" className={cx('rounded-lg border px-4 py-3 text-sm', TONES[tone], className)}>
      {children}
    </div>
  );
}

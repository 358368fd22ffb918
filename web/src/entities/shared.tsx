import { type ErrorEnvelope, Messages } from '@cc/contracts';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ZodError } from 'zod';
import { isApiError } from '../app/api';
import { whitelabelStore } from '../app/whitelabel';
import { CHECK_FIELDS } from '../auth/shared';
import { Button, Card, FormError } from '../ui';
import { userFieldWords, userWords } from '../whitelabel/words';

/**
 * Helpers shared by the administration screens (entities, users, roles, permissions, branding): the server's
 * 422 field errors, 404 → /404?resource=…, and the loading and error blocks every page shows.
 */
export type FieldErrors = Record<string, string[]>;

/** The error envelope of a failed call (message, errors), or a generic one for anything else. */
export function errorEnvelope(error: unknown, fallback: string): Partial<ErrorEnvelope> {
  // Users read the organisation's words and plain permission failures (whitelabel/words.ts).
  const wl = whitelabelStore.get();
  if (isApiError(error))
    return {
      message: userWords(error.data?.message || fallback, wl),
      errors: userFieldWords(error.data?.errors, wl),
    };
  return { message: userWords(fallback, wl) };
}

/** The server's 422 field errors (spec 1 §7 data.errors), keyed by field name. */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (isApiError(error) && error.status === 422)
    return userFieldWords(error.data?.errors, whitelabelStore.get()) ?? {};
  return {};
}

/** zod issues as field errors keyed by the first path segment (the form's field names are the contract's). */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : '_';
    if (!out[key]) out[key] = [];
    out[key].push(issue.message);
  }
  return out;
}

/**
 * Runs a form's save (a ui/FormDialog, or a form in a page): `check` puts the contract's zod errors beside the fields;
 * `run` clears the errors, is `busy` while the save runs and hands its result to `then` (close the dialog, show what
 * was made); a failure puts the server's 422 errors beside the fields and anything else above them as `refusal`
 * (`fallback` when the server gives no message). Options: `fieldKey` names the field a server key belongs to
 * (`event_types.0` → `event_types`); `alwaysRefusal` shows the server's message above the fields even when they carry
 * its errors.
 */
export function useFormSave(
  fallback: string,
  { fieldKey, alwaysRefusal = false }: { fieldKey?: (key: string) => string; alwaysRefusal?: boolean } = {},
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reset = useCallback(() => {
    setErrors({});
    setRefusal(null);
  }, []);
  const check = (parsed: { success: true } | { success: false; error: ZodError }): boolean => {
    if (parsed.success) return true;
    setErrors(zodFieldErrors(parsed.error));
    return false;
  };
  const run = async <T,>(save: () => Promise<T>, then: (result: T) => void) => {
    reset();
    setBusy(true);
    try {
      then(await save());
    } catch (error) {
      const server = serverFieldErrors(error);
      const fields = fieldKey
        ? Object.fromEntries(Object.entries(server).map(([k, v]) => [fieldKey(k), v]))
        : server;
      setErrors(fields);
      if (alwaysRefusal || !Object.keys(fields).length)
        setRefusal(errorEnvelope(error, fallback).message ?? null);
    } finally {
      setBusy(false);
    }
  };
  return { errors, setErrors, refusal, busy, reset, check, run };
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}

/** spec 1 §2: an API 404 for the page's resource goes to /404?resource=<resource> (replacing the history entry). */
export function useNotFoundRedirect(error: unknown, resource: 'user' | 'entity' | 'role' | 'type'): void {
  const navigate = useNavigate();
  const notFound = isNotFound(error);
  useEffect(() => {
    if (notFound) navigate(`/404?resource=${resource}`, { replace: true });
  }, [notFound, navigate, resource]);
}

/** A card of skeleton lines while a page's data loads. */
export function LoadingCard({ lines = 5, label = 'Loading' }: { lines?: number; label?: string }) {
  const bars = Array.from({ length: lines }, (_, i) => `bar-${i}-${90 - ((i * 17) % 40)}`);
  return (
    <Card aria-busy="true" aria-label={label}>
      <div className="space-y-4" data-testid="loading">
        {bars.map((bar) => (
          <div
            key={bar}
            className="cc-skeleton h-4 rounded bg-slate-200"
            style={{ width: `${bar.split('-')[2]}%` }}
          />
        ))}
      </div>
    </Card>
  );
}

/** The server's message when a page's data cannot load, with a retry. */
export function LoadError({
  error,
  fallback,
  onRetry,
}: {
  error: unknown;
  fallback: string;
  onRetry?: () => void;
}) {
  const { message } = errorEnvelope(error, fallback);
  return (
    <Card>
      <div
        role="alert"
        className="flex flex-col items-start gap-3 sm:flex-row sm:items-center sm:justify-between"
      >
        <p className="text-sm text-danger-800">{message}</p>
        {onRetry ? (
          <Button variant="secondary" size="sm" onClick={onRetry}>
            Try again
          </Button>
        ) : null}
      </div>
    </Card>
  );
}

/** A titled group of form fields (single column on narrow screens, two from `sm`). */
export function FormSection({
  title,
  description,
  children,
  columns = 2,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  columns?: 1 | 2;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      <div
        className={
          columns === 2 ? 'mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2' : 'mt-4 grid grid-cols-1 gap-4'
        }
      >
        {children}
      </div>
    </section>
  );
}

/** A label/value row of a details list. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-1 gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

/** Text for an empty optional value. */
export const dash = (value: string | number | null | undefined): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/**
 * The two notices above a form: the server's refusal (its field errors are shown beside the fields) and the
 * client-side check that stopped a submit.
 */
export function SaveErrors({
  error,
  clientErrors,
  showFieldErrors = false,
}: {
  error: unknown;
  clientErrors: FieldErrors;
  showFieldErrors?: boolean;
}) {
  return (
    <>
      {error ? (
        <FormError
          error={errorEnvelope(error, Messages.somethingWentWrong)}
          showFieldErrors={showFieldErrors}
        />
      ) : null}
      {Object.keys(clientErrors).length ? <FormError error={{ message: CHECK_FIELDS }} /> : null}
    </>
  );
}

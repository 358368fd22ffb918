import type { ErrorEnvelope } from '@cc/contracts';
import { useEffect, useRef } from 'react';

/**
 * The error summary at the top of a form: the server's message and, for a 422, each field's messages.
 * It takes focus when it appears so keyboard and screen-reader users hear what went wrong.
 */
export function FormError({
  error,
  title,
  showFieldErrors = true,
}: {
  error: Partial<ErrorEnvelope> | null | undefined;
  title?: string;
  showFieldErrors?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const message = error?.message;
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!error || (!error.message && !error.errors)) return null;
  const fieldMessages = showFieldErrors ? Object.values(error.errors ?? {}).flat() : [];
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="focus-ring rounded-lg border border-danger-200 bg-danger-100 px-4 py-3 text-sm text-danger-800"
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {error.message ? <p className="whitespace-pre-line">{error.message}</p> : null}
      {fieldMessages.length ? (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {fieldMessages.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

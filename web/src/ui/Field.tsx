import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';
import { cx } from './cx';

/**
 * Form fields: a label, an optional hint and an error text, wired with aria-describedby and aria-invalid so
 * screen readers announce them with the control. `error` takes the server's 422 messages for the field.
 */
interface FieldBase {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | string[] | null;
  /** Hide the label visually (it stays for screen readers). */
  hideLabel?: boolean;
}

export function errorText(error: FieldBase['error']): string | null {
  if (!error) return null;
  return Array.isArray(error) ? error.join(' ') : error;
}

function useFieldIds(id?: string) {
  const generated = useId();
  const base = id ?? generated;
  return { id: base, hintId: `${base}-hint`, errorId: `${base}-error` };
}

function describedBy(hintId: string, errorId: string, hint: unknown, error: string | null, extra?: string) {
  return [extra, hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
}

const CONTROL =
  'block w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 ' +
  'focus:border-primary-700 focus:outline-none focus:ring-2 focus:ring-primary-300 disabled:bg-slate-50 disabled:text-slate-500';

function FieldFrame({
  id,
  hintId,
  errorId,
  label,
  hint,
  error,
  hideLabel,
  required,
  children,
}: {
  id: string;
  hintId: string;
  errorId: string;
  label: ReactNode;
  hint?: ReactNode;
  error: string | null;
  hideLabel?: boolean;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className={cx('block text-sm font-medium text-slate-800', hideLabel && 'sr-only')}>
        {label}
        {required ? (
          <span className="text-danger-700" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm whitespace-pre-line text-danger-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export type TextFieldProps = FieldBase & InputHTMLAttributes<HTMLInputElement>;

export function TextField({ label, hint, error, hideLabel, id, className, ...input }: TextFieldProps) {
  const ids = useFieldIds(id);
  const err = errorText(error);
  return (
    <FieldFrame
      {...ids}
      label={label}
      hint={hint}
      error={err}
      hideLabel={hideLabel}
      required={input.required}
    >
      <input
        id={ids.id}
        className={cx(CONTROL, 'h-10', err ? 'border-danger-600' : 'border-slate-300', className)}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy(ids.hintId, ids.errorId, hint, err, input['aria-describedby'])}
        {...input}
      />
    </FieldFrame>
  );
}

export type TextAreaProps = FieldBase & TextareaHTMLAttributes<HTMLTextAreaElement>;

export function TextArea({ label, hint, error, hideLabel, id, className, ...input }: TextAreaProps) {
  const ids = useFieldIds(id);
  const err = errorText(error);
  return (
    <FieldFrame
      {...ids}
      label={label}
      hint={hint}
      error={err}
      hideLabel={hideLabel}
      required={input.required}
    >
      <textarea
        id={ids.id}
        className={cx(CONTROL, 'min-h-24 py-2', err ? 'border-danger-600' : 'border-slate-300', className)}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy(ids.hintId, ids.errorId, hint, err)}
        {...input}
      />
    </FieldFrame>
  );
}

export type SelectProps = FieldBase &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: { value: string | number; label: string; disabled?: boolean }[];
    placeholder?: string;
  };

export function Select({
  label,
  hint,
  error,
  hideLabel,
  id,
  className,
  options,
  placeholder,
  ...select
}: SelectProps) {
  const ids = useFieldIds(id);
  const err = errorText(error);
  return (
    <FieldFrame
      {...ids}
      label={label}
      hint={hint}
      error={err}
      hideLabel={hideLabel}
      required={select.required}
    >
      <select
        id={ids.id}
        className={cx(CONTROL, 'h-10 pr-8', err ? 'border-danger-600' : 'border-slate-300', className)}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy(ids.hintId, ids.errorId, hint, err)}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export type CheckboxProps = Omit<FieldBase, 'hideLabel'> &
  Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>;

export function Checkbox({ label, hint, error, id, className, ...input }: CheckboxProps) {
  const ids = useFieldIds(id);
  const err = errorText(error);
  return (
    <div className="flex items-start gap-3">
      <input
        id={ids.id}
        type="checkbox"
        className={cx(
          'focus-ring mt-0.5 h-4 w-4 shrink-0 rounded border-slate-400 accent-[var(--cc-primary-700)]',
          className,
        )}
        aria-invalid={err ? true : undefined}
        aria-describedby={describedBy(ids.hintId, ids.errorId, hint, err)}
        {...input}
      />
      <div className="space-y-0.5">
        <label htmlFor={ids.id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        {hint ? (
          <p id={ids.hintId} className="text-xs text-slate-600">
            {hint}
          </p>
        ) : null}
        {err ? (
          <p id={ids.errorId} className="text-sm text-danger-700">
            {err}
          </p>
        ) : null}
      </div>
    </div>
  );
}

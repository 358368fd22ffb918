import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Card } from '../ui';

/**
 * Upload a SCORM zip (POST /content/{id}/package) or an .h5p file (POST /h5ps/{id}/package), multipart with the
 * file as `package`. The server checks size, zip paths and the manifest; its refusal is shown under the input.
 */
export function PackageUpload({
  title,
  endpoint,
  accept,
  hint,
  invalidate,
}: {
  title: string;
  endpoint: string;
  accept: string;
  hint: string;
  /** Query key to refresh after an upload (the item, so its package details show). */
  invalidate: unknown[];
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const upload = async (file: File) => {
    setBusy(true);
    setError(null);
    try {
      const res = await api.upload<Envelope<unknown>>(endpoint, { package: file });
      notifySuccess(res.data.message ?? 'Package uploaded successfully.');
      void queryClient.invalidateQueries({ queryKey: invalidate });
    } catch (e) {
      const fields = Object.values(serverFieldErrors(e)).flat();
      if (fields.length) setError(fields.join(' '));
      else {
        const env = errorEnvelope(e, 'Something went wrong please try again or contact support.');
        setError(env.message ?? null);
        notifyError(env, '');
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={title}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Upload a package
      </label>
      <input
        id={id}
        type="file"
        accept={accept}
        disabled={busy}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
          e.target.value = '';
        }}
        className="mt-1.5 block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-700 file:px-3 file:py-2 file:text-sm file:font-medium file:text-on-primary-700 hover:file:bg-primary-800"
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        {busy ? 'Uploading and checking the package…' : hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger-700">
          {error}
        </p>
      ) : null}
    </Card>
  );
}

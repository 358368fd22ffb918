import { useId, useState } from 'react';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Button } from '../ui';

export interface ImageRef {
  id: number;
  url: string;
}

/**
 * The content image (spec 2 §7): POST /content/images (multipart) uploads it and answers {id, url}; the form
 * then sends image_id. Remove calls POST /content/images/delete {id}.
 */
export function ImageField({
  value,
  onChange,
  error,
}: {
  value: ImageRef | null;
  onChange: (image: ImageRef | null) => void;
  error?: string[];
}) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string[] | undefined>();
  const upload = async (file: File) => {
    setBusy(true);
    setUploadError(undefined);
    try {
      const res = await api.upload<Envelope<ImageRef>>('/content/images', { image: file });
      notifySuccess(res.data.message ?? 'Image has been uploaded.');
      onChange(res.data.data);
    } catch (e) {
      const fields = serverFieldErrors(e);
      if (fields.image) setUploadError(fields.image);
      else notifyError(errorEnvelope(e, 'Something went wrong please try again or contact support.'), '');
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!value) return;
    setBusy(true);
    try {
      const res = await api.post<{ message?: string }>('/content/images/delete', { id: value.id });
      notifySuccess(res.data?.message ?? 'Image has been removed.');
      onChange(null);
    } catch (e) {
      notifyError(errorEnvelope(e, 'Something went wrong please try again or contact support.'), '');
    } finally {
      setBusy(false);
    }
  };
  const err = [...(uploadError ?? []), ...(error ?? [])];
  return (
    <div className="space-y-2">
      <span className="block text-sm font-medium text-slate-800">Image</span>
      {value ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <img
            src={value.url}
            alt="Current cover of this content"
            className="h-28 w-44 rounded-lg object-cover ring-1 ring-slate-200"
          />
          <Button variant="secondary" size="sm" loading={busy} onClick={() => void remove()}>
            Remove image
          </Button>
        </div>
      ) : (
        <div>
          <label htmlFor={id} className="sr-only">
            Upload an image
          </label>
          <input
            id={id}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            disabled={busy}
            aria-invalid={err.length ? true : undefined}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void upload(file);
              e.target.value = '';
            }}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-700 file:px-3 file:py-2 file:text-sm file:font-medium file:text-on-primary-700 hover:file:bg-primary-800"
          />
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
            {busy ? 'Uploading…' : 'PNG, JPG, GIF or WebP. Shown on the course card.'}
          </p>
        </div>
      )}
      {err.length ? <p className="text-sm text-danger-700">{err.join(' ')}</p> : null}
    </div>
  );
}

import { useId } from 'react';

const ACCEPT = 'application/pdf,image/png,image/jpeg';

/** Evidence files chosen before a save (PDF, PNG or JPEG), each removable. */
export function EvidenceFilesInput({
  files,
  onChange,
  label = 'Evidence files',
}: {
  files: File[];
  onChange: (files: File[]) => void;
  label?: string;
}) {
  const id = useId();
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="file"
        multiple
        accept={ACCEPT}
        aria-describedby={`${id}-hint`}
        className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-slate-200"
        onChange={(e) => {
          onChange([...files, ...Array.from(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        PDF, PNG or JPEG: the certificate and anything that shows what was assessed.
      </p>
      {files.length ? (
        <ul className="space-y-1" aria-label="Files to upload">
          {files.map((f, i) => (
            <li
              key={`${f.name}-${f.size}-${f.lastModified}`}
              className="flex items-center justify-between gap-2 text-sm"
            >
              <span className="min-w-0 break-all text-slate-800">{f.name}</span>
              <button
                type="button"
                className="focus-ring shrink-0 rounded text-sm font-medium text-danger-700 underline"
                onClick={() => onChange(files.filter((_, j) => j !== i))}
              >
                Remove <span className="sr-only">{f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

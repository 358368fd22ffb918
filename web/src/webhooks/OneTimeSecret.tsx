import { useState } from 'react';
import { Button } from '../ui';

/**
 * A new signing secret, shown this once (issue 29 §14: the server keeps it sealed and no read shows it again): a Copy
 * button, and the warning that it will not be shown again.
 */
export function OneTimeSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section
      aria-labelledby="new-secret-title"
      className="mt-2 space-y-3 rounded border border-warning-500 bg-warning-100 p-3"
      data-testid="new-secret"
    >
      <h4 id="new-secret-title" className="text-sm font-semibold text-slate-900">
        Your new signing secret
      </h4>
      <p className="text-sm font-medium text-warning-800">
        Copy it now into the system that receives the events. It will not be shown again.
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="signing-secret"
          className="block min-w-0 flex-1 rounded border border-slate-300 bg-white p-2 font-mono text-sm break-all select-all"
        >
          {secret}
        </code>
        <Button size="sm" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p aria-live="polite" className={copied === false ? 'text-sm text-danger-800' : 'sr-only'}>
        {copied === true ? 'Signing secret copied to the clipboard.' : ''}
        {copied === false ? 'The secret could not be copied: select it and copy it by hand.' : ''}
      </p>
      <Button variant="secondary" size="sm" onClick={onDone}>
        I have copied it
      </Button>
    </section>
  );
}

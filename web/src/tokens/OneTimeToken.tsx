import type { CreatedTokenView } from '@cc/contracts';
import { useState } from 'react';
import { Button, Card } from '../ui';

/** The new token, shown this once: a Copy button, and the warning that it cannot be shown again. */
export function OneTimeToken({ token, onDone }: { token: CreatedTokenView; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token.plain_text_token);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Card>
      <section aria-labelledby="new-token-title" className="space-y-3" data-testid="new-token">
        <h2 id="new-token-title" className="text-base font-semibold text-slate-900">
          Your new token: {token.name}
        </h2>
        <p className="text-sm font-medium text-warning-800">
          Copy it now and keep it somewhere safe. You will not see it again.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code
            className="block flex-1 rounded border border-slate-300 bg-slate-50 p-2 font-mono text-sm break-all select-all"
            data-testid="new-token-value"
          >
            {token.plain_text_token}
          </code>
          <Button onClick={() => void copy()}>{copied ? 'Copied' : 'Copy'}</Button>
        </div>
        <p aria-live="polite" className="sr-only">
          {copied ? 'Token copied to the clipboard.' : ''}
        </p>
        <Button variant="secondary" size="sm" onClick={onDone}>
          I have copied it
        </Button>
      </section>
    </Card>
  );
}

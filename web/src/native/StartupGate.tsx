import { Messages } from '@cc/contracts';
import type { ReactNode } from 'react';
import { useStore } from '../app/store';
import { Spinner } from '../ui';
import { startupStore } from './startup';
import { JoinTabletDialog } from './tablet/JoinTabletDialog';

/**
 * Until the mobile start-up has an answer from the 'Sign In' prompt, only a neutral screen shows: no page, so no
 * request with a half-restored session and nothing of the last person's data. The web build is ready at once.
 */
export function StartupGate({ children }: { children: () => ReactNode }) {
  const state = useStore(startupStore);
  if (state !== 'ready') return <SigningIn />;
  return (
    <>
      {children()}
      <JoinTabletDialog />
    </>
  );
}

function SigningIn() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 bg-slate-100 px-4 text-slate-700">
      <Spinner label={Messages.signingIn} className="text-primary-700" />
      <p className="text-base font-medium" aria-hidden="true">
        {Messages.signingIn}
      </p>
    </main>
  );
}

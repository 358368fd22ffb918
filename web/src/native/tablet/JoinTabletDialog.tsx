import { Messages, MODAL_DEFAULTS } from '@cc/contracts';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { type FormEvent, useState } from 'react';
import { useStore } from '../../app/store';
import { Button, FormError } from '../../ui';
import { PinField } from './PinField';
import { isValidPin } from './pin';
import { joinPromptStore, joinTablet } from './session';

/** After a password sign-in on a shared tablet: choose a PIN to come back by tapping your name. */
export function JoinTabletDialog() {
  const open = useStore(joinPromptStore);
  if (!open) return null;
  return <JoinForm />;
}

function JoinForm() {
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => (busy ? undefined : joinPromptStore.set(false));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!isValidPin(pin)) return setError(Messages.tabletPinRule);
    if (pin !== again) return setError(Messages.tabletPinsDiffer);
    setBusy(true);
    try {
      await joinTablet(pin);
    } catch {
      setError(Messages.somethingWentWrong);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={close} className="relative" style={{ zIndex: MODAL_DEFAULTS.zIndexStart + 50 }}>
      <div className="fixed inset-0 bg-slate-900/60" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">Join this tablet</DialogTitle>
          <p className="mt-2 text-sm text-slate-700">
            Choose a PIN of 4 to 6 digits. Next time, tap your name on the sign-in screen and enter it (or use
            your fingerprint). Others using this tablet will not see your information.
          </p>
          <form className="mt-4 space-y-4" onSubmit={submit} noValidate>
            <FormError error={error ? { message: error } : null} />
            <PinField label="Your tablet PIN" name="pin" value={pin} onValue={setPin} required autoFocus />
            <PinField label="The same PIN again" name="pin-again" value={again} onValue={setAgain} required />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="secondary" onClick={close} disabled={busy}>
                Not now
              </Button>
              <Button type="submit" loading={busy}>
                Join this tablet
              </Button>
            </div>
          </form>
        </DialogPanel>
      </div>
    </Dialog>
  );
}

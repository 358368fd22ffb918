import { Messages } from '@cc/contracts';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { isMobile } from '../../app/env';
import { useStore } from '../../app/store';
import { Button, ConfirmDialog, FormError, Toggle } from '../../ui';
import { signInNoticeStore } from '../startup';
import { initials, PinField } from './PinField';
import { removeFromTablet, unlockWithBiometric, unlockWithPin } from './session';
import { loadTablet, setTabletEnabled, type TabletMember, tabletStore, useTablet } from './store';

/** The start-up check's reason for showing the login page (e.g. "Sign in again to continue."). */
export function SignInNotice() {
  const notice = useStore(signInNoticeStore);
  if (!notice) return null;
  return (
    <div
      role="status"
      className="mb-4 rounded-lg border border-primary-200 bg-primary-100 px-4 py-3 text-sm text-primary-900"
    >
      {notice}
    </div>
  );
}

/**
 * The mobile login page: on a shared tablet, the people saved on it and "Someone else" (the password form);
 * otherwise the password form alone. The "Shared tablet" switch sits below either.
 */
export function TabletLogin({ passwordForm }: { passwordForm: (prefill: string | null) => ReactNode }) {
  const { enabled, members } = useTablet();
  const [mode, setMode] = useState<{ kind: 'list' } | { kind: 'password'; email: string | null }>({
    kind: 'list',
  });
  const [picked, setPicked] = useState<TabletMember | null>(null);

  useEffect(() => {
    if (isMobile()) void loadTablet();
  }, []);

  if (!isMobile()) return <>{passwordForm(null)}</>;
  const listing = enabled && members.length > 0 && mode.kind === 'list';
  return (
    <>
      {picked ? (
        <PinUnlock
          member={picked}
          onBack={() => setPicked(null)}
          onLocked={(email) => {
            setPicked(null);
            setMode({ kind: 'password', email });
          }}
        />
      ) : listing ? (
        <MemberList onPick={setPicked} onSomeoneElse={() => setMode({ kind: 'password', email: null })} />
      ) : (
        <>
          {enabled && members.length > 0 ? (
            <button
              type="button"
              className="focus-ring mb-4 rounded text-sm font-medium text-primary-700 hover:underline"
              onClick={() => setMode({ kind: 'list' })}
            >
              ← Back to the people on this tablet
            </button>
          ) : null}
          {passwordForm(mode.kind === 'password' ? mode.email : null)}
        </>
      )}
      {picked ? null : <SharedTabletSwitch />}
    </>
  );
}

function MemberList({
  onPick,
  onSomeoneElse,
}: {
  onPick: (m: TabletMember) => void;
  onSomeoneElse: () => void;
}) {
  const { members } = useTablet();
  const [removing, setRemoving] = useState<TabletMember | null>(null);
  const [removed, setRemoved] = useState(false);
  return (
    <div>
      <h1 className="text-xl font-semibold text-slate-900">Who is signing in?</h1>
      <p className="mt-1 text-sm text-slate-600">Tap your name, then enter your tablet PIN.</p>
      {removed ? (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {Messages.tabletRemoved}
        </p>
      ) : null}
      <ul className="mt-5 space-y-2" aria-label="People on this tablet">
        {members.map((m) => (
          <li key={m.id} className="flex items-center gap-2">
            <button
              type="button"
              onClick={() => onPick(m)}
              className="focus-ring flex min-w-0 flex-1 items-center gap-3 rounded-xl px-3 py-3 text-left ring-1 ring-slate-200 hover:bg-slate-50"
            >
              <span
                aria-hidden="true"
                className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary-700 text-sm font-semibold text-on-primary-700"
              >
                {initials(m.name)}
              </span>
              <span className="min-w-0">
                <span className="block truncate font-medium text-slate-900">{m.name}</span>
                <span className="block truncate text-xs text-slate-600">{m.email}</span>
              </span>
            </button>
            <button
              type="button"
              onClick={() => setRemoving(m)}
              className="focus-ring shrink-0 rounded-lg px-2 py-3 text-sm text-slate-600 hover:bg-slate-100 hover:text-danger-700"
              aria-label={`Remove ${m.name} from this tablet`}
              title="Remove from this tablet"
            >
              Remove
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            onClick={onSomeoneElse}
            className="focus-ring flex w-full items-center gap-3 rounded-xl px-3 py-3 text-left ring-1 ring-slate-200 hover:bg-slate-50"
          >
            <span
              aria-hidden="true"
              className="flex h-10 w-10 items-center justify-center rounded-full bg-slate-200 text-lg text-slate-700"
            >
              +
            </span>
            <span className="font-medium text-slate-900">Someone else</span>
          </button>
        </li>
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove from this tablet?"
        message={`${removing?.name ?? ''} will need their password to sign in on this tablet again.`}
        confirmLabel="Remove"
        onConfirm={async () => {
          if (removing) await removeFromTablet(removing.id);
          setRemoved(true);
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

function PinUnlock({
  member,
  onBack,
  onLocked,
}: {
  member: TabletMember;
  onBack: () => void;
  onLocked: (email: string) => void;
}) {
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const outcome = await unlockWithPin(member.id, pin);
      if (outcome.ok) return;
      if ('signedOut' in outcome || outcome.locked) {
        signInNoticeStore.set('signedOut' in outcome ? Messages.signInAgain : Messages.tabletPinLocked);
        onLocked(member.email);
        return;
      }
      setPin('');
      setError(
        `${Messages.tabletPinWrong} ${outcome.attemptsLeft} ${outcome.attemptsLeft === 1 ? 'try' : 'tries'} left.`,
      );
    } finally {
      setBusy(false);
    }
  };

  const biometric = async () => {
    setError(null);
    const outcome = await unlockWithBiometric(member.id);
    if (outcome === 'declined') setError(Messages.tabletBiometricFailed);
    if (outcome === 'signedOut') {
      signInNoticeStore.set(Messages.signInAgain);
      onLocked(member.email);
    }
  };

  return (
    <div>
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-primary-700 font-semibold text-on-primary-700"
        >
          {initials(member.name)}
        </span>
        <h1
          ref={heading}
          tabIndex={-1}
          className="min-w-0 truncate text-xl font-semibold text-slate-900 outline-none"
        >
          Hello, {member.name}
        </h1>
      </div>
      <form className="mt-5 space-y-4" onSubmit={submit} noValidate>
        <FormError error={error ? { message: error } : null} />
        <PinField label="Tablet PIN" name="pin" value={pin} onValue={setPin} required />
        <Button type="submit" className="w-full" loading={busy} disabled={pin.length < 4}>
          Continue
        </Button>
        <Button type="button" variant="secondary" className="w-full" onClick={biometric} disabled={busy}>
          Use fingerprint instead
        </Button>
      </form>
      <button
        type="button"
        onClick={onBack}
        className="focus-ring mt-4 rounded text-sm font-medium text-primary-700 hover:underline"
      >
        ← Not you? Back to the list
      </button>
    </div>
  );
}

/** On: every person who signs in here may join the tablet. Off: everyone saved on it is removed (confirm first). */
export function SharedTabletSwitch() {
  const { enabled, members } = useTablet();
  const [confirming, setConfirming] = useState(false);
  const change = (on: boolean) => {
    if (!on && members.length) setConfirming(true);
    else void setTabletEnabled(on);
  };
  return (
    <div className="mt-6 border-t border-slate-200 pt-4">
      <Toggle checked={enabled} onChange={change} label="Shared tablet" />
      <p className="mt-1 text-xs text-slate-600">
        For a device several people use: each person who signs in is kept on it and comes back with a PIN.
      </p>
      <ConfirmDialog
        open={confirming}
        title="Turn off shared tablet?"
        message={`Everyone saved on this tablet (${members.length}) will be removed and will need their password.`}
        confirmLabel="Turn off"
        onConfirm={async () => {
          for (const m of tabletStore.get().members) await removeFromTablet(m.id);
          await setTabletEnabled(false);
        }}
        onClose={() => setConfirming(false)}
      />
    </div>
  );
}

import { Messages, type OwnSession, PASSWORD_CONFIRM_MINUTES } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError } from '../entities/shared';
import { formatDateTime } from '../results/api';
import { Badge, Button, Card, ConfirmDialog, EmptyState, PageHeader, Spinner, TextField } from '../ui';
import {
  confirmPassword,
  describeSession,
  endOtherSessions,
  endSession,
  needsPasswordConfirmation,
  sessionKeys,
  useOwnSessions,
} from './api';

/**
 * /account/sessions (issue 11 §10), from the account menu: where the user is signed in (browsers and the mobile
 * app), this one marked, and a way to sign any other out, or all of them, after a confirmation.
 */
export default function SessionsPage() {
  const queryClient = useQueryClient();
  const list = useOwnSessions();
  const [ending, setEnding] = useState<OwnSession | 'others' | null>(null);
  const rows = list.data ?? [];
  const current = rows.find((s) => s.current) ?? null;
  const others = rows.filter((s) => !s.current);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionKeys.list });

  // The password again, when the server asks for it (423) on the list or on signing something out.
  const [askPassword, setAskPassword] = useState(false);
  const locked = askPassword || needsPasswordConfirmation(list.error);

  const confirmEnd = async () => {
    if (!ending) return;
    try {
      const res = ending === 'others' ? await endOtherSessions() : await endSession(ending.id);
      notifySuccess(
        res.data?.message ?? (ending === 'others' ? Messages.otherSessionsEnded : Messages.sessionEnded),
      );
    } catch (error) {
      if (needsPasswordConfirmation(error)) {
        setEnding(null);
        setAskPassword(true);
        return;
      }
      notifyError(errorEnvelope(error, 'Could not sign it out.'), 'Could not sign it out.');
      throw error;
    } finally {
      await refresh();
    }
  };

  if (locked)
    return (
      <div className="space-y-6">
        <PageHeader
          title="Sessions and devices"
          description="Where your account is signed in. Sign out of anything you do not recognise, then change your password."
        />
        <ConfirmPasswordCard
          onConfirmed={async () => {
            setAskPassword(false);
            await refresh();
          }}
        />
      </div>
    );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Sessions and devices"
        description="Where your account is signed in. Sign out of anything you do not recognise, then change your password."
        actions={
          others.length ? (
            <Button variant="secondary" onClick={() => setEnding('others')}>
              Sign out everywhere else
            </Button>
          ) : undefined
        }
      />
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback="Your sessions could not be loaded."
          onRetry={() => void list.refetch()}
        />
      ) : list.isLoading ? (
        <Card>
          <Spinner label="Loading your sessions" />
        </Card>
      ) : (
        <>
          {current ? (
            <Card title="This device" aria-label="This device">
              <SessionList sessions={[current]} />
            </Card>
          ) : null}
          <Card title="Other sessions and devices" aria-label="Other sessions and devices">
            {others.length ? (
              <SessionList sessions={others} onEnd={setEnding} />
            ) : (
              <EmptyState
                title="No other sessions or devices"
                description="You are signed in here only. Signing in from another browser or the mobile app adds it here."
              />
            )}
          </Card>
        </>
      )}
      <ConfirmDialog
        open={ending !== null}
        title={ending === 'others' ? 'Sign out everywhere else?' : 'Sign out this session?'}
        message={
          ending === 'others' ? (
            <>
              Every other browser and device signed in to your account ({others.length}) will be signed out.
              This one stays signed in.
            </>
          ) : ending ? (
            <>
              <strong>{describeSession(ending)}</strong> will be signed out and must sign in again to carry
              on.
            </>
          ) : null
        }
        confirmLabel={ending === 'others' ? 'Sign out all others' : 'Sign out'}
        onConfirm={confirmEnd}
        onClose={() => setEnding(null)}
      />
    </div>
  );
}

function SessionList({ sessions, onEnd }: { sessions: OwnSession[]; onEnd?: (s: OwnSession) => void }) {
  return (
    <ul className="divide-y divide-slate-100" data-testid="session-list">
      {sessions.map((s) => {
        const label = describeSession(s);
        return (
          <li
            key={s.id}
            className="flex flex-col gap-3 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between"
            data-testid="session-row"
          >
            <div className="min-w-0 space-y-1">
              <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                <span className="break-words">{label}</span>
                <Badge tone={s.kind === 'token' ? 'primary' : 'neutral'}>
                  {s.kind === 'token' ? 'Mobile app' : 'Web browser'}
                </Badge>
                {s.current ? <Badge tone="success">This device</Badge> : null}
              </p>
              <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-sm text-slate-600">
                <div className="flex gap-1">
                  <dt>Signed in</dt>
                  <dd>{formatDateTime(s.created_at)}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>Last active</dt>
                  <dd>{s.last_active_at ? formatDateTime(s.last_active_at) : 'not yet'}</dd>
                </div>
                {s.ip ? (
                  <div className="flex gap-1">
                    <dt>Address</dt>
                    <dd>{s.ip}</dd>
                  </div>
                ) : null}
              </dl>
            </div>
            {onEnd && !s.current ? (
              <Button
                size="sm"
                variant="secondary"
                className="self-start sm:self-center"
                onClick={() => onEnd(s)}
                aria-label={`Sign out ${label}, signed in ${formatDateTime(s.created_at)}`}
              >
                Sign out
              </Button>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Asks for the password before sessions and devices are shown or signed out (issue 29 §6). */
function ConfirmPasswordCard({ onConfirmed }: { onConfirmed: () => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await confirmPassword(password);
      setPassword('');
      await onConfirmed();
    } catch (err) {
      const envelope = errorEnvelope(err, 'Your password could not be checked.');
      setError(envelope.errors?.password?.[0] ?? envelope.message ?? null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title="Confirm your password" aria-label="Confirm your password">
      <form className="space-y-4" onSubmit={submit}>
        <p className="text-sm text-slate-600">
          For your security, enter your password to see and sign out your sessions and devices. We ask again
          after {PASSWORD_CONFIRM_MINUTES} minutes.
        </p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error ?? undefined}
        />
        <Button type="submit" loading={busy}>
          Confirm
        </Button>
      </form>
    </Card>
  );
}

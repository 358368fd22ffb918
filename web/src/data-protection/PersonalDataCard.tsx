import {
  calendarDay,
  DataProtectionMessages,
  formatDate,
  Messages,
  type UserDataProtection,
} from '@cc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notifyError, notifySuccess } from '../app/notifications';
import { DetailRow, errorEnvelope, serverFieldErrors } from '../entities/shared';
import { Badge, Button, Card, ConfirmDialog, TextField } from '../ui';
import {
  downloadPersonalDataJson,
  downloadPersonalDataPdf,
  erasePerson,
  fetchUserDataProtection,
  saveLeavingDate,
  userDataProtectionKey,
} from './api';

/**
 * The person's page, "Personal data" (issue 35 §4): their data as a file (JSON, or a readable PDF) for the person
 * herself or a manager over her; the leaving date; erasure of a leaver's personal details, confirmed by typing the
 * name. The card is not shown to callers who may do none of it.
 */
export function PersonalDataCard({ userId, name, self }: { userId: number; name: string; self: boolean }) {
  const queryClient = useQueryClient();
  const key = userDataProtectionKey(userId);
  const state = useQuery({ queryKey: key, queryFn: () => fetchUserDataProtection(userId), retry: false });
  const [leftOn, setLeftOn] = useState('');
  const [erasing, setErasing] = useState(false);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'json' | 'pdf' | null>(null);
  useEffect(() => {
    if (state.data) setLeftOn(state.data.left_on ?? '');
  }, [state.data]);

  const saved = (data: UserDataProtection) => {
    queryClient.setQueryData(key, data);
    void queryClient.invalidateQueries({ queryKey: ['users'] });
    void queryClient.invalidateQueries({ queryKey: ['audit'] });
  };
  const leaving = useMutation({
    mutationFn: (value: string | null) => saveLeavingDate(userId, value),
    onSuccess: (res) => {
      saved(res.data);
      notifySuccess(res.message ?? 'Saved.');
    },
  });

  const d = state.data;
  if (!d || !(d.may_export || d.may_set_leaving_date || d.may_erase || d.erased_at)) return null;
  const today = calendarDay(new Date());
  const hasLeft = Boolean(d.left_on && d.left_on <= today);
  const leavingErrors = serverFieldErrors(leaving.error);

  const download = async (kind: 'json' | 'pdf') => {
    setBusy(kind);
    try {
      await (kind === 'json' ? downloadPersonalDataJson(userId) : downloadPersonalDataPdf(userId));
    } finally {
      setBusy(null);
    }
  };
  const erase = async () => {
    // The name typed as shown (the server checks it again): a mismatch stays in the dialog, next to the field.
    if (typed.trim().toLowerCase() !== name.trim().toLowerCase()) {
      setTypedError(DataProtectionMessages.confirmName);
      throw new Error(DataProtectionMessages.confirmName);
    }
    try {
      const res = await erasePerson(userId, typed);
      saved(res.data);
      notifySuccess(res.message ?? 'Erased.');
      setTyped('');
    } catch (error) {
      notifyError(
        { message: errorEnvelope(error, Messages.somethingWentWrong).message },
        Messages.somethingWentWrong,
      );
      throw error;
    }
  };

  return (
    <Card
      title="Personal data"
      data-testid="personal-data"
      actions={
        d.may_export ? (
          <>
            <Button variant="secondary" onClick={() => void download('json')} loading={busy === 'json'}>
              {self ? 'Download my data' : 'Download their data'}
            </Button>
            <Button variant="secondary" onClick={() => void download('pdf')} loading={busy === 'pdf'}>
              As a PDF
            </Button>
          </>
        ) : null
      }
    >
      <dl className="divide-y divide-slate-100">
        <DetailRow label="Leaving date">
          {d.erased_at ? (
            <span className="inline-flex flex-wrap items-center gap-2">
              {d.left_on ? formatDate(d.left_on) : '—'}
              <Badge tone="danger">{`Personal details erased on ${formatDate(d.erased_at)}`}</Badge>
            </span>
          ) : d.may_set_leaving_date ? (
            <form
              className="flex flex-wrap items-end gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                leaving.mutate(leftOn || null);
              }}
            >
              <TextField
                label="Leaving date"
                hideLabel
                type="date"
                name="left_on"
                value={leftOn}
                onChange={(e) => setLeftOn(e.target.value)}
                error={leavingErrors.left_on}
              />
              <Button type="submit" variant="secondary" loading={leaving.isPending}>
                Save
              </Button>
              {d.left_on ? (
                <Button type="button" variant="ghost" onClick={() => leaving.mutate(null)}>
                  They have not left
                </Button>
              ) : null}
            </form>
          ) : d.left_on ? (
            formatDate(d.left_on)
          ) : (
            'Still working here'
          )}
        </DetailRow>
        <DetailRow label="Training record kept">
          {d.records_removed_on
            ? `Until ${formatDate(d.records_removed_on)} (${d.retention_years} years after leaving), then removed`
            : `${d.retention_years} years after leaving`}
        </DetailRow>
      </dl>
      {d.may_erase ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-4">
          <Button variant="danger" onClick={() => setErasing(true)} disabled={!hasLeft}>
            Erase personal details
          </Button>
          <p className="text-sm text-slate-600">
            {hasLeft
              ? 'Their name, e-mail address and sign-in are removed; their training record is kept.'
              : 'Save the date they left first: only a leaver’s personal details can be erased.'}
          </p>
        </div>
      ) : null}
      <ConfirmDialog
        open={erasing}
        title="Erase their personal details?"
        confirmLabel="Erase personal details"
        message={
          <div className="space-y-3">
            <p>
              {`${name} becomes “Former staff member #${userId}”: their name, e-mail address and devices are removed `}
              and they can no longer sign in. Their training record is kept
              {d.records_removed_on ? ` until ${formatDate(d.records_removed_on)}` : ''}. This cannot be
              undone.
            </p>
            <TextField
              label="Type their name to confirm"
              name="confirm_name"
              autoComplete="off"
              value={typed}
              placeholder={name}
              onChange={(e) => {
                setTyped(e.target.value);
                setTypedError(null);
              }}
              error={typedError ?? undefined}
            />
          </div>
        }
        onConfirm={erase}
        onClose={() => {
          setErasing(false);
          setTyped('');
          setTypedError(null);
        }}
      />
    </Card>
  );
}

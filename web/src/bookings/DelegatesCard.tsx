import {
  AddDelegatesBody,
  BookingsMessages,
  DELEGATE_STATUSES,
  type DelegateStatus,
  type DelegateView,
  formatDateTime,
  type TrainingSessionView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../app/api';
import { useWhitelabel } from '../app/whitelabel';
import { serverFieldErrors } from '../entities/shared';
import { Picker } from '../results/Picker';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  FormDialog,
  Select,
} from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { bookingAction, type PickItem, searchPeople, useDelegates } from './api';
import { ATTENDANCE_LABEL, DELEGATE_STATUS } from './labels';

type Action = 'accept' | 'decline' | 'restore' | 'approve' | 'reject';
const ACTIONS: Record<Action, { label: string; message: string }> = {
  approve: { label: 'Approve', message: BookingsMessages.delegateUpdated },
  reject: { label: 'Reject', message: BookingsMessages.delegateUpdated },
  accept: { label: 'Accept', message: BookingsMessages.delegateUpdated },
  decline: { label: 'Decline', message: BookingsMessages.delegateUpdated },
  restore: { label: 'Restore', message: BookingsMessages.delegateUpdated },
};

/** The actions each state offers (contracts DELEGATE_STATUSES): remove is separate, behind a confirmation. */
export function actionsFor(status: DelegateStatus): { actions: Action[]; removable: boolean } {
  switch (status) {
    case 'requested':
      return { actions: ['approve', 'reject'], removable: false };
    case 'pending':
      return { actions: ['accept', 'decline'], removable: true };
    case 'accepted':
    case 'offered':
    case 'waitlisted':
      return { actions: [], removable: true };
    case 'declined':
    case 'deleted':
      return { actions: ['restore'], removable: false };
  }
}

/** "2nd on the waiting list", "Offered until 26/11/2026 14:00". */
export function delegateNote(
  d: Pick<DelegateView, 'status' | 'waitlist_position' | 'offer_expires_at'>,
): string | null {
  if (d.status === 'waitlisted' && d.waitlist_position)
    return `Number ${d.waitlist_position} on the waiting list`;
  if (d.status === 'offered' && d.offer_expires_at)
    return `Offered until ${formatDateTime(d.offer_expires_at)}`;
  return null;
}

/** The session's delegates with their states as badges and each state's actions; add people in scope. */
export function DelegatesCard({ session }: { session: TrainingSessionView }) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<DelegateStatus | ''>('');
  const delegates = useDelegates(session.id, { page, status: status || undefined });
  const [removing, setRemoving] = useState<DelegateView | null>(null);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const manage = session.can.manage_delegates;
  const open = session.status === 'scheduled' || session.status === 'confirmed';

  const act = async (d: DelegateView, action: Action) => {
    setBusy(`${d.id}-${action}`);
    try {
      await bookingAction(
        queryClient,
        () => api.post(`/delegates/${d.id}/${action}`),
        ACTIONS[action].message,
      );
    } catch {
      // shown as a notification
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<DelegateView>[] = [
    {
      key: 'person',
      header: 'Delegate',
      render: (d) => (
        <span className="flex flex-col">
          <Link
            to={`/users/${d.user.uuid}`}
            className="focus-ring rounded font-medium text-primary-800 hover:underline"
          >
            {d.user.name}
          </Link>
          <span className="text-xs text-slate-600">{d.entity.name}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'State',
      render: (d) => (
        <span className="flex flex-col items-start gap-1">
          <Badge tone={DELEGATE_STATUS[d.status].tone}>{DELEGATE_STATUS[d.status].label}</Badge>
          {delegateNote(d) ? <span className="text-xs text-slate-600">{delegateNote(d)}</span> : null}
        </span>
      ),
    },
    {
      key: 'attendance',
      header: 'Attendance',
      hideOnMobile: true,
      render: (d) =>
        d.attendance ? (
          <span>
            {ATTENDANCE_LABEL[d.attendance]}
            {d.score !== null ? ` · ${d.score}` : ''}
            {d.passed !== null ? ` · ${d.passed ? 'passed' : 'not passed'}` : ''}
          </span>
        ) : d.checked_in_at ? (
          'Checked in'
        ) : (
          '—'
        ),
    },
    {
      key: 'booked',
      header: 'Booked',
      hideOnMobile: true,
      render: (d) => (
        <span className="text-xs text-slate-600">
          {formatDateTime(d.created_at)}
          {d.booked_by ? ` by ${d.booked_by.name}` : ''}
          {d.order_id ? ' (training order)' : ''}
        </span>
      ),
    },
  ];

  return (
    <Card
      title={`Delegates (${session.places_taken} of ${session.maxDelegates} places${session.waitlist_count ? `, ${session.waitlist_count} waiting` : ''})`}
      padded={false}
      data-testid="delegates"
      actions={
        manage && open ? (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add delegates
          </Button>
        ) : undefined
      }
    >
      <div className="border-b border-slate-200 p-4">
        <div className="max-w-xs">
          <Select
            label="Show"
            options={[
              { value: '', label: 'Every state' },
              ...DELEGATE_STATUSES.map((s) => ({ value: s, label: DELEGATE_STATUS[s].label })),
            ]}
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as DelegateStatus | '');
              setPage(1);
            }}
          />
        </div>
      </div>
      <DataTable
        caption="Delegates"
        columns={columns}
        rows={delegates.data?.data}
        rowKey={(d) => d.id}
        loading={delegates.isLoading}
        empty={
          <EmptyState
            title={status ? 'No delegates in this state' : 'No delegates yet'}
            description={
              manage && open
                ? `Add people from your ${organisationsWord(wl).toLowerCase()}, or they book it themselves under Your bookings.`
                : 'People who book appear here.'
            }
            action={
              manage && open && !status ? (
                <Button size="sm" onClick={() => setAdding(true)}>
                  Add delegates
                </Button>
              ) : undefined
            }
          />
        }
        rowActions={
          // A finished or cancelled session's delegates stay as they were.
          manage && open
            ? (d) => {
                const { actions, removable } = actionsFor(d.status);
                return (
                  <>
                    {actions.map((a) => (
                      <Button
                        key={a}
                        variant="ghost"
                        size="sm"
                        loading={busy === `${d.id}-${a}`}
                        onClick={() => void act(d, a)}
                        aria-label={`${ACTIONS[a].label} ${d.user.name}`}
                      >
                        {ACTIONS[a].label}
                      </Button>
                    ))}
                    {removable ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setRemoving(d)}
                        aria-label={`Remove ${d.user.name}`}
                      >
                        Remove
                      </Button>
                    ) : null}
                  </>
                );
              }
            : undefined
        }
      />
      <CardPagination meta={delegates.data?.meta} onPageChange={setPage} label="Delegate pages" />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this delegate?"
        message={
          removing
            ? `${removing.user.name} will lose their ${removing.status === 'waitlisted' ? 'place on the waiting list' : 'place'} and be told. The place goes to the waiting list.`
            : null
        }
        confirmLabel="Remove"
        onConfirm={() =>
          removing
            ? bookingAction(
                queryClient,
                () => api.delete(`/delegates/${removing.id}`),
                BookingsMessages.delegateDeleted,
              )
            : undefined
        }
        onClose={() => setRemoving(null)}
      />
      <AddDelegatesDialog session={session} open={adding} onClose={() => setAdding(false)} />
    </Card>
  );
}

/** People chosen one by one (a searchable picker) and added in one request. */
export function PeopleChooser({
  chosen,
  onChange,
  label,
  error,
}: {
  chosen: PickItem[];
  onChange: (people: PickItem[]) => void;
  label: string;
  error?: string[];
}) {
  return (
    <div className="space-y-2">
      <Picker
        label={label}
        queryKey="people"
        search={searchPeople}
        clearOnSelect
        placeholder="Type a name or e-mail"
        value={null}
        error={error}
        onChange={(p) => {
          if (p && !chosen.some((c) => c.id === p.id)) onChange([...chosen, p]);
        }}
      />
      {chosen.length ? (
        <ul className="flex flex-wrap gap-2" aria-label="Chosen people">
          {chosen.map((p) => (
            <li
              key={p.id}
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-sm text-slate-800"
            >
              {p.label}
              <button
                type="button"
                className="focus-ring inline-flex h-6 w-6 items-center justify-center rounded-full text-slate-600 hover:bg-slate-200"
                aria-label={`Remove ${p.label}`}
                onClick={() => onChange(chosen.filter((c) => c.id !== p.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function AddDelegatesDialog({
  session,
  open,
  onClose,
}: {
  session: TrainingSessionView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<PickItem[]>([]);
  const [errors, setErrors] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);
  const close = () => {
    setChosen([]);
    setErrors(undefined);
    onClose();
  };
  const submit = async () => {
    const parsed = AddDelegatesBody.safeParse({ users: chosen.map((c) => c.id) });
    if (!parsed.success) return setErrors(parsed.error.issues.map((i) => i.message));
    setBusy(true);
    try {
      await bookingAction(
        queryClient,
        () => api.post(`/training-sessions/${session.id}/delegates`, parsed.data),
        BookingsMessages.delegatesAdded,
      );
      close();
    } catch (error) {
      setErrors(serverFieldErrors(error).users);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={open}
      title="Add delegates"
      description={`${session.places_free} ${session.places_free === 1 ? 'place' : 'places'} free; anyone beyond that joins the waiting list.`}
      submitLabel={chosen.length > 1 ? `Add ${chosen.length} delegates` : 'Add delegate'}
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      <PeopleChooser label="People" chosen={chosen} onChange={setChosen} error={errors} />
    </FormDialog>
  );
}

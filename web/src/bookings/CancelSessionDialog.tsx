import { BookingsMessages, CancelSessionBody, type TrainingSessionView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../app/api';
import { type FieldErrors, serverFieldErrors, zodFieldErrors } from '../entities/shared';
import { FormDialog, Select, TextArea } from '../ui';
import { bookingAction, useCancellationReasons } from './api';

/** Cancel a session: a reason from GET /cancellation-reasons and notes; every delegate is told. */
export function CancelSessionDialog({
  session,
  open,
  onClose,
}: {
  session: TrainingSessionView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const reasons = useCancellationReasons(open);
  const [reason, setReason] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = CancelSessionBody.safeParse({
      cancellation_reason_id: reason ? Number(reason) : undefined,
      cancellation_notes: notes.trim() || null,
    });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      await bookingAction(
        queryClient,
        () => api.post(`/training-sessions/${session.id}/cancel`, parsed.data),
        BookingsMessages.sessionCancelled,
      );
      onClose();
    } catch (error) {
      setErrors(serverFieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const people = session.places_taken + session.waitlist_count;
  return (
    <FormDialog
      open={open}
      title="Cancel this session?"
      description={
        people > 0
          ? `The ${people} ${people === 1 ? 'person' : 'people'} booked or waiting will be told, and their calendar invites withdrawn.`
          : 'Nobody is booked yet.'
      }
      submitLabel="Cancel session"
      tone="danger"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <Select
        label="Reason"
        required
        placeholder={reasons.isLoading ? 'Loading reasons…' : 'Choose a reason'}
        options={(reasons.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        error={errors.cancellation_reason_id}
      />
      <TextArea
        label="Notes"
        hint="Shown to the delegates with the reason."
        maxLength={2000}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        error={errors.cancellation_notes}
      />
    </FormDialog>
  );
}

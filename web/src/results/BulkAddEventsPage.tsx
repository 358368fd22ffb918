import { BULK_EVENTS_MAX_USERS, type BulkOperationView, ResultsMessages } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { FormSection, SaveErrors, serverFieldErrors } from '../entities/shared';
import { Button, ButtonLink, PageHeader, Select, TextArea, TextField } from '../ui';
import { resultKeys, todayInput } from './api';
import { type BulkValues, bulkBody, bulkErrors, type FieldErrors } from './forms';
import { CoursePicker, UserPicker } from './Picker';

/**
 * `/users/bulk-add-events` (spec 1 §2): pick users, a course, a date and a result type; the server writes one result
 * per user in one transaction (all or nothing) and records the operation in the history.
 */
export default function BulkAddEventsPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<BulkValues>({
    users: [],
    course: null,
    completed_at: todayInput(),
    type: 'face2face',
    passed: true,
    score: '',
    notes: '',
  });
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<BulkValues>) => setValues((v) => ({ ...v, ...patch }));
  const serverErrors = serverFieldErrors(saveError);
  const fieldError = (name: string) => clientErrors[name] ?? serverErrors[name];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const errors = bulkErrors(values, todayInput());
    setClientErrors(errors);
    setSaveError(null);
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const res = await api.post<Envelope<BulkOperationView>>('/users/bulk-add-events', bulkBody(values));
      await queryClient.invalidateQueries({ queryKey: resultKeys.all });
      notifySuccess(`${res.data.message ?? ResultsMessages.bulkAdded} ${res.data.data.user_count} added.`);
      navigate('/users/bulk-add-events-history');
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <PageHeader
        title="Bulk add events"
        breadcrumbs={[{ label: 'Users', to: '/users' }, { label: 'Bulk add events' }]}
        description="Record one training event for many people at once, for example everyone who attended a session."
        actions={
          <ButtonLink variant="secondary" to="/users/bulk-add-events-history">
            History
          </ButtonLink>
        }
      />
      <SaveErrors error={saveError} clientErrors={clientErrors} />
      <FormSection
        title="Users"
        description={`Search and add each person (up to ${BULK_EVENTS_MAX_USERS}).`}
        columns={1}
      >
        <UserPicker
          label="Add a user"
          value={null}
          clearOnSelect
          onChange={(user) => {
            if (user && !values.users.some((u) => u.id === user.id)) set({ users: [...values.users, user] });
          }}
          error={fieldError('user_ids')}
        />
        {values.users.length ? (
          <ul className="flex flex-wrap gap-2" aria-label="Chosen users">
            {values.users.map((u) => (
              <li
                key={u.id}
                className="inline-flex items-center gap-1 rounded-full bg-primary-100 py-1 pr-1 pl-3 text-sm text-primary-900"
              >
                {u.label}
                <button
                  type="button"
                  className="focus-ring inline-flex h-6 w-6 items-center justify-center rounded-full hover:bg-primary-200"
                  aria-label={`Remove ${u.label}`}
                  onClick={() => set({ users: values.users.filter((x) => x.id !== u.id) })}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600">No users chosen yet.</p>
        )}
        {values.users.length ? (
          <p className="text-sm text-slate-700" aria-live="polite">
            {values.users.length} {values.users.length === 1 ? 'user' : 'users'} chosen.
          </p>
        ) : null}
      </FormSection>
      <FormSection title="Event">
        <CoursePicker
          value={values.course}
          onChange={(course) => set({ course })}
          error={fieldError('course_id')}
          required
        />
        <TextField
          label="Date"
          type="date"
          max={todayInput()}
          value={values.completed_at}
          onChange={(e) => set({ completed_at: e.target.value })}
          error={fieldError('completed_at')}
          required
        />
        <Select
          label="Result type"
          options={[
            { value: 'face2face', label: 'Face-to-face' },
            { value: 'historical', label: 'Historical' },
          ]}
          value={values.type}
          onChange={(e) => set({ type: e.target.value as BulkValues['type'] })}
          error={fieldError('type')}
        />
        <Select
          label="Outcome"
          options={[
            { value: 'passed', label: 'Passed' },
            { value: 'failed', label: 'Not passed' },
          ]}
          value={values.passed ? 'passed' : 'failed'}
          onChange={(e) => set({ passed: e.target.value === 'passed' })}
        />
        <TextField
          label="Score (%)"
          type="number"
          min={0}
          max={100}
          value={values.score}
          onChange={(e) => set({ score: e.target.value })}
          error={fieldError('score')}
          hint="Optional."
        />
        <div className="sm:col-span-2">
          <TextArea
            label="Notes"
            value={values.notes}
            onChange={(e) => set({ notes: e.target.value })}
            error={fieldError('notes')}
            maxLength={2000}
            hint="Optional: added to each user's result."
          />
        </div>
      </FormSection>
      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink variant="secondary" to="/users">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={saving}>
          {values.users.length > 1 ? `Add events for ${values.users.length} users` : 'Add events'}
        </Button>
      </div>
    </form>
  );
}

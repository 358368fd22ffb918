import { ResultsMessages, type ResultView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { FormSection, LoadError, LoadingCard, SaveErrors, serverFieldErrors } from '../entities/shared';
import { Button, ButtonLink, PageHeader, TextArea, TextField } from '../ui';
import { resultKeys, toDateInput, todayInput, useResult } from './api';
import { type ExemptValues, exemptBody, exemptErrors, type FieldErrors } from './forms';
import { CoursePicker, UserPicker } from './Picker';

/** `/results/exempt/create` and `/results/exempt/update/{id}` (spec 2 §2; issue 5 item 1). */
export default function ExemptFormPage() {
  const { id } = useParams();
  const result = useResult(id);
  if (id) {
    if (result.isLoading) return <LoadingCard lines={5} />;
    if (result.isError || !result.data)
      return (
        <LoadError
          error={result.error}
          fallback={ResultsMessages.fetchResultFailed}
          onRetry={() => void result.refetch()}
        />
      );
    if (result.data.type !== 'exempt')
      return <LoadError error={null} fallback="This result is not an exemption." />;
  }
  return <ExemptForm existing={id ? (result.data ?? null) : null} />;
}

function ExemptForm({ existing }: { existing: ResultView | null }) {
  const mode = existing ? 'update' : 'create';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // From a user's page: ?user_id=…&user_name=… names the person already.
  const [params] = useSearchParams();
  const presetId = Number(params.get('user_id'));
  const preset =
    Number.isInteger(presetId) && presetId > 0
      ? { id: presetId, label: params.get('user_name') || `User ${presetId}` }
      : null;
  const [values, setValues] = useState<ExemptValues>(() => ({
    user: existing ? { id: existing.user.id, label: existing.user.name } : preset,
    course: existing ? { id: existing.course.id, label: existing.course.title } : null,
    start_date: existing ? toDateInput(existing.completed_at) : todayInput(),
    end_date: existing ? toDateInput(existing.expires_at) : '',
    notes: existing?.notes ?? '',
  }));
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<ExemptValues>) => setValues((v) => ({ ...v, ...patch }));
  const serverErrors = serverFieldErrors(saveError);
  const fieldError = (name: string) => clientErrors[name] ?? serverErrors[name];

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const errors = exemptErrors(values, mode, todayInput(), existing ? toDateInput(existing.expires_at) : '');
    setClientErrors(errors);
    setSaveError(null);
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const body = exemptBody(values, mode);
      const res = existing
        ? await api.patch<Envelope<ResultView>>(`/results/exempt/${existing.id}`, body)
        : await api.post<Envelope<ResultView>>('/results/exempt', body);
      await queryClient.invalidateQueries({ queryKey: resultKeys.all });
      notifySuccess(res.data.message ?? ResultsMessages.exemptUpdated);
      navigate('/results/exempt');
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  const title = existing ? 'Edit exemption' : 'Add an exemption';
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <PageHeader
        title={title}
        breadcrumbs={[{ label: 'Exemptions', to: '/results/exempt' }, { label: title }]}
        description="An exempt user shows as exempt from the course, and counts as compliant, from the start date until the end date (or for good without one)."
      />
      <SaveErrors error={saveError} clientErrors={clientErrors} />
      <FormSection title="Exemption">
        {existing ? (
          <TextField label="User" value={existing.user.name} readOnly disabled />
        ) : (
          <UserPicker
            value={values.user}
            onChange={(user) => set({ user })}
            error={fieldError('user_id')}
            required
          />
        )}
        <CoursePicker
          value={values.course}
          onChange={(course) => set({ course })}
          error={fieldError('course_id')}
          required
        />
        <TextField
          label="Start date"
          type="date"
          max={todayInput()}
          value={values.start_date}
          onChange={(e) => set({ start_date: e.target.value })}
          error={fieldError('start_date')}
          required
        />
        <TextField
          label="End date"
          type="date"
          min={values.start_date || undefined}
          value={values.end_date}
          onChange={(e) => set({ end_date: e.target.value })}
          error={fieldError('end_date')}
          hint="Optional: the day the course is required again (they get a reminder before it). Leave empty for an exemption that does not end."
        />
        <div className="sm:col-span-2">
          <TextArea
            label="Reason"
            value={values.notes}
            onChange={(e) => set({ notes: e.target.value })}
            error={fieldError('notes')}
            maxLength={2000}
            required
            hint="Why this user is exempt: shown in the exemptions list, on their compliance courses and in the inspection pack."
          />
        </div>
      </FormSection>
      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink variant="secondary" to="/results/exempt">
          Cancel
        </ButtonLink>
        <Button type="submit" loading={saving}>
          {existing ? 'Save changes' : 'Add exemption'}
        </Button>
      </div>
    </form>
  );
}

import { formatDate, ResultsMessages, ResultsPerm, type ResultView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { api, buildUrl, type Envelope } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { FormSection, LoadError, LoadingCard, SaveErrors, serverFieldErrors } from '../entities/shared';
import { Badge, Button, ButtonLink, Checkbox, PageHeader, Select, TextArea, TextField } from '../ui';
import { formatBytes, formatDay, resultKeys, toDateInput, todayInput, useResult } from './api';
import { type FieldErrors, type HistoricalValues, historicalErrors, historicalFormData } from './forms';
import { CoursePicker, SelfCoursePicker, UserPicker } from './Picker';

const EMPTY: HistoricalValues = {
  user: null,
  course: null,
  completed_at: '',
  passed: true,
  score: '',
  notes: '',
  evidence: null,
  remove_evidence: false,
};

/** `/results/historical/create` and `/results/historical/update/{id}` (spec 2 §2; issue 5 item 1). */
export default function HistoricalFormPage() {
  const { id } = useParams();
  const mode = id ? 'update' : 'create';
  const result = useResult(id);
  if (mode === 'update') {
    if (result.isLoading) return <LoadingCard lines={6} />;
    if (result.isError || !result.data)
      return (
        <LoadError
          error={result.error}
          fallback={ResultsMessages.fetchResultFailed}
          onRetry={() => void result.refetch()}
        />
      );
    if (result.data.type !== 'historical')
      return <LoadError error={null} fallback="This result is not a historical result." />;
  }
  return <HistoricalForm mode={mode} existing={result.data ?? null} />;
}

function HistoricalForm({ mode, existing }: { mode: 'create' | 'update'; existing: ResultView | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canAdd = usePermission([ResultsPerm.addRecord]);
  const me = useAuth().user;
  const [params] = useSearchParams();
  // Self mode: a carer records their own past training (without 26, or opened as ?self=1). The person is the
  // signed-in user (no user picker: GET /users needs 24), the courses come from GET /results/courses?self=1, and
  // the server keeps the result pending until a manager approves it.
  const self = mode === 'create' && (!canAdd || params.get('self') === '1');
  // From a user's page: ?user_id=…&user_name=… names the person already (the picker can still change it).
  const presetId = Number(params.get('user_id'));
  const preset =
    Number.isInteger(presetId) && presetId > 0
      ? { id: presetId, label: params.get('user_name') || `User ${presetId}` }
      : null;
  const [values, setValues] = useState<HistoricalValues>(() =>
    self && me
      ? { ...EMPTY, user: { id: me.id, label: me.name } }
      : existing
        ? {
            ...EMPTY,
            user: { id: existing.user.id, label: existing.user.name },
            course: { id: existing.course.id, label: existing.course.title },
            completed_at: toDateInput(existing.completed_at),
            passed: existing.passed,
            score: existing.score === null ? '' : String(existing.score),
            notes: existing.notes ?? '',
          }
        : { ...EMPTY, user: preset },
  );
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const fileId = useId();
  const set = (patch: Partial<HistoricalValues>) => setValues((v) => ({ ...v, ...patch }));
  const serverErrors = serverFieldErrors(saveError);
  const fieldError = (name: string) => clientErrors[name] ?? serverErrors[name];

  useEffect(() => {
    if (existing) document.title = `Edit historical result · ${existing.user.name}`;
  }, [existing]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const errors = historicalErrors(values, todayInput(), mode);
    setClientErrors(errors);
    setSaveError(null);
    if (Object.keys(errors).length) return;
    setSaving(true);
    try {
      const form = historicalFormData(values, mode);
      const res =
        mode === 'create'
          ? await api.upload<Envelope<ResultView>>('/results/historical/create', form)
          : await api.upload<Envelope<ResultView>>(`/results/historical/${existing?.id}`, form, {
              method: 'PATCH',
            });
      await queryClient.invalidateQueries({ queryKey: resultKeys.all });
      if (self) {
        const saved = res.data.data;
        notifySuccess(
          saved.status === 'pending'
            ? `Your training record for ${saved.course.title} (completed ${formatDate(saved.completed_at)}) has been sent to your manager and awaits their approval. It will count once approved.`
            : `Your training record for ${saved.course.title} (completed ${formatDate(saved.completed_at)}) has been added.`,
        );
        navigate('/');
        return;
      }
      notifySuccess(res.data.message ?? ResultsMessages.historicalUpdated);
      if (mode === 'create') navigate(`/results/historical/update/${res.data.data.id}`);
      else {
        queryClient.setQueryData(resultKeys.one(String(res.data.data.id)), res.data.data);
        set({ evidence: null, remove_evidence: false });
      }
    } catch (error) {
      setSaveError(error);
    } finally {
      setSaving(false);
    }
  };

  const title = self
    ? 'Add training record'
    : mode === 'create'
      ? 'Add a historical result'
      : 'Edit historical result';
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <PageHeader
        title={title}
        breadcrumbs={[self ? { label: 'Home', to: '/' } : { label: 'Users', to: '/users' }, { label: title }]}
        description={
          mode === 'create' ? (
            !self ? (
              'Record training someone completed before, or outside, this system.'
            ) : (
              'Record training you completed before, or elsewhere (for example with a previous employer). Your manager checks it, and it counts once they approve it.'
            )
          ) : existing ? (
            <span className="inline-flex flex-wrap items-center gap-2">
              {existing.user.name} · recorded {formatDay(existing.created_at)}
              {existing.status === 'pending' ? <Badge tone="warning">Awaiting approval</Badge> : null}
            </span>
          ) : null
        }
      />
      <SaveErrors error={saveError} clientErrors={clientErrors} />
      <FormSection title={self ? 'Training' : 'Result'}>
        {self ? (
          <TextField
            label="Training record for"
            value={me ? `${me.name} (you)` : ''}
            readOnly
            disabled
            error={fieldError('user_id')}
          />
        ) : mode === 'create' ? (
          <UserPicker
            value={values.user}
            onChange={(user) => set({ user })}
            error={fieldError('user_id')}
            required
          />
        ) : (
          <TextField label="User" value={existing?.user.name ?? ''} readOnly disabled />
        )}
        {self ? (
          <SelfCoursePicker
            value={values.course}
            onChange={(course) => set({ course })}
            error={fieldError('course_id')}
            required
          />
        ) : (
          <CoursePicker
            value={values.course}
            onChange={(course) => set({ course })}
            error={fieldError('course_id')}
            required
          />
        )}
        <TextField
          label="Completed date"
          type="date"
          max={todayInput()}
          value={values.completed_at}
          onChange={(e) => set({ completed_at: e.target.value })}
          error={fieldError('completed_at')}
          required
        />
        <Select
          label="Outcome"
          options={[
            { value: 'passed', label: 'Passed' },
            { value: 'failed', label: 'Not passed' },
          ]}
          value={values.passed ? 'passed' : 'failed'}
          onChange={(e) => set({ passed: e.target.value === 'passed' })}
          error={fieldError('passed')}
        />
        <TextField
          label="Score (%)"
          type="number"
          inputMode="decimal"
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
            hint="Optional: where and how the training took place."
          />
        </div>
      </FormSection>
      <FormSection
        title="Evidence"
        description="A certificate or record of attendance: PDF, PNG or JPEG, up to 5 MB."
        columns={1}
      >
        {existing?.evidence && !values.remove_evidence ? (
          <p className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
            <a
              className="focus-ring rounded font-medium text-primary-800 underline"
              href={buildUrl(`/results/${existing.id}/evidence`)}
              download
            >
              {existing.evidence.name}
            </a>
            <span className="text-slate-600">{formatBytes(existing.evidence.size_bytes)}</span>
          </p>
        ) : null}
        <div className="space-y-1.5">
          <label htmlFor={fileId} className="block text-sm font-medium text-slate-800">
            {existing?.evidence ? 'Replace the evidence file' : 'Evidence file'}
          </label>
          <input
            id={fileId}
            type="file"
            accept=".pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg"
            onChange={(e) => set({ evidence: e.target.files?.[0] ?? null })}
            aria-invalid={fieldError('evidence') ? true : undefined}
            aria-describedby={fieldError('evidence') ? `${fileId}-error` : undefined}
            className="block w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-primary-900 hover:file:bg-primary-200"
          />
          {fieldError('evidence') ? (
            <p id={`${fileId}-error`} className="text-sm text-danger-700">
              {fieldError('evidence')?.join(' ')}
            </p>
          ) : null}
        </div>
        {existing?.evidence ? (
          <Checkbox
            label="Remove the current evidence file"
            checked={values.remove_evidence}
            onChange={(e) => set({ remove_evidence: e.target.checked })}
          />
        ) : null}
      </FormSection>
      <div className="flex flex-wrap justify-end gap-3">
        <ButtonLink
          variant="secondary"
          to={self ? '/' : existing ? `/users/${existing.user.uuid}` : '/users'}
        >
          Cancel
        </ButtonLink>
        <Button type="submit" loading={saving}>
          {self ? 'Send for approval' : mode === 'create' ? 'Add result' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}

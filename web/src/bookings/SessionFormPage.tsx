import {
  AVAILABLE_TO,
  type AvailableTo,
  BookingsMessages,
  GRADING_METHODS,
  type GradingMethod,
  Perm,
  type TrainingSessionBody,
  type TrainingSessionView,
} from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { useEntityOptions } from '../entities/queries';
import {
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
} from '../entities/shared';
import { Picker } from '../results/Picker';
import { Button, ButtonLink, Checkbox, PageHeader, Select, TextArea, TextField } from '../ui';
import { bookingKeys, searchFace2face, searchTrainers, useSession, useSessionNotFound } from './api';
import { AVAILABLE_TO_LABEL, GRADING_LABEL } from './labels';
import {
  changedFields,
  emptySession,
  formErrorsOf,
  newDay,
  runByOptions,
  type SessionFormValues,
  sessionBody,
  sessionValues,
} from './session-form';

/** `/manage-bookings/new` and `/manage-bookings/:id/edit`: every field of the contract's training session. */
export default function SessionFormPage() {
  const { id } = useParams();
  const session = useSession(id);
  useSessionNotFound(session.error);
  if (id && session.isLoading) return <LoadingCard label="Loading the session" />;
  if (id && (session.isError || !session.data))
    return (
      <LoadError
        error={session.error}
        fallback="The session could not be loaded."
        onRetry={() => void session.refetch()}
      />
    );
  return <SessionForm key={id ?? 'new'} session={session.data ?? null} />;
}

function SessionForm({ session }: { session: TrainingSessionView | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SessionFormValues>(() =>
    session ? sessionValues(session) : emptySession(),
  );
  const initial = useMemo(() => {
    if (!session) return null;
    const parsed = sessionBody(sessionValues(session));
    return parsed.ok ? parsed.body : null;
  }, [session]);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const can = usePermissionChecker();
  const actingAs = useActingAs();
  const { user } = useAuth();
  // GET /entities asks for 22: without it the session belongs to the user's own organisation.
  const canChooseEntity = can([Perm.searchEntities]);
  const entities = useEntityOptions(canChooseEntity);
  const set = (patch: Partial<SessionFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const mutation = useMutation({
    mutationFn: async (body: Partial<TrainingSessionBody>) =>
      session
        ? (await api.patch<Envelope<TrainingSessionView>>(`/training-sessions/${session.id}`, body)).data
        : (await api.post<Envelope<TrainingSessionView>>('/training-sessions', body)).data,
    onSuccess: async (res) => {
      notifySuccess(
        res.message ?? (session ? BookingsMessages.sessionUpdated : BookingsMessages.sessionCreated),
      );
      await queryClient.invalidateQueries({ queryKey: bookingKeys.all });
      navigate(`/manage-bookings/${res.data.id}`);
    },
  });
  useEffect(() => {
    if (mutation.isError) window.scrollTo?.({ top: 0 });
  }, [mutation.isError]);
  const errors: FieldErrors = { ...formErrorsOf(serverFieldErrors(mutation.error)), ...clientErrors };
  const err = (key: string) => errors[key];

  const submit = () => {
    const result = sessionBody(values);
    if (!result.ok) {
      setClientErrors(result.errors);
      window.scrollTo?.({ top: 0 });
      return;
    }
    setClientErrors({});
    if (!session) return mutation.mutate(result.body);
    const changed = initial ? changedFields(result.body, initial) : result.body;
    if (!Object.keys(changed).length) {
      notifySuccess('Nothing to save: no field has changed.');
      return;
    }
    mutation.mutate(changed);
  };

  const title = session ? `Edit ${session.content.title}` : 'New session';
  const setDay = (i: number, patch: Partial<SessionFormValues['days'][number]>) =>
    set({ days: values.days.map((d, j) => (j === i ? { ...d, ...patch } : d)) });
  return (
    <div>
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: 'Manage bookings', to: '/manage-bookings' },
          ...(session ? [{ label: session.content.title, to: `/manage-bookings/${session.id}` }] : []),
          { label: session ? 'Edit' : 'New session' },
        ]}
      />
      <form
        noValidate
        className="max-w-4xl space-y-5 pb-16 sm:pb-0"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <SaveErrors error={mutation.error} clientErrors={clientErrors} />
        <FormSection title="What and who">
          {canChooseEntity ? (
            <div className="sm:col-span-2">
              <Select
                label="Run by"
                placeholder={
                  session ? undefined : (actingAs?.name ?? user?.primary_entity.name ?? 'Your own')
                }
                options={runByOptions(
                  entities.data ?? [],
                  actingAs?.id ?? user?.primary_entity.id,
                  Boolean(session),
                )}
                value={values.entity_id}
                disabled={Boolean(session)}
                onChange={(e) => set({ entity_id: e.target.value })}
                error={err('entity_id')}
                hint={
                  session
                    ? 'A session stays with the organisation that runs it.'
                    : 'Whose session this is: its staff may book it, and its managers manage it.'
                }
              />
            </div>
          ) : null}
          <Picker
            label="Face-to-face content"
            queryKey="face2face-content"
            search={searchFace2face}
            required
            value={values.content}
            onChange={(content) => set({ content })}
            error={err('contentId')}
            hint="The course's face-to-face content this session delivers."
          />
          <Picker
            label="Trainer"
            queryKey="trainers"
            search={searchTrainers}
            placeholder="Choose a trainer"
            value={values.trainer}
            onChange={(trainer) => set({ trainer })}
            error={err('trainerId')}
            hint="People marked as trainers. They see the session under My sessions and mark attendance."
          />
        </FormSection>

        <FormSection
          title="Dates and times"
          columns={1}
          description="Times are UK time. A session over several days has one line per day."
        >
          <ol className="space-y-3">
            {values.days.map((d, i) => (
              <li
                key={d.key}
                className="grid grid-cols-1 gap-3 rounded-lg bg-slate-50 p-3 sm:grid-cols-[1fr_8rem_8rem_auto] sm:items-start"
              >
                <TextField
                  label={values.days.length > 1 ? `Day ${i + 1} date` : 'Date'}
                  type="date"
                  required
                  value={d.date}
                  onChange={(e) => setDay(i, { date: e.target.value })}
                  error={err(`days.${i}.date`)}
                />
                <TextField
                  label="Starts"
                  type="time"
                  required
                  value={d.startTime}
                  onChange={(e) => setDay(i, { startTime: e.target.value })}
                  error={err(`days.${i}.startTime`)}
                />
                <TextField
                  label="Ends"
                  type="time"
                  required
                  value={d.endTime}
                  onChange={(e) => setDay(i, { endTime: e.target.value })}
                  error={err(`days.${i}.endTime`)}
                />
                {i > 0 ? (
                  <div className="sm:pt-7">
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => set({ days: values.days.filter((_, j) => j !== i) })}
                      aria-label={`Remove day ${i + 1}`}
                    >
                      Remove
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ol>
          {err('additionalDates') ? (
            <p className="text-sm text-danger-700">{err('additionalDates')?.join(' ')}</p>
          ) : null}
          <div>
            <Button
              variant="secondary"
              size="sm"
              disabled={values.days.length >= 31}
              onClick={() => {
                const last = values.days[values.days.length - 1];
                set({ days: [...values.days, newDay('', last?.startTime, last?.endTime)] });
              }}
            >
              Add another day
            </Button>
          </div>
        </FormSection>

        <FormSection title="Where">
          <div className="sm:col-span-2">
            <Checkbox
              label="Online (virtual) session"
              hint="Delegates join by a link instead of coming to a venue."
              checked={values.virtual}
              onChange={(e) => set({ virtual: e.target.checked })}
            />
          </div>
          {values.virtual ? (
            <div className="sm:col-span-2">
              <TextField
                label="Joining link"
                type="url"
                required
                placeholder="https://"
                value={values.virtual_url}
                onChange={(e) => set({ virtual_url: e.target.value })}
                error={err('virtual_url')}
                hint="A web link (https://…), shown to booked delegates with its address, e.g. “Join on meet.example”."
              />
            </div>
          ) : (
            <>
              <TextField
                label="Venue"
                value={values.venue}
                maxLength={200}
                onChange={(e) => set({ venue: e.target.value })}
                error={err('venue')}
                hint="The building and address."
              />
              <TextField
                label="Room"
                value={values.room}
                maxLength={100}
                onChange={(e) => set({ room: e.target.value })}
                error={err('room')}
              />
            </>
          )}
          <TextField
            label="Area"
            value={values.area}
            maxLength={200}
            onChange={(e) => set({ area: e.target.value })}
            error={err('area')}
            hint="The region, so people can find sessions near them."
          />
        </FormSection>

        <FormSection title="About the session" columns={1}>
          <TextArea
            label="Aim"
            value={values.aim}
            maxLength={2000}
            onChange={(e) => set({ aim: e.target.value })}
            error={err('aim')}
          />
          <TextArea
            label="Content covered"
            value={values.contentCovered}
            maxLength={5000}
            onChange={(e) => set({ contentCovered: e.target.value })}
            error={err('contentCovered')}
          />
          <TextArea
            label="Learning outcomes"
            value={values.learningOutcomes}
            maxLength={5000}
            onChange={(e) => set({ learningOutcomes: e.target.value })}
            error={err('learningOutcomes')}
          />
        </FormSection>

        <FormSection title="Places and grading">
          <Select
            label="Available to"
            options={AVAILABLE_TO.map((a) => ({ value: a, label: AVAILABLE_TO_LABEL[a].label }))}
            value={values.availableTo}
            onChange={(e) => set({ availableTo: e.target.value as AvailableTo })}
            error={err('availableTo')}
            hint={AVAILABLE_TO_LABEL[values.availableTo].hint}
          />
          <Select
            label="Grading"
            options={GRADING_METHODS.map((g) => ({ value: g, label: GRADING_LABEL[g].label }))}
            value={values.grading_method}
            onChange={(e) => set({ grading_method: e.target.value as GradingMethod })}
            error={err('grading_method')}
            hint={GRADING_LABEL[values.grading_method].hint}
          />
          <TextField
            label="Fewest delegates"
            type="number"
            inputMode="numeric"
            min={0}
            max={500}
            value={values.minDelegates}
            onChange={(e) => set({ minDelegates: e.target.value })}
            error={err('minDelegates')}
            hint="Below this at the decision time, the session is cancelled or confirmed per the provider's settings."
          />
          <TextField
            label="Most delegates"
            type="number"
            inputMode="numeric"
            min={1}
            max={500}
            required
            value={values.maxDelegates}
            onChange={(e) => set({ maxDelegates: e.target.value })}
            error={err('maxDelegates')}
            hint="Places on the session; more bookings join the waiting list."
          />
          {values.grading_method === 'score' ? (
            <TextField
              label="Pass mark"
              type="number"
              inputMode="numeric"
              min={0}
              max={100}
              required
              value={values.pass_mark}
              onChange={(e) => set({ pass_mark: e.target.value })}
              error={err('pass_mark')}
              hint="The lowest score out of 100 that passes."
            />
          ) : null}
        </FormSection>

        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <ButtonLink
            variant="secondary"
            to={session ? `/manage-bookings/${session.id}` : '/manage-bookings'}
          >
            Cancel
          </ButtonLink>
          <Button type="submit" loading={mutation.isPending}>
            {session ? 'Save changes' : 'Create session'}
          </Button>
        </div>
      </form>
    </div>
  );
}

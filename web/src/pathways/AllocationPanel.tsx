import {
  type AllocationStepView,
  type AllocationView,
  formatDate,
  formatDateTime,
  PathwayMessages,
  SignOffAllocationBody,
  SignOffStepBody,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { londonToday } from '../bookings/LearnerSessionParts';
import { Meter } from '../care-certificate/StandardsAccordion';
import { type FieldErrors, LoadError, LoadingCard, zodFieldErrors } from '../entities/shared';
import { Badge, Button, Card, FormDialog, FormError, TextArea, TextField } from '../ui';
import { signOffAllocation, signOffStep, submitDialogAction, useAllocation } from './api';
import { CourseStepAction } from './CourseStepAction';
import { ALLOCATION_STATUS, STEP_STATUS, STEP_TYPE } from './labels';
import { progressText } from './MyPathways';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/**
 * One person's allocation: each step with its status (locked, to do, overdue, done), due date and evidence; the
 * sign-off buttons for a manager (`can.sign_off`: sign-off steps, then the final sign-off when awaiting it). `own`:
 * the learner's view, with a link to do each step and what is waiting for a manager.
 */
export function AllocationPanel({
  uuid,
  own,
  onClose,
}: {
  uuid: string;
  own: boolean;
  onClose?: () => void;
}) {
  const q = useAllocation(uuid);
  if (q.isLoading) return <LoadingCard lines={4} label="Loading the allocation" />;
  if (q.isError || !q.data)
    return <LoadError error={q.error} fallback="This allocation could not be loaded." onRetry={q.refetch} />;
  return <AllocationDetail a={q.data} own={own} onClose={onClose} />;
}

function AllocationDetail({ a, own, onClose }: { a: AllocationView; own: boolean; onClose?: () => void }) {
  const [signing, setSigning] = useState<AllocationStepView | null>(null);
  const [finalOpen, setFinalOpen] = useState(false);
  const status = ALLOCATION_STATUS[a.status];
  const live = a.status === 'in_progress' || a.status === 'awaiting_sign_off';
  return (
    <Card
      title={own ? 'Your progress' : a.user.name}
      padded={false}
      data-testid="allocation-panel"
      actions={
        onClose ? (
          <Button variant="secondary" size="sm" onClick={onClose}>
            Close
          </Button>
        ) : undefined
      }
    >
      <div className="space-y-3 border-b border-slate-200 p-4 sm:px-5">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
          <Badge tone={status.tone}>{status.label}</Badge>
          <span>Given {formatDate(a.allocated_at)}</span>
          {a.via_role ? (
            <span>
              Through the job role {a.via_role.role.name} of {a.via_role.entity.name}
            </span>
          ) : null}
          {a.version !== a.current_version ? (
            <span>
              On version {a.version} (current: {a.current_version})
            </span>
          ) : null}
          {a.completed_at ? <span>Completed {formatDate(a.completed_at)}</span> : null}
        </div>
        <Meter done={a.steps_done} total={a.steps_total} label="Steps done" />
        <p className="text-xs text-slate-600">
          {progressText(a)}
          {a.sequential ? ' · steps in order' : ' · steps in any order'}
        </p>
        {a.status === 'awaiting_sign_off' ? (
          <p className="rounded-lg bg-warning-100 px-3 py-2 text-sm text-warning-800">
            {own
              ? 'Every step is done. Your manager now signs the pathway off.'
              : 'Every step is done: this pathway is waiting for its final sign-off.'}
          </p>
        ) : null}
        {a.signed_off ? (
          <p className="text-sm text-slate-700">
            Signed off {formatDateTime(a.signed_off.at)}
            {a.signed_off.by ? ` by ${a.signed_off.by.name}` : ''}
            {a.signed_off.note ? `: ${a.signed_off.note}` : ''}
          </p>
        ) : null}
        {!own && a.can.sign_off && a.status === 'awaiting_sign_off' ? (
          <Button onClick={() => setFinalOpen(true)}>Sign off the pathway</Button>
        ) : null}
      </div>
      <ol className="divide-y divide-slate-100" aria-label="Steps">
        {a.steps.map((step, i) => (
          <li key={step.key} className="space-y-1 p-4 sm:px-5" data-testid="allocation-step">
            <StepLine
              step={step}
              index={i}
              own={own}
              previous={a.steps[i - 1]}
              sequential={a.sequential}
              onSignOff={!own && live && a.can.sign_off ? () => setSigning(step) : undefined}
            />
          </li>
        ))}
      </ol>
      {a.result_id ? (
        <p className="border-t border-slate-200 p-4 text-sm text-slate-700 sm:px-5">
          The completed pathway is recorded in {own ? 'your' : 'their'} training history.
        </p>
      ) : null}
      <SignOffStepDialog allocation={a} step={signing} onClose={() => setSigning(null)} />
      <SignOffAllocationDialog allocation={a} open={finalOpen} onClose={() => setFinalOpen(false)} />
    </Card>
  );
}

/** Opens a step's page: an app path in the app, anything else as an ordinary link. */
function StepLink({ href, children }: { href: string; children: React.ReactNode }) {
  return href.startsWith('/') ? (
    <Link to={href} className={linkClass}>
      {children}
    </Link>
  ) : (
    <a href={href} className={linkClass}>
      {children}
    </a>
  );
}

function StepLine({
  step,
  index,
  own,
  previous,
  sequential,
  onSignOff,
}: {
  step: AllocationStepView;
  index: number;
  own: boolean;
  previous: AllocationStepView | undefined;
  sequential: boolean;
  onSignOff?: () => void;
}) {
  const status = STEP_STATUS[step.status];
  const doable = step.status === 'to_do' || step.status === 'overdue';
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">
          <span className="text-slate-600">
            {index + 1}. {STEP_TYPE[step.type]}:
          </span>{' '}
          {own && doable && step.type === 'document' && step.href ? (
            <StepLink href={step.href}>{step.title}</StepLink>
          ) : (
            step.title
          )}
        </h3>
        <Badge tone={status.tone}>{status.label}</Badge>
      </div>
      {step.description ? <p className="text-sm text-slate-700">{step.description}</p> : null}
      <p className="flex flex-wrap gap-x-3 text-xs text-slate-600">
        {step.due_on ? (
          <span className={step.status === 'overdue' ? 'font-semibold text-danger-700' : undefined}>
            Due {formatDate(step.due_on)}
          </span>
        ) : null}
        {step.done_at ? <span>Done {formatDate(step.done_at)}</span> : null}
      </p>
      {own && doable && step.type === 'course' && step.course ? (
        <CourseStepAction courseId={step.course.id} title={step.title} />
      ) : null}
      {own && doable && step.type === 'document' && step.href ? (
        <StepLink href={step.href}>Read and acknowledge</StepLink>
      ) : null}
      {step.status === 'locked' ? (
        <p className="text-xs text-slate-600">
          {sequential && previous
            ? `Opens once step ${index}, ${previous.title}, is done.`
            : 'Opens once the earlier steps are done.'}
        </p>
      ) : null}
      {step.sign_off ? (
        <p className="text-xs text-slate-700">
          Signed off {formatDate(step.sign_off.signed_on)}
          {step.sign_off.signed_by ? ` by ${step.sign_off.signed_by.name}` : ''}: {step.sign_off.note}
        </p>
      ) : step.type === 'sign_off' && doable ? (
        own ? (
          <p className="text-xs text-slate-700">Waiting for a manager or assessor to sign this off.</p>
        ) : onSignOff ? (
          <Button size="sm" onClick={onSignOff} aria-label={`Sign off: ${step.title}`}>
            Sign off
          </Button>
        ) : null
      ) : null}
    </>
  );
}

function SignOffStepDialog({
  allocation,
  step,
  onClose,
}: {
  allocation: AllocationView;
  step: AllocationStepView | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [signedOn, setSignedOn] = useState(londonToday());
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setNote('');
    setSignedOn(londonToday());
    setErrors({});
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    if (!step) return;
    setRefusal(null);
    const parsed = SignOffStepBody.safeParse({ note, signed_on: signedOn });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    await submitDialogAction(
      queryClient,
      () => signOffStep(allocation.uuid, step.key, parsed.data),
      PathwayMessages.stepSignedOff,
      'The step could not be signed off.',
      { setBusy, setErrors, setRefusal, close },
      { messageWithFields: false },
    );
  };
  return (
    <FormDialog
      open={step !== null}
      title={`Sign off: ${step?.title ?? ''}`}
      description={`You confirm that ${allocation.user.name} has shown this competence.`}
      submitLabel="Sign off"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <TextArea
        label="Note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
        hint="What you saw, and where."
        maxLength={2000}
        required
      />
      <TextField
        label="Date"
        type="date"
        value={signedOn}
        onChange={(e) => setSignedOn(e.target.value)}
        error={errors.signed_on}
        required
      />
    </FormDialog>
  );
}

function SignOffAllocationDialog({
  allocation,
  open,
  onClose,
}: {
  allocation: AllocationView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setNote('');
    setErrors({});
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    setRefusal(null);
    const parsed = SignOffAllocationBody.safeParse({ note });
    if (!parsed.success) return setErrors(zodFieldErrors(parsed.error));
    setErrors({});
    await submitDialogAction(
      queryClient,
      () => signOffAllocation(allocation.uuid, parsed.data),
      PathwayMessages.signedOff,
      'The pathway could not be signed off.',
      { setBusy, setErrors, setRefusal, close },
      { messageWithFields: false },
    );
  };
  return (
    <FormDialog
      open={open}
      title="Sign off the pathway"
      description={`Every step of ${allocation.pathway.title} is done. Signing off completes it for ${allocation.user.name} and records it in their training history.`}
      submitLabel="Sign off the pathway"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <TextArea
        label="Note"
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={errors.note}
        maxLength={2000}
        required
      />
    </FormDialog>
  );
}

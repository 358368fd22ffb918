import {
  type AllocationSummary,
  formatDate,
  formatDateTime,
  PATHWAY_ALLOCATION_STATUSES,
  type PathwayAllocationStatus,
  PathwayMessages,
  PathwayPerm,
  type PathwayRoleAllocationView,
  type PathwayStepView,
  type PathwayView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { searchPeople } from '../care-certificate/admin/api';
import { Meter } from '../care-certificate/StandardsAccordion';
import { useEntityOptions } from '../entities/queries';
import { errorEnvelope, type FieldErrors, LoadError, LoadingCard } from '../entities/shared';
import { Picker, type PickItem } from '../results/Picker';
import {
  Badge,
  Button,
  ButtonLink,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  FormDialog,
  FormError,
  PageHeader,
  Select,
} from '../ui';
import { useNamedOptions } from '../users/queries';
import { organisationWord } from '../whitelabel/words';
import { AllocationPanel } from './AllocationPanel';
import {
  addRolePathway,
  allocatePeople,
  deletePathway,
  pathwayAction,
  removeRolePathway,
  submitDialogAction,
  useAllocations,
  useMyPathways,
  usePathway,
  usePathwayNotFound,
  usePathwayVersion,
  withdrawAllocation,
} from './api';
import { ALLOCATION_STATUS, CHANGE_KIND, dueText, STEP_TYPE, VERSION_CHOICE } from './labels';
import { progressText } from './MyPathways';

/**
 * `/pathways/{id}`. For people who manage: the steps, who it is given to (job roles and people, with each person's
 * allocation opened on this page as `?allocation={uuid}`), and the version history. A learner given this pathway
 * sees their own allocation: each step with a link to do it, locked steps explained, and what waits for a manager.
 */
export default function PathwayPage() {
  const { id } = useParams();
  const pathwayId = Number(id) || 0;
  const can = usePermissionChecker();
  const manages = can([...PathwayPerm.view], 'any');
  const [params, setParams] = useSearchParams();
  const opened = params.get('allocation');
  const mine = useMyPathways(true);
  const own = (mine.data ?? []).find((a) => a.pathway.id === pathwayId && a.status !== 'withdrawn') ?? null;
  const pathway = usePathway(pathwayId, manages);
  // A learner without the manager's rights who has no allocation of it: the same "not found" as a missing one.
  const learnerMissing = !manages && mine.isSuccess && !own;
  usePathwayNotFound(manages ? pathway.error : null);
  const navigate = useNavigate();
  useEffect(() => {
    if (learnerMissing) navigate('/404?resource=pathway', { replace: true });
  }, [learnerMissing, navigate]);

  const closeAllocation = () =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        next.delete('allocation');
        return next;
      },
      { replace: true },
    );

  if (!manages) {
    if (mine.isLoading) return <LoadingCard label="Loading your pathway" />;
    if (mine.isError) return <LoadError error={mine.error} fallback="Your pathway could not be loaded." />;
    if (!own) return null;
    return (
      <div className="space-y-6">
        <PageHeader
          title={own.pathway.title}
          breadcrumbs={[{ label: 'Pathways', to: '/pathways' }, { label: own.pathway.title }]}
        />
        <AllocationPanel uuid={own.uuid} own />
      </div>
    );
  }
  if (pathway.isLoading) return <LoadingCard label="Loading the pathway" />;
  if (pathway.isError || !pathway.data)
    return (
      <LoadError
        error={pathway.error}
        fallback="The pathway could not be loaded."
        onRetry={pathway.refetch}
      />
    );
  const view = pathway.data;
  return (
    <div className="space-y-6">
      <PathwayHeader view={view} />
      {opened ? (
        <AllocationPanel key={opened} uuid={opened} own={opened === own?.uuid} onClose={closeAllocation} />
      ) : own ? (
        <AllocationPanel uuid={own.uuid} own />
      ) : null}
      <StepsCard steps={view.steps} />
      <PeopleCard view={view} />
      <RolesCard view={view} />
      <VersionsCard view={view} />
    </div>
  );
}

function PathwayHeader({ view }: { view: PathwayView }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);
  const live = view.counts.in_progress + view.counts.awaiting_sign_off;
  return (
    <>
      <PageHeader
        title={view.title}
        breadcrumbs={[{ label: 'Pathways', to: '/pathways' }, { label: view.title }]}
        description={
          <>
            {view.entity.name} · version {view.version} ·{' '}
            {view.sequential ? 'steps in order' : 'steps in any order'}
            {view.requires_final_sign_off ? ' · final sign-off' : ''}
            {view.description ? (
              <span className="mt-2 block whitespace-pre-line">{view.description}</span>
            ) : null}
          </>
        }
        actions={
          view.can.edit ? (
            <>
              <ButtonLink to={`/pathways/update/${view.id}`} variant="secondary">
                Edit
              </ButtonLink>
              <Button variant="danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </>
          ) : undefined
        }
      />
      <ConfirmDialog
        open={deleting}
        title="Delete this pathway?"
        message={
          live
            ? `${live} ${live === 1 ? 'person is' : 'people are'} working through ${view.title}. Deleting it ends their allocations; completed results stay in their training history.`
            : `${view.title} and its history will be deleted. Completed results stay in people's training history.`
        }
        onConfirm={async () => {
          await pathwayAction(queryClient, () => deletePathway(view.id), PathwayMessages.deleted);
          navigate('/pathways', { replace: true });
        }}
        onClose={() => setDeleting(false)}
      />
    </>
  );
}

/** The steps of a version, in order. */
export function StepsList({ steps }: { steps: PathwayStepView[] }) {
  return (
    <ol className="divide-y divide-slate-100" aria-label="Steps">
      {[...steps]
        .sort((a, b) => a.position - b.position)
        .map((s, i) => {
          const due = dueText(s.due_days, s.due_from);
          return (
            <li key={s.key} className="space-y-1 p-4 sm:px-5">
              <p className="text-sm font-semibold text-slate-900">
                <span className="text-slate-600">
                  {i + 1}. {STEP_TYPE[s.type]}:
                </span>{' '}
                <span>{s.title}</span>
              </p>
              {s.description ? <p className="text-sm text-slate-700">{s.description}</p> : null}
              {due ? <p className="text-xs text-slate-600">{due}</p> : null}
            </li>
          );
        })}
    </ol>
  );
}

function StepsCard({ steps }: { steps: PathwayStepView[] }) {
  return (
    <Card title="Steps" padded={false}>
      <StepsList steps={steps} />
    </Card>
  );
}

// --- People -----------------------------------------------------------------------------------------------------

function PeopleCard({ view }: { view: PathwayView }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const statusParam = params.get('status');
  const status = (PATHWAY_ALLOCATION_STATUSES as readonly string[]).includes(statusParam ?? '')
    ? (statusParam as PathwayAllocationStatus)
    : undefined;
  const page = Number(params.get('page')) || 1;
  const list = useAllocations(view.id, { page, status });
  const [allocating, setAllocating] = useState(false);
  const [withdrawing, setWithdrawing] = useState<AllocationSummary | null>(null);
  const setParam = (patch: Record<string, string | null>) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        for (const [k, v] of Object.entries(patch)) v ? next.set(k, v) : next.delete(k);
        return next;
      },
      { replace: true },
    );
  const columns: Column<AllocationSummary>[] = [
    {
      key: 'person',
      header: 'Person',
      render: (a) => (
        <span className="flex flex-col gap-1">
          <button
            type="button"
            onClick={() => setParam({ allocation: a.uuid })}
            className="focus-ring rounded text-left font-medium text-primary-800 hover:underline"
          >
            {a.user.name}
          </button>
        </span>
      ),
    },
    {
      key: 'progress',
      header: 'Progress',
      render: (a) => (
        <span className="flex min-w-32 flex-col gap-1">
          <Badge tone={ALLOCATION_STATUS[a.status].tone}>{ALLOCATION_STATUS[a.status].label}</Badge>
          <Meter done={a.steps_done} total={a.steps_total} label={`${a.user.name}: steps done`} />
          <span className="text-xs text-slate-600">{progressText(a)}</span>
        </span>
      ),
    },
    {
      key: 'dates',
      header: 'Dates',
      hideOnMobile: true,
      render: (a) => (
        <span className="flex flex-col text-xs text-slate-700">
          <span>Given {formatDate(a.allocated_at)}</span>
          {a.completed_at ? (
            <span>Completed {formatDate(a.completed_at)}</span>
          ) : a.next_due_on ? (
            <span>Next due {formatDate(a.next_due_on)}</span>
          ) : null}
        </span>
      ),
    },
    {
      key: 'via',
      header: 'Given through',
      hideOnMobile: true,
      render: (a) => (
        <span className="text-xs text-slate-700">
          {a.via_role ? `${a.via_role.role.name}, ${a.via_role.entity.name}` : 'Directly'}
          {a.version !== a.current_version ? ` · version ${a.version}` : ''}
        </span>
      ),
    },
  ];
  return (
    <Card
      title="People"
      padded={false}
      data-testid="pathway-people"
      actions={
        view.can.allocate ? (
          <Button onClick={() => setAllocating(true)}>Allocate to people</Button>
        ) : undefined
      }
    >
      <div className="border-b border-slate-200 p-4 sm:px-5">
        <div className="max-w-xs">
          <Select
            label="Status"
            value={status ?? ''}
            onChange={(e) => setParam({ status: e.target.value || null, page: null })}
            options={[
              { value: '', label: 'Everyone given it' },
              ...(['in_progress', 'awaiting_sign_off', 'completed'] as const).map((s) => ({
                value: s,
                label: ALLOCATION_STATUS[s].label,
              })),
            ]}
          />
        </div>
      </div>
      {list.isError ? (
        <p role="alert" className="p-4 text-sm text-danger-800">
          {errorEnvelope(list.error, 'The people could not be loaded.').message}
        </p>
      ) : (
        <DataTable
          caption="People given this pathway"
          columns={columns}
          rows={list.data?.data}
          rowKey={(a) => a.uuid}
          loading={list.isLoading}
          rowActions={
            view.can.allocate
              ? (a) =>
                  a.status === 'in_progress' || a.status === 'awaiting_sign_off' ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setWithdrawing(a)}
                      aria-label={`Withdraw from ${a.user.name}`}
                    >
                      Withdraw
                    </Button>
                  ) : null
              : undefined
          }
          empty={
            <EmptyState
              title={
                status
                  ? `Nobody is ${ALLOCATION_STATUS[status].label.toLowerCase()}`
                  : 'Nobody has this pathway yet'
              }
              description={
                status
                  ? 'Choose another status to see the others.'
                  : 'Allocate it to people, or to a job role so its members get it automatically.'
              }
            />
          }
        />
      )}
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(p) => setParam({ page: String(p) })}
        label="People pages"
      />
      <AllocateDialog pathway={view} open={allocating} onClose={() => setAllocating(false)} />
      <ConfirmDialog
        open={withdrawing !== null}
        title="Withdraw this pathway?"
        confirmLabel="Withdraw"
        message={`${withdrawing?.user.name ?? ''} will no longer have ${view.title}. What they already did stays in their training history.`}
        onConfirm={async () => {
          if (!withdrawing) return;
          await pathwayAction(
            queryClient,
            () => withdrawAllocation(withdrawing.uuid),
            PathwayMessages.withdrawn,
          );
        }}
        onClose={() => setWithdrawing(null)}
      />
    </Card>
  );
}

function AllocateDialog({
  pathway,
  open,
  onClose,
}: {
  pathway: PathwayView;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [people, setPeople] = useState<PickItem[]>([]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPeople([]);
    setErrors({});
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    setRefusal(null);
    if (!people.length) return setErrors({ user_ids: ['Choose at least one person.'] });
    await submitDialogAction(
      queryClient,
      () =>
        allocatePeople(
          pathway.id,
          people.map((p) => p.id),
        ),
      PathwayMessages.allocated,
      'The pathway could not be allocated.',
      { setBusy, setErrors, setRefusal, close },
    );
  };
  return (
    <FormDialog
      open={open}
      title="Allocate to people"
      description={`They see ${pathway.title} straight away, with its first steps to do.`}
      submitLabel="Allocate"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <Picker
        label="Add a person"
        queryKey="pathway-people"
        search={searchPeople}
        placeholder="Type a name or e-mail"
        value={null}
        clearOnSelect
        onChange={(p) => {
          if (p && !people.some((x) => x.id === p.id)) setPeople([...people, p]);
          setErrors({});
        }}
        error={errors.user_ids}
      />
      {people.length ? (
        <ul className="space-y-1" aria-label="Chosen people">
          {people.map((p) => (
            <li
              key={p.id}
              className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-1.5 text-sm"
            >
              <span>
                {p.label}
                {p.hint ? <span className="block text-xs text-slate-600">{p.hint}</span> : null}
              </span>
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setPeople(people.filter((x) => x.id !== p.id))}
                aria-label={`Remove ${p.label}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </FormDialog>
  );
}

// --- Job roles --------------------------------------------------------------------------------------------------

function RolesCard({ view }: { view: PathwayView }) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PathwayRoleAllocationView | null>(null);
  return (
    <Card
      title="Job roles"
      padded={false}
      data-testid="pathway-roles"
      actions={
        view.can.allocate ? (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            Add a job role
          </Button>
        ) : undefined
      }
    >
      <p className="border-b border-slate-200 px-4 py-3 text-sm text-slate-600 sm:px-5">
        Everyone in these job roles gets this pathway, and so does each new member when they join the role.
      </p>
      {view.role_allocations.length ? (
        <ul className="divide-y divide-slate-100">
          {view.role_allocations.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 p-4 sm:px-5">
              <span className="text-sm">
                <span className="font-medium text-slate-900">{r.role.name}</span>
                <span className="block text-xs text-slate-600">
                  {r.entity.name} · since {formatDate(r.created_at)}
                </span>
              </span>
              {view.can.allocate ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setRemoving(r)}
                  aria-label={`Remove ${r.role.name} of ${r.entity.name}`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState
          title="No job roles yet"
          description={`Add a job role of ${organisationWord(wl).toLowerCase() === 'organisation' ? 'an organisation' : `a ${organisationWord(wl).toLowerCase()}`} to give this pathway to its members.`}
        />
      )}
      <AddRoleDialog pathway={view} open={adding} onClose={() => setAdding(false)} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this job role?"
        confirmLabel="Remove"
        message={`New members of ${removing?.role.name ?? ''} at ${removing?.entity.name ?? ''} will no longer get ${view.title}. People who already have it keep it until it is withdrawn.`}
        onConfirm={async () => {
          if (!removing) return;
          await pathwayAction(
            queryClient,
            () => removeRolePathway(removing.entity.slug, removing.role.id, view.id),
            PathwayMessages.roleUnallocated,
          );
        }}
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}

function AddRoleDialog({
  pathway,
  open,
  onClose,
}: {
  pathway: PathwayView;
  open: boolean;
  onClose: () => void;
}) {
  const wl = useWhitelabel();
  const queryClient = useQueryClient();
  const entities = useEntityOptions(open);
  const [slug, setSlug] = useState('');
  const [role, setRole] = useState('');
  const roles = useNamedOptions('roles', slug || null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setSlug('');
    setRole('');
    setErrors({});
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    setRefusal(null);
    const problems: FieldErrors = {};
    if (!slug) problems.entity = [`Choose ${organisationWord(wl).toLowerCase()}.`];
    if (!role) problems.role = ['Choose a job role.'];
    if (Object.keys(problems).length) return setErrors(problems);
    setErrors({});
    await submitDialogAction(
      queryClient,
      () => addRolePathway(slug, Number(role), pathway.id),
      PathwayMessages.roleAllocated,
      'The job role could not be added.',
      { setBusy, setErrors, setRefusal, close },
    );
  };
  return (
    <FormDialog
      open={open}
      title="Add a job role"
      description="Its members get the pathway now, and new members get it when they join."
      submitLabel="Add"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <Select
        label={organisationWord(wl)}
        value={slug}
        onChange={(e) => {
          setSlug(e.target.value);
          setRole('');
        }}
        placeholder={entities.isLoading ? 'Loading…' : `Choose ${organisationWord(wl).toLowerCase()}`}
        options={(entities.data ?? []).map((e) => ({
          value: e.slug,
          label: e.parent ? `${e.name} (${e.parent})` : e.name,
        }))}
        error={errors.entity}
        required
      />
      <Select
        label="Job role"
        value={role}
        onChange={(e) => setRole(e.target.value)}
        disabled={!slug}
        placeholder={
          slug
            ? roles.isLoading
              ? 'Loading…'
              : 'Choose a job role'
            : `Choose ${organisationWord(wl).toLowerCase()} first`
        }
        options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
        error={errors.role ?? errors.pathway_id}
        required
      />
    </FormDialog>
  );
}

// --- Versions ---------------------------------------------------------------------------------------------------

function VersionsCard({ view }: { view: PathwayView }) {
  const [shown, setShown] = useState<number | null>(null);
  const older = usePathwayVersion(view.id, shown);
  const versions = [...view.versions].sort((a, b) => b.number - a.number);
  const titleOf = (key: string) => view.steps.find((s) => s.key === key)?.title ?? 'A removed step';
  return (
    <Card title="Versions" padded={false} data-testid="pathway-versions">
      <ol className="divide-y divide-slate-100" aria-label="Versions">
        {versions.map((v) => (
          <li key={v.id} className="space-y-2 p-4 sm:px-5">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
                Version {v.number}
                {v.number === view.version ? <Badge tone="primary">Current</Badge> : null}
              </p>
              {v.number !== view.version ? (
                <Button
                  size="sm"
                  variant="secondary"
                  aria-expanded={shown === v.number}
                  onClick={() => setShown(shown === v.number ? null : v.number)}
                >
                  {shown === v.number ? 'Hide steps' : 'View steps'}
                </Button>
              ) : null}
            </div>
            <p className="text-xs text-slate-600">
              {formatDateTime(v.created_at)}
              {v.created_by ? ` by ${v.created_by.name}` : ''}
              {v.in_progress ? ` · ${v.in_progress} in progress on it` : ''}
            </p>
            {v.change_note ? (
              <p className="text-sm whitespace-pre-line text-slate-800">{v.change_note}</p>
            ) : null}
            {v.changes.length ? (
              <ul className="space-y-1 text-sm text-slate-700">
                {v.changes.map((c) => (
                  <li key={c.step_key}>
                    <Badge tone="neutral">{CHANGE_KIND[c.change]}</Badge> {titleOf(c.step_key)}:{' '}
                    {VERSION_CHOICE[c.choice].label.toLowerCase()}
                  </li>
                ))}
              </ul>
            ) : null}
            {shown === v.number ? (
              <div className="rounded-lg ring-1 ring-slate-200">
                {older.isLoading ? (
                  <p className="p-3 text-sm text-slate-600">Loading the steps…</p>
                ) : older.isError ? (
                  <p role="alert" className="p-3 text-sm text-danger-800">
                    {errorEnvelope(older.error, 'The steps of this version could not be loaded.').message}
                  </p>
                ) : (
                  <StepsList steps={older.data ?? []} />
                )}
              </div>
            ) : null}
          </li>
        ))}
      </ol>
    </Card>
  );
}

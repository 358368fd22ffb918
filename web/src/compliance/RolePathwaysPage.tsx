import { formatDate, PathwayMessages, PathwayPerm, type RolePathwayView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { errorEnvelope, type FieldErrors, useNotFoundRedirect } from '../entities/shared';
import {
  addRolePathway,
  pathwayAction,
  removeRolePathway,
  searchPathways,
  submitDialogAction,
  useRolePathways,
} from '../pathways/api';
import { Picker, type PickItem } from '../results/Picker';
import { Button, Card, ConfirmDialog, EmptyState, FormDialog, FormError, PageHeader } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { useRole } from './RoleCoursesPage';

const linkClass = 'focus-ring rounded font-medium text-primary-800 hover:underline';

/**
 * `/entities/{slug}/role/{role}/pathways` (spec 1 §2): the pathways given to this job role of this organisation.
 * Everyone in the role has them, and each new member gets them when they join (a database trigger allocates them).
 * With the allocate permission (43) a pathway can be added or removed (after a confirmation).
 */
export default function RolePathwaysPage() {
  const { slug = '', role = '' } = useParams();
  const roleId = Number(role);
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const roleQuery = useRole(slug, roleId);
  const list = useRolePathways(slug, roleId);
  useNotFoundRedirect(entity.error ?? roleQuery.error ?? list.error, 'role');
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<RolePathwayView | null>(null);
  const canAllocate = can([PathwayPerm.allocate]);
  const entityName = entity.data?.name ?? slug;
  const roleName = roleQuery.data?.name ?? 'Job role';
  return (
    <div className="space-y-6">
      <PageHeader
        title={`${roleName}: pathways`}
        description={`Everyone in ${roleName} at ${entityName} has these pathways, and each new member gets them when they join the role.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: roleName, to: `/entities/${slug}/role/${roleId}/courses` },
          { label: 'Pathways' },
        ]}
        actions={canAllocate ? <Button onClick={() => setAdding(true)}>Add a pathway</Button> : undefined}
      />
      <Card padded={false} data-testid="role-pathways">
        {list.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(list.error, 'The pathways could not be loaded.').message}
          </p>
        ) : list.isLoading ? (
          <p className="p-4 text-sm text-slate-600" aria-busy="true">
            Loading…
          </p>
        ) : list.data?.length ? (
          <ul className="divide-y divide-slate-100" aria-label="Pathways of this job role">
            {list.data.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-4 sm:px-5">
                <span className="text-sm">
                  <Link to={`/pathways/${p.pathway.id}`} className={linkClass}>
                    {p.pathway.title}
                  </Link>
                  <span className="block text-xs text-slate-600">
                    Since {formatDate(p.created_at)} · given to {p.allocations}{' '}
                    {p.allocations === 1 ? 'person' : 'people'} through this job role
                  </span>
                </span>
                {canAllocate ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => setRemoving(p)}
                    aria-label={`Remove ${p.pathway.title}`}
                  >
                    Remove
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            title="No pathways for this job role"
            description={
              canAllocate
                ? 'Add a pathway: its members get it now, and new members when they join.'
                : 'Pathways given to this job role appear here.'
            }
            action={
              canAllocate ? (
                <Button size="sm" onClick={() => setAdding(true)}>
                  Add a pathway
                </Button>
              ) : undefined
            }
          />
        )}
      </Card>
      <AddPathwayDialog
        slug={slug}
        roleId={roleId}
        roleName={roleName}
        open={adding}
        onClose={() => setAdding(false)}
      />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this pathway from the job role?"
        confirmLabel="Remove"
        message={`New members of ${roleName} will no longer get ${removing?.pathway.title ?? ''}. People who already have it keep it until it is withdrawn.`}
        onConfirm={async () => {
          if (!removing) return;
          await pathwayAction(
            queryClient,
            () => removeRolePathway(slug, roleId, removing.pathway.id),
            PathwayMessages.roleUnallocated,
          );
        }}
        onClose={() => setRemoving(null)}
      />
    </div>
  );
}

function AddPathwayDialog({
  slug,
  roleId,
  roleName,
  open,
  onClose,
}: {
  slug: string;
  roleId: number;
  roleName: string;
  open: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [pathway, setPathway] = useState<PickItem | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setPathway(null);
    setErrors({});
    setRefusal(null);
    onClose();
  };
  const submit = async () => {
    setRefusal(null);
    if (!pathway) return setErrors({ pathway_id: ['Choose a pathway.'] });
    await submitDialogAction(
      queryClient,
      () => addRolePathway(slug, roleId, pathway.id),
      PathwayMessages.roleAllocated,
      'The pathway could not be added.',
      { setBusy, setErrors, setRefusal, close },
      { messageWithFields: false },
    );
  };
  return (
    <FormDialog
      open={open}
      title={`Add a pathway to ${roleName}`}
      description="Everyone in the role gets it now, and each new member when they join."
      submitLabel="Add"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={close}
    >
      {refusal ? <FormError error={{ message: refusal }} /> : null}
      <Picker
        label="Pathway"
        queryKey="role-pathway-choice"
        search={searchPathways}
        placeholder="Type a pathway title"
        value={pathway}
        onChange={setPathway}
        error={errors.pathway_id}
        required
      />
    </FormDialog>
  );
}

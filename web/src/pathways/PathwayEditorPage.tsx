import {
  type PathwayChangesView,
  PathwayMessages,
  PathwayPerm,
  type PathwayVersionChoice,
  type PathwayView,
  Perm,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { useEntityOptions } from '../entities/queries';
import {
  errorEnvelope,
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
} from '../entities/shared';
import { Button, ButtonLink, Card, PageHeader, Select, TextArea, TextField, Toggle } from '../ui';
import { organisationWord } from '../whitelabel/words';
import {
  createPathway,
  pathwayAction,
  previewChanges,
  updatePathway,
  usePathway,
  usePathwayNotFound,
} from './api';
import {
  checkDraft,
  type Draft,
  draftFromView,
  emptyDraft,
  errorsAfterEdit,
  toCreateBody,
  toStepInput,
  toUpdateBody,
} from './editor';
import { StepsEditor } from './StepsEditor';
import { VersionChoiceDialog } from './VersionChoiceDialog';

/** `/pathways/create` and `/pathways/update/{id}`: the pathway editor. */
export default function PathwayEditorPage() {
  const { id } = useParams();
  const pathwayId = Number(id) || 0;
  const existing = usePathway(pathwayId, pathwayId > 0);
  usePathwayNotFound(existing.error);
  // A new pathway is drawn without a call to the server: refuse it here rather than at the save, after the work.
  const mayCreate = usePermissionChecker()([...PathwayPerm.manage], 'any');
  if (!pathwayId) return mayCreate ? <PathwayEditor view={null} /> : <Navigate to="/403" replace />;
  if (existing.isLoading) return <LoadingCard label="Loading the pathway" />;
  if (existing.isError || !existing.data)
    return (
      <LoadError
        error={existing.error}
        fallback="The pathway could not be loaded."
        onRetry={existing.refetch}
      />
    );
  return <PathwayEditor key={existing.data.id} view={existing.data} />;
}

function PathwayEditor({ view }: { view: PathwayView | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => (view ? draftFromView(view) : emptyDraft()));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saveError, setSaveError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState<PathwayChangesView | null>(null);
  const [previewCount, setPreviewCount] = useState(0);
  const [versionError, setVersionError] = useState<string | null>(null);
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setErrors((e) => errorsAfterEdit(e, patch));
  };

  // The page's first field error is scrolled to, so a refusal at the bottom of a long form is seen.
  useEffect(() => {
    if (Object.keys(errors).length)
      document.querySelector('[aria-invalid="true"]')?.scrollIntoView?.({ block: 'center' });
  }, [errors]);

  const refused = (error: unknown) => {
    const fields = serverFieldErrors(error);
    setErrors(fields);
    setSaveError(error);
  };

  const saved = (result: PathwayView | undefined) => navigate(`/pathways/${result?.id ?? view?.id ?? ''}`);

  const create = async () => {
    try {
      saved(
        await pathwayAction(queryClient, () => createPathway(toCreateBody(draft)), PathwayMessages.created, {
          quietErrors: true,
        }),
      );
    } catch (error) {
      refused(error);
    }
  };

  const patch = async (
    id: number,
    version?: { choices: Record<string, PathwayVersionChoice>; note: string },
  ) =>
    saved(
      await pathwayAction(
        queryClient,
        () => updatePathway(id, toUpdateBody(draft, version)),
        version ? PathwayMessages.newVersion : PathwayMessages.updated,
        { quietErrors: true },
      ),
    );

  /** An edit asks the server what changes first; people in progress → the choices dialog before the PATCH. */
  const update = async (current: PathwayView) => {
    try {
      const changes = await previewChanges(current.id, draft.steps.map(toStepInput));
      if (changes.new_version && changes.changes.length) {
        setVersionError(null);
        setPreview(changes);
        setPreviewCount((n) => n + 1);
        return;
      }
      await patch(current.id);
    } catch (error) {
      refused(error);
    }
  };

  const submit = async () => {
    setSaveError(null);
    const problems = checkDraft(draft, view ? 'update' : 'create');
    if (problems) return setErrors(problems);
    setErrors({});
    setBusy(true);
    try {
      await (view ? update(view) : create());
    } finally {
      setBusy(false);
    }
  };

  const saveVersion = async (choices: Record<string, PathwayVersionChoice>, note: string) => {
    if (!view) return;
    setBusy(true);
    try {
      await patch(view.id, { choices, note });
      setPreview(null);
    } catch (error) {
      const fields = serverFieldErrors(error);
      // Errors of the steps belong beside them on the page; the rest (choices, refusals) in the dialog.
      if (Object.keys(fields).some((k) => k.startsWith('steps') || k === 'title')) {
        setPreview(null);
        refused(error);
      } else setVersionError(errorEnvelope(error, 'The new version could not be saved.').message ?? null);
    } finally {
      setBusy(false);
    }
  };

  const title = view ? `Edit ${view.title}` : 'Add a pathway';
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        breadcrumbs={[
          { label: 'Pathways', to: '/pathways' },
          ...(view ? [{ label: view.title, to: `/pathways/${view.id}` }] : []),
          { label: view ? 'Edit' : 'Add' },
        ]}
      />
      <form
        noValidate
        className="space-y-6"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <SaveErrors error={Object.keys(errors).length ? null : saveError} clientErrors={errors} />
        <FormSection title="About the pathway" columns={1}>
          {view ? null : (
            <OwnerSelect value={draft.entity} onChange={(entity) => set({ entity })} error={errors.entity} />
          )}
          <TextField
            label="Title"
            value={draft.title}
            onChange={(e) => set({ title: e.target.value })}
            error={errors.title}
            maxLength={200}
            required
          />
          <TextArea
            label="Description"
            value={draft.description}
            onChange={(e) => set({ description: e.target.value })}
            error={errors.description}
            maxLength={5000}
          />
          <div className="space-y-1">
            <Toggle
              label="Steps in order"
              checked={draft.sequential}
              onChange={(sequential) => set({ sequential })}
            />
            <p className="text-xs text-slate-600">
              On: each step opens once the one before it is done. Off: people do the steps in any order.
            </p>
          </div>
          <div className="space-y-1">
            <Toggle
              label="Final sign-off"
              checked={draft.requiresFinalSignOff}
              onChange={(requiresFinalSignOff) => set({ requiresFinalSignOff })}
            />
            <p className="text-xs text-slate-600">
              On: when every step is done, a manager signs the whole pathway off before it counts as
              completed.
            </p>
          </div>
        </FormSection>
        <Card title="Steps">
          <StepsEditor steps={draft.steps} onChange={(steps) => set({ steps })} errors={errors} />
        </Card>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <ButtonLink variant="secondary" to={view ? `/pathways/${view.id}` : '/pathways'}>
            Cancel
          </ButtonLink>
          <Button type="submit" loading={busy && !preview}>
            {view ? 'Save changes' : 'Create the pathway'}
          </Button>
        </div>
      </form>
      <VersionChoiceDialog
        key={previewCount}
        open={preview !== null}
        preview={preview}
        busy={busy}
        error={versionError}
        onSave={(choices, note) => void saveVersion(choices, note)}
        onClose={() => setPreview(null)}
      />
    </div>
  );
}

/**
 * Which organisation owns a new pathway (its managers and those above see and edit it). Offered to people who can
 * list organisations (22); otherwise, and when left alone, the server uses the caller's (or the acting-as) one.
 */
function OwnerSelect({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (slug: string) => void;
  error?: string[];
}) {
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const allowed = can([Perm.searchEntities]);
  const entities = useEntityOptions(allowed);
  if (!allowed) return null;
  return (
    <Select
      label={organisationWord(wl)}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={`The ${organisationWord(wl).toLowerCase()} you are viewing`}
      options={(entities.data ?? []).map((e) => ({
        value: e.slug,
        label: e.parent ? `${e.name} (${e.parent})` : e.name,
      }))}
      hint="Its managers, and those of the organisations above it, see and edit the pathway."
      error={error}
    />
  );
}

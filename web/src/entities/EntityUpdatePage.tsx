import { type EntityDto, Messages, Perm } from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { actingAsStore } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { usePermission } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { RetentionCard } from '../data-protection/RetentionCard';
import { AscWdsCard } from '../reports/AscWdsCard';
import { Button, ButtonLink, PageHeader } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { EntityForm } from './EntityForm';
import { type EntityFormState, entityToForm, toEntityBody } from './entity-form';
import { useEntity, useLevelAEntities } from './queries';
import {
  type FieldErrors,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  useNotFoundRedirect,
} from './shared';

/** `/entities/{slug}/update` (spec 1 §7 PATCH /entities/{id}): every settings field of spec 2 §3, in sections. */
export default function EntityUpdatePage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  useNotFoundRedirect(entity.error, 'entity');
  const [form, setForm] = useState<EntityFormState | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const canSeeNotes = usePermission([Perm.entityNotesView]);
  const parents = useLevelAEntities(entity.data?.level === 'B');

  useEffect(() => {
    if (entity.data && !form) setForm(entityToForm(entity.data));
  }, [entity.data, form]);

  const mutation = useMutation({
    mutationFn: async (body: unknown) =>
      (await api.patch<Envelope<EntityDto>>(`/entities/${entity.data?.id}`, body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? Messages.entityUpdated);
      // The view shows what was saved at once (children and white-label are kept from the cached read).
      const merge = (old: EntityDto | undefined) => ({ ...old, ...res.data });
      queryClient.setQueryData(['entities', 'one', slug], merge);
      queryClient.setQueryData(['entities', 'one', res.data.slug], merge);
      void queryClient.invalidateQueries({ queryKey: ['entities'] });
      // The acting-as entity keeps its name and flags in step with what was saved.
      const acting = actingAsStore.get();
      if (acting && acting.id === res.data.id)
        actingAsStore.set({ ...acting, name: res.data.name, slug: res.data.slug });
      navigate(`/entities/${res.data.slug}`);
    },
  });

  if (entity.isLoading || (entity.data && !form)) return <LoadingCard lines={8} />;
  if (entity.isError || !entity.data || !form)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void entity.refetch()}
      />
    );

  const errors = { ...serverFieldErrors(mutation.error), ...clientErrors };
  const submit = () => {
    // Notes are sent only by callers who can see them (others would blank them).
    const result = toEntityBody(form, 'update', canSeeNotes ? [] : ['notes']);
    if (!result.ok) {
      setClientErrors(result.errors);
      return;
    }
    setClientErrors({});
    mutation.mutate(result.body);
  };
  const e = entity.data;
  return (
    <div>
      <PageHeader
        title={`Edit ${e.name}`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: e.name, to: `/entities/${e.slug}` },
          { label: 'Edit' },
        ]}
      />
      <div className="space-y-5">
        <SaveErrors error={mutation.isError ? mutation.error : null} clientErrors={clientErrors} />
        <EntityForm
          mode="update"
          form={form}
          onChange={setForm}
          errors={errors}
          parents={parents.data ?? (e.parent ? [{ id: e.parent.id, name: e.parent.name }] : [])}
          hasPassword={e.has_restricted_access_password}
          onSubmit={submit}
          footer={
            <>
              <ButtonLink to={`/entities/${e.slug}`} variant="secondary">
                Cancel
              </ButtonLink>
              <Button type="submit" loading={mutation.isPending}>
                Save changes
              </Button>
            </>
          }
        />
        <RetentionCard slug={e.slug} />
        <AscWdsCard slug={e.slug} />
      </div>
    </div>
  );
}

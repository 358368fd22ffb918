import { type EntityDto, Messages } from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, type Envelope } from '../app/api';
import { notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { Button, ButtonLink, PageHeader } from '../ui';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { EntityForm } from './EntityForm';
import { emptyEntityForm, toEntityBody } from './entity-form';
import { useLevelAEntities } from './queries';
import { type FieldErrors, SaveErrors, serverFieldErrors } from './shared';

/** `/entities/create` (spec 1 §7 POST /entities): name, level, parent, contact and settings. */
export default function EntityCreatePage() {
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(emptyEntityForm);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const parents = useLevelAEntities();
  const mutation = useMutation({
    mutationFn: async (body: unknown) => (await api.post<Envelope<EntityDto>>('/entities', body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? Messages.entityCreated);
      void queryClient.invalidateQueries({ queryKey: ['entities'] });
      navigate(`/entities/${res.data.slug}`);
    },
  });
  const errors = { ...serverFieldErrors(mutation.error), ...clientErrors };
  const submit = () => {
    const result = toEntityBody(form, 'create');
    if (!result.ok) {
      setClientErrors(result.errors);
      return;
    }
    setClientErrors({});
    mutation.mutate(result.body);
  };
  return (
    <div>
      <PageHeader
        title={`Add ${organisationWord(wl).toLowerCase()}`}
        breadcrumbs={[{ label: organisationsWord(wl), to: '/entities' }, { label: 'Add' }]}
      />
      <div className="space-y-5">
        <SaveErrors error={mutation.isError ? mutation.error : null} clientErrors={clientErrors} />
        <EntityForm
          mode="create"
          form={form}
          onChange={setForm}
          errors={errors}
          parents={parents.data ?? []}
          onSubmit={submit}
          footer={
            <>
              <ButtonLink to="/entities" variant="secondary">
                Cancel
              </ButtonLink>
              <Button type="submit" loading={mutation.isPending}>
                Add {organisationWord(wl).toLowerCase()}
              </Button>
            </>
          }
        />
      </div>
    </div>
  );
}

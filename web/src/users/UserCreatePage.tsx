import { Messages, type UserDetail } from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useActingAs } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { useAuth } from '../app/auth';
import { notifySuccess } from '../app/notifications';
import { useEntityOptions } from '../entities/queries';
import { type FieldErrors, SaveErrors, serverFieldErrors } from '../entities/shared';
import { Button, ButtonLink, PageHeader } from '../ui';
import { UserForm } from './UserForm';
import { emptyUserForm, toCreateUserBody } from './user-form';

/** `/users/create` (spec 1 §7 POST /users). */
export default function UserCreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const actingAs = useActingAs();
  const entities = useEntityOptions();
  const [form, setForm] = useState(() => emptyUserForm(null));
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});

  // Start with the acting-as (or own) organisation when it is one of the choices.
  useEffect(() => {
    if (form.primary_entity_id || !entities.data) return;
    const preferred = [actingAs?.id, user?.primary_entity.id].find((id) =>
      entities.data.some((e) => e.id === id),
    );
    if (preferred) setForm((f) => ({ ...f, primary_entity_id: String(preferred) }));
  }, [entities.data, actingAs?.id, user?.primary_entity.id, form.primary_entity_id]);

  const mutation = useMutation({
    mutationFn: async (body: unknown) => (await api.post<Envelope<UserDetail>>('/users', body)).data,
    onSuccess: (res) => {
      notifySuccess(res.message ?? Messages.userCreated);
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      navigate(`/users/${res.data.uuid}`);
    },
  });
  const submit = () => {
    const result = toCreateUserBody(form);
    if (!result.ok) return setClientErrors(result.errors);
    setClientErrors({});
    mutation.mutate(result.body);
  };
  return (
    <div>
      <PageHeader title="Add a user" breadcrumbs={[{ label: 'Users', to: '/users' }, { label: 'Add' }]} />
      <div className="space-y-5">
        <SaveErrors error={mutation.isError ? mutation.error : null} clientErrors={clientErrors} />
        <UserForm
          mode="create"
          form={form}
          onChange={setForm}
          errors={{ ...serverFieldErrors(mutation.error), ...clientErrors }}
          onSubmit={submit}
          footer={
            <>
              <ButtonLink to="/users" variant="secondary">
                Cancel
              </ButtonLink>
              <Button type="submit" loading={mutation.isPending}>
                Add user
              </Button>
            </>
          }
        />
      </div>
    </div>
  );
}

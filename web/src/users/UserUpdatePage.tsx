import { Messages, type UserDetail } from '@cc/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { editsOwnRecordAsManager } from '../account/changes';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { notifyInfo, notifySuccess } from '../app/notifications';
import {
  type FieldErrors,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  useNotFoundRedirect,
} from '../entities/shared';
import { Button, ButtonLink, PageHeader } from '../ui';
import { useUser } from './queries';
import { UserForm } from './UserForm';
import { toUpdateUserBody, type UserFormState, userToForm } from './user-form';

/** `/users/update/{uuid}` (spec 1 §7 PATCH /users/{id}): sends only what changed. */
export default function UserUpdatePage() {
  const { uuid = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useAuth();
  const can = usePermissionChecker();
  const query = useUser(uuid);
  useNotFoundRedirect(query.error, 'user');
  const [form, setForm] = useState<UserFormState | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  useEffect(() => {
    if (query.data && !form) setForm(userToForm(query.data));
  }, [query.data, form]);
  const mutation = useMutation({
    mutationFn: async (body: unknown) =>
      (await api.patch<Envelope<UserDetail>>(`/users/${query.data?.id}`, body)).data,
    onSuccess: (res, body) => {
      notifySuccess(res.message ?? Messages.userUpdated);
      // An e-mail change waits for the new address to confirm it (the server keeps the old one until then).
      if ((body as { email?: string }).email && res.data.pending_email)
        notifyInfo(Messages.emailChangePending);
      queryClient.setQueryData(['users', 'one', uuid], res.data);
      void queryClient.invalidateQueries({ queryKey: ['users'] });
      navigate(`/users/${res.data.uuid}`);
    },
  });

  // Issue 31 §6: one changes oneself on My account unless one edits people (18); this form would end on /403.
  if (me && (uuid === me.uuid || query.data?.id === me.id) && !editsOwnRecordAsManager(can))
    return <Navigate to="/account" replace />;
  if (query.isLoading || (query.data && !form)) return <LoadingCard lines={7} />;
  if (query.isError || !query.data || !form)
    return (
      <LoadError
        error={query.error}
        fallback={Messages.somethingWentWrong}
        onRetry={() => void query.refetch()}
      />
    );
  const u = query.data;
  const submit = () => {
    const result = toUpdateUserBody(form, userToForm(u));
    if (!result.ok) return setClientErrors(result.errors);
    setClientErrors({});
    if (!Object.keys(result.body).length) {
      notifyInfo('Nothing has changed.');
      return;
    }
    mutation.mutate(result.body);
  };
  return (
    <div>
      <PageHeader
        title={`Edit ${u.name}`}
        breadcrumbs={[
          { label: 'Users', to: '/users' },
          { label: u.name, to: `/users/${u.uuid}` },
          { label: 'Edit' },
        ]}
      />
      <div className="space-y-5">
        <SaveErrors error={mutation.isError ? mutation.error : null} clientErrors={clientErrors} />
        <UserForm
          mode="update"
          form={form}
          onChange={setForm}
          self={me?.id === u.id}
          pendingEmail={u.pending_email}
          errors={{ ...serverFieldErrors(mutation.error), ...clientErrors }}
          onSubmit={submit}
          footer={
            <>
              <ButtonLink to={`/users/${u.uuid}`} variant="secondary">
                Cancel
              </ButtonLink>
              <Button type="submit" loading={mutation.isPending}>
                Save changes
              </Button>
            </>
          }
        />
      </div>
    </div>
  );
}

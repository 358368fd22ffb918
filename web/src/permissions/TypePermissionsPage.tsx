import { Messages, type Paged, Perm } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { ButtonLink, Card, EmptyState, PageHeader, Select } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { toggleBlockedReason } from './group';
import { changePermission, useHeldPermissionIds } from './mutate';
import { type GrantedPermission, PermissionToggles } from './PermissionToggles';

interface TypeRow {
  id: number;
  name: string;
  inherited?: boolean;
  entity?: { name: string };
}

/**
 * `/entities/{slug}/types/permissions` (spec 2 §7): choose a user type of the entity, then toggle what it gives
 * (GET /type-permissions/type/{typeId}; POST /type-permissions/{typeId} and /type-permissions/{typeId}/delete).
 */
export default function TypePermissionsPage() {
  const { slug = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const wl = useWhitelabel();
  const { user } = useAuth();
  const canManage = usePermission([Perm.updateUserPermissions]);
  const held = useHeldPermissionIds();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const types = useQuery({
    queryKey: ['entities', slug, 'types', 'all'],
    queryFn: async () =>
      (
        await api.get<Paged<TypeRow>>(`/entities/${encodeURIComponent(slug)}/types`, {
          params: { per_page: 100 },
        })
      ).data.data,
  });
  useNotFoundRedirect(entity.error ?? types.error, 'entity');
  const typeId = Number(params.get('type')) || types.data?.[0]?.id || null;
  const key = ['type-permissions', typeId];
  const perms = useQuery({
    queryKey: key,
    enabled: typeId !== null,
    queryFn: async () =>
      (await api.get<Envelope<GrantedPermission[]>>(`/type-permissions/type/${typeId}`)).data.data,
  });
  useNotFoundRedirect(perms.error, 'type');

  const onToggle = async (p: GrantedPermission, next: boolean) => {
    const updated = next
      ? await changePermission(`/type-permissions/${typeId}`, { permission_ids: [p.id] }, true)
      : await changePermission(`/type-permissions/${typeId}/delete`, { permission_ids: [p.id] }, false);
    queryClient.setQueryData(key, updated);
  };
  const name = entity.data?.name ?? slug;
  const ownType = Boolean(user?.type && user.type.id === typeId);

  return (
    <div>
      <PageHeader
        title="User type permissions"
        description={`What each user type of ${name} gives its users (within what the organisation allows).`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: name, to: `/entities/${slug}` },
          { label: 'User type permissions' },
        ]}
      />
      {types.isLoading ? (
        <LoadingCard lines={3} />
      ) : types.isError ? (
        <LoadError
          error={types.error}
          fallback={Messages.somethingWentWrong}
          onRetry={() => void types.refetch()}
        />
      ) : !types.data?.length ? (
        <Card>
          <EmptyState
            title="No user types yet"
            description="Add a user type first, then choose what it gives."
            action={<ButtonLink to={`/entities/${slug}/types`}>Manage user types</ButtonLink>}
          />
        </Card>
      ) : (
        <div className="space-y-5">
          <Card>
            <div className="max-w-sm">
              <Select
                label="User type"
                options={types.data.map((t) => ({
                  value: t.id,
                  label: t.inherited ? `${t.name} (from ${t.entity?.name ?? 'parent'})` : t.name,
                }))}
                value={typeId ?? ''}
                onChange={(e) => setParams({ type: e.target.value }, { replace: true })}
              />
            </div>
          </Card>
          {perms.isLoading ? (
            <LoadingCard lines={10} />
          ) : perms.isError || !perms.data ? (
            <LoadError
              error={perms.error}
              fallback={Messages.somethingWentWrong}
              onRetry={() => void perms.refetch()}
            />
          ) : (
            <PermissionToggles
              permissions={perms.data}
              onToggle={onToggle}
              blocked={(p) =>
                toggleBlockedReason({
                  superAdmin: Boolean(user?.super_admin),
                  canManage,
                  ownAccess: ownType,
                  granted: p.granted,
                  held: held.has(p.id),
                })
              }
            />
          )}
        </div>
      )}
    </div>
  );
}

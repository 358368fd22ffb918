import { Messages, Perm } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { LoadError, LoadingCard, useNotFoundRedirect } from '../entities/shared';
import { PageHeader } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { toggleBlockedReason } from './group';
import { changePermission, useHeldPermissionIds } from './mutate';
import { type GrantedPermission, PermissionToggles } from './PermissionToggles';

/**
 * `/entities/{slug}/permissions/` (spec 2 §6, §7): what the entity allows its users. GET
 * /entity-permissions/{slug}/permissions; a toggle POSTs /entity-permissions or /entity-permissions/{slug}/delete.
 */
export default function EntityPermissionsPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const { user } = useAuth();
  const canManage = usePermission([Perm.entityPermissions]);
  const held = useHeldPermissionIds();
  const queryClient = useQueryClient();
  const entity = useEntity(slug);
  const key = ['entities', slug, 'permissions'];
  const list = useQuery({
    queryKey: key,
    queryFn: async () =>
      (
        await api.get<Envelope<GrantedPermission[]>>(
          `/entity-permissions/${encodeURIComponent(slug)}/permissions`,
        )
      ).data.data,
  });
  useNotFoundRedirect(entity.error ?? list.error, 'entity');

  const ownAccess = Boolean(entity.data && user && entity.data.id === user.primary_entity.id);
  const onToggle = async (p: GrantedPermission, next: boolean) => {
    const updated = next
      ? await changePermission('/entity-permissions', { entity: slug, permission_ids: [p.id] }, true)
      : await changePermission(
          `/entity-permissions/${encodeURIComponent(slug)}/delete`,
          { permission_ids: [p.id] },
          false,
        );
    queryClient.setQueryData(key, updated);
  };
  const name = entity.data?.name ?? slug;
  return (
    <div>
      <PageHeader
        title="Permissions"
        description={`What users of ${name} may be given. A user's own permissions come from their user type and are limited to these.`}
        breadcrumbs={[
          { label: organisationsWord(wl), to: '/entities' },
          { label: name, to: `/entities/${slug}` },
          { label: 'Permissions' },
        ]}
        actions={
          <Link
            to={`/entities/${slug}/types/permissions`}
            className="focus-ring rounded text-sm font-medium text-primary-800 hover:underline"
          >
            User type permissions →
          </Link>
        }
      />
      {list.isLoading || entity.isLoading ? (
        <LoadingCard lines={10} />
      ) : list.isError || !list.data ? (
        <LoadError
          error={list.error}
          fallback={Messages.somethingWentWrong}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <PermissionToggles
          permissions={list.data}
          onToggle={onToggle}
          blocked={(p) =>
            toggleBlockedReason({
              superAdmin: Boolean(user?.super_admin),
              canManage,
              ownAccess,
              granted: p.granted,
              held: held.has(p.id),
            })
          }
        />
      )}
    </div>
  );
}

import { type Paged, Perm, type UserDetail } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useActingAs } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermission } from '../app/auth';

export interface NamedOption {
  id: number;
  name: string;
  inherited?: boolean;
}

/** The entity whose roles and types the users screens offer: the acting-as entity, else the user's own. */
export function useScopeSlug(): string | null {
  const { user } = useAuth();
  const actingAs = useActingAs();
  const canActAs = usePermission([Perm.actingAs]);
  return (canActAs ? actingAs?.slug : null) ?? user?.primary_entity.slug ?? null;
}

/** The permissions GET /entities/{slug}/roles|types asks for (server/src/roles/service.ts RULES.view, any of). */
const VIEW_OPTIONS: Record<'roles' | 'types', number[]> = {
  roles: [Perm.viewRoles, Perm.readOnlyRoles],
  types: [Perm.viewTypes],
};

/**
 * Job roles or user types of an entity: its own and inherited (GET /entities/{slug}/roles|types). Asked only when
 * the user may read them: a trainer may list users (21) without reading job roles, and a refused call would send
 * the whole page to /403; the filter that needs the options is simply not offered then.
 */
export function useNamedOptions(kind: 'roles' | 'types', slug: string | null | undefined) {
  const allowed = usePermission(VIEW_OPTIONS[kind], 'any');
  return useQuery({
    queryKey: ['entities', slug, kind, 'options'],
    enabled: Boolean(slug) && allowed,
    queryFn: async () =>
      (
        await api.get<Paged<NamedOption>>(`/entities/${encodeURIComponent(slug ?? '')}/${kind}`, {
          params: { per_page: 100 },
        })
      ).data.data,
  });
}

export function useUser(ref: string | undefined) {
  return useQuery({
    queryKey: ['users', 'one', ref],
    enabled: Boolean(ref),
    queryFn: async () =>
      (await api.get<Envelope<UserDetail>>(`/users/${encodeURIComponent(ref ?? '')}`)).data.data,
  });
}

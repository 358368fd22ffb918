import { useActingAs } from '../app/acting-as';
import { useAuth, usePermission } from '../app/auth';
import { useScopeEntities } from '../dashboards/ManagerDashboardApi';
import { type PackPlace, packPlaces } from './inspection-pack';

/**
 * The organisations a report page per home offers (the inspection pack, the ASC-WDS export): every one in the
 * manager's scope when she may list them (permission 22), else the one she acts as or belongs to.
 */
export function usePackPlaces(): { places: PackPlace[]; loading: boolean } {
  const { user } = useAuth();
  const actingAs = useActingAs();
  const canList = usePermission([22]);
  const listed = useScopeEntities(canList);
  const own = actingAs ?? user?.primary_entity ?? null;
  const places = packPlaces(
    listed.data?.data,
    own ? { id: own.id, slug: own.slug, name: own.name, level: own.level ?? 'B' } : null,
  );
  return { places, loading: canList && listed.isLoading };
}

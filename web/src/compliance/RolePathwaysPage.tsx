import { Link, useParams } from 'react-router';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import { useNotFoundRedirect } from '../entities/shared';
import { Card, EmptyState, PageHeader } from '../ui';
import { useRole } from './RoleCoursesPage';

/**
 * `/entities/{slug}/role/{role}/pathways` (spec 2 §2 lists pathways; issue 5 item 2 "role pathways placeholder").
 * Pathways are not built yet: this page says so plainly instead of showing an empty list that looks real.
 */
export default function RolePathwaysPage() {
  const { slug = '', role = '' } = useParams();
  const roleId = Number(role);
  const wl = useWhitelabel();
  const entity = useEntity(slug);
  const roleQuery = useRole(slug, roleId);
  useNotFoundRedirect(entity.error ?? roleQuery.error, 'role');
  const entityName = entity.data?.name ?? slug;
  const roleName = roleQuery.data?.name ?? 'Job role';
  return (
    <div className="space-y-6">
      <PageHeader
        title={`${roleName}: pathways`}
        breadcrumbs={[
          { label: wl.entitiesAltName, to: '/entities' },
          { label: entityName, to: `/entities/${slug}` },
          { label: roleName, to: `/entities/${slug}/role/${roleId}/courses` },
          { label: 'Pathways' },
        ]}
      />
      <Card>
        <EmptyState
          title="Pathways are not available yet"
          description="Learning pathways for job roles arrive with the pathways feature. Until then, the courses this role requires are managed on its courses page."
          action={
            <Link
              to={`/entities/${encodeURIComponent(slug)}/role/${roleId}/courses`}
              className="focus-ring rounded-lg bg-primary-700 px-4 py-2 text-sm font-medium text-white hover:bg-primary-800"
            >
              {`Courses of ${roleName}`}
            </Link>
          }
        />
      </Card>
    </div>
  );
}

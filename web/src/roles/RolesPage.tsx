import { Messages, Perm, RoleBody } from '@cc/contracts';
import { Link } from 'react-router';
import { NamedListPage } from './NamedListPage';

/** `/entities/{slug}/roles/` (spec 2 §7 "Roles and types"). */
export default function RolesPage() {
  return (
    <NamedListPage
      config={{
        resource: 'roles',
        title: 'Job roles',
        noun: 'Job role',
        schema: RoleBody,
        withInspectable: true,
        // The job role's compliance courses (spec 2 §2 /entities/{slug}/role/{role}/courses).
        rowLinks: (r, slug) => (
          <Link
            to={`/entities/${encodeURIComponent(slug)}/role/${r.id}/courses`}
            className="focus-ring rounded px-2 py-1 text-sm font-medium text-primary-800 hover:underline"
            aria-label={`Courses of ${r.name}`}
          >
            Courses
          </Link>
        ),
        perms: { create: Perm.createRoles, update: Perm.updateRoles, delete: Perm.deleteRoles },
        messages: {
          created: Messages.jobRoleCreated,
          updated: Messages.jobRoleUpdated,
          deleted: Messages.jobRoleDeleted,
        },
      }}
    />
  );
}

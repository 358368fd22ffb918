import { Messages, Perm, RoleBody } from '@cc/contracts';
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

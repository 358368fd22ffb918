import { Messages, Perm, TypeBody } from '@cc/contracts';
import { NamedListPage } from '../roles/NamedListPage';

/** `/entities/{slug}/types` (spec 2 §7 "Roles and types": the same calls under /types). */
export default function TypesPage() {
  return (
    <NamedListPage
      config={{
        resource: 'types',
        title: 'User types',
        noun: 'User type',
        schema: TypeBody,
        withInspectable: false,
        perms: { create: Perm.createTypes, update: Perm.updateTypes, delete: Perm.deleteTypes },
        messages: {
          created: Messages.userTypeCreated,
          updated: Messages.userTypeUpdated,
          deleted: Messages.userTypeDeleted,
        },
      }}
    />
  );
}

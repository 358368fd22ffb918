import { type AuditAction, type AuditKind, PERMISSIONS } from '@cc/contracts';
import type { Transaction } from 'kysely';
import { recordAudit } from '../audit/record';
import type { Database } from '../db/schema';
import type { Ctx } from '../http/context';

type Trx = Transaction<Database>;

const nameOf = (id: number) => PERMISSIONS.find((p) => p.id === id)?.name ?? `permission ${id}`;

/** A set of permission ids as the trail keeps it: ids and their catalogue names. */
export const permissionSet = (ids: readonly number[]) => ({
  permissions: [...ids].sort((a, b) => a - b),
  permissions_label: [...ids].sort((a, b) => a - b).map(nameOf),
});

/**
 * Records the permissions allowed to an organisation or given by a user type, before and after a grant or revoke, in
 * its transaction (issue 35 §3). Nothing moved (granting what was already granted): nothing recorded.
 */
export async function auditPermissionSet(
  trx: Trx,
  ctx: Ctx,
  kind: Extract<AuditKind, 'entity_permissions' | 'type_permissions'>,
  subject: { id: number; entity_id: number; name: string },
  before: readonly number[],
  after: readonly number[],
): Promise<void> {
  if (JSON.stringify([...before].sort()) === JSON.stringify([...after].sort())) return;
  await recordAudit(trx, ctx, {
    action: 'updated',
    kind,
    subjectId: subject.id,
    entityId: subject.entity_id,
    label: subject.name,
    before: permissionSet(before),
    after: permissionSet(after),
  });
}

/** A per-user grant (user_permissions) created, changed or removed. */
export async function auditUserGrant(
  trx: Trx,
  ctx: Ctx,
  action: AuditAction,
  grant: { id: number; user_id: number; primary_entity_id: number },
  before: number | null,
  after: number | null,
): Promise<void> {
  const user = await trx
    .selectFrom('users')
    .select('name')
    .where('id', '=', grant.user_id)
    .executeTakeFirst();
  const permission = nameOf((after ?? before) as number);
  await recordAudit(trx, ctx, {
    action,
    kind: 'user_permission',
    subjectId: grant.id,
    entityId: grant.primary_entity_id,
    userId: grant.user_id,
    label: `the permission "${permission}" ${action === 'deleted' ? 'from' : 'to'} ${user?.name ?? 'a user'}`,
    before: before === null ? null : { permission_id: before, permission_label: nameOf(before) },
    after: after === null ? null : { permission_id: after, permission_label: nameOf(after) },
  });
}

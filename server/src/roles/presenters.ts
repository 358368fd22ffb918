import type { Role, UserType } from '@cc/contracts';
import type { RoleRow } from './queries';

type Row = Omit<RoleRow, 'users_count'> & { users_count?: number };

/** A job role as the client sees it; `inherited` is relative to the entity the list was asked for. */
export function presentRole(row: Row, viewedFromEntityId?: number): Role {
  return {
    id: row.id,
    entity_id: row.entity_id,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    name: row.name,
    inspectable: row.inspectable,
    ...(viewedFromEntityId === undefined ? {} : { inherited: row.entity_id !== viewedFromEntityId }),
    ...(row.users_count === undefined ? {} : { users_count: row.users_count }),
  };
}

export function presentType(row: Row, viewedFromEntityId?: number): UserType {
  const { inspectable: _inspectable, ...role } = presentRole(row, viewedFromEntityId);
  return role;
}

export function presentHolder(u: {
  id: number;
  uuid: string;
  name: string;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
}) {
  return {
    id: u.id,
    uuid: u.uuid,
    name: u.name,
    primary_entity: { id: u.entity_id, slug: u.entity_slug, name: u.entity_name },
  };
}

import type { Tag, TagUser } from '@cc/contracts';
import type { TagRow } from './queries';

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentTag(row: TagRow, usersCount: number): Tag {
  return {
    id: row.id,
    entity_id: row.entity_id,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    name: row.name,
    users_count: usersCount,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export function presentTagUser(u: {
  id: number;
  uuid: string;
  name: string;
  email: string;
  entity_id: number;
  entity_slug: string;
  entity_name: string;
  linked_at: Date | string;
}): TagUser {
  return {
    id: u.id,
    uuid: u.uuid,
    name: u.name,
    email: u.email,
    primary_entity: { id: u.entity_id, slug: u.entity_slug, name: u.entity_name },
    linked_at: iso(u.linked_at),
  };
}

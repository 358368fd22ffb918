import type { Db } from '../db/connect';

/**
 * Demo tags, so the tags page and the drill-down by tags show real rows: at Oakfield House (the demo manager's
 * home) a "Night shift" tag with the demo learner and a few colleagues, and at the group level a "Fire wardens" tag
 * with two staff from each home. Picked by id order, so every demo database is the same.
 */
export async function seedTagsDemo(trx: Db, o: { groupId: number; homeIds: number[]; oakfieldId: number }) {
  const staffOf = (entityId: number, limit: number) =>
    trx
      .selectFrom('users')
      .select('id')
      .where('primary_entity_id', '=', entityId)
      .where('email', 'not in', ['manager@demo.test'])
      .orderBy('id')
      .limit(limit)
      .execute();
  const nightShift = await staffOf(o.oakfieldId, 6);
  const wardens = (await Promise.all(o.homeIds.map((id) => staffOf(id, 8)))).flatMap((rows) =>
    rows.slice(6, 8),
  );
  const tags = await trx
    .insertInto('tags')
    .values([
      { entity_id: o.oakfieldId, name: 'Night shift' },
      { entity_id: o.groupId, name: 'Fire wardens' },
    ])
    .returning(['id', 'name'])
    .execute();
  const idOf = (name: string) => tags.find((t) => t.name === name)?.id as number;
  await trx
    .insertInto('tag_users')
    .values([
      ...nightShift.map((u) => ({ tag_id: idOf('Night shift'), user_id: u.id })),
      ...wardens.map((u) => ({ tag_id: idOf('Fire wardens'), user_id: u.id })),
    ])
    .execute();
}

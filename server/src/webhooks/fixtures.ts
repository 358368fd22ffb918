import { buildEntity, buildUser, clientFor } from '../../test/factories';
import type { Harness } from '../../test/harness';

/** A level A organisation with a home, a manager holding 112 there and a user without it. */
export async function webhookWorld(h: Harness) {
  const group = await buildEntity(h.db);
  const home = await buildEntity(h.db, { parentId: group.id });
  const manager = await buildUser(h.db, { entityId: group.id, permissions: [112] });
  const nobody = await buildUser(h.db, { entityId: group.id, permissions: [] });
  return { group, home, manager, nobody, as: (userId: number) => clientFor(h.app, h.db, userId) };
}

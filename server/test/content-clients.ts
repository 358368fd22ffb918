import { ContentPerm as P, PERMISSIONS } from '@cc/contracts';
import { buildEntity, buildUser, clientFor } from './factories';
import type { Harness } from './harness';

/** The callers authoring tests need: an organisation with a site, and people inside and outside it. */
export const AUTHOR_PERMISSIONS = [
  P.contentCreator,
  P.addCourses,
  P.editCourses,
  P.addContent,
  P.editContent,
];

export async function authoringWorld(h: Harness) {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const as = async (entityId: number, permissions: number[]) =>
    clientFor(h.app, h.db, (await buildUser(h.db, { entityId, permissions })).id);
  return {
    org,
    site,
    author: await as(org.id, AUTHOR_PERMISSIONS),
    siteAuthor: await as(site.id, AUTHOR_PERMISSIONS),
    viewer: await as(org.id, [P.contentCreator]),
    learner: await as(org.id, []),
    outsider: await clientFor(
      h.app,
      h.db,
      (await buildUser(h.db, { permissions: PERMISSIONS.map((p) => p.id) })).id,
    ),
    superAdmin: await clientFor(h.app, h.db, (await buildUser(h.db, { superAdmin: true })).id),
  };
}

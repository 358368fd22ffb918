import { PathwayPerm as P } from '@cc/contracts';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import type { Harness } from '../../test/harness';
import type { Db } from '../db/connect';
import { recordResult } from '../results/service';

/**
 * Test data for pathways: a group with a home, a job role, a manager holding every pathway permission, a signer
 * (26 only), a viewer (24 only), a learner in the role at the home, two courses; another organisation with its
 * own manager; a super admin.
 */
export const ALL_PATHWAY_PERMS = [...new Set([...P.view, P.allocate, P.signOff])];

export async function pathwayWorld(h: Harness) {
  const group = await buildEntity(h.db, { level: 'A', name: 'Oak Care' });
  const home = await buildEntity(h.db, { level: 'B', parentId: group.id, name: 'Oak Home' });
  const role = await buildRole(h.db, group.id, { name: 'Care assistant' });
  const manager = await buildUser(h.db, {
    entityId: group.id,
    permissions: ALL_PATHWAY_PERMS,
    name: 'Mo Manager',
  });
  const signer = await buildUser(h.db, { entityId: group.id, permissions: [P.signOff] });
  const viewer = await buildUser(h.db, { entityId: group.id, permissions: [24] });
  const learner = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Lee Learner' });
  const colleague = await buildUser(h.db, { entityId: home.id, name: 'Cal Colleague' });
  const courseA = await course(h.db, group.id, 'Moving and handling');
  const courseB = await course(h.db, group.id, 'Infection control');
  const other = await buildEntity(h.db, { level: 'A', name: 'Elm Care' });
  const outsider = await buildUser(h.db, { entityId: other.id, permissions: ALL_PATHWAY_PERMS });
  const otherCourse = await course(h.db, other.id, 'Elm course');
  const admin = await buildUser(h.db, { superAdmin: true });
  return {
    group,
    home,
    role,
    manager,
    signer,
    viewer,
    learner,
    colleague,
    courseA,
    courseB,
    other,
    outsider,
    otherCourse,
    admin,
  };
}
export type PathwayWorld = Awaited<ReturnType<typeof pathwayWorld>>;

export async function course(db: Db, entityId: number, title: string) {
  return db
    .insertInto('courses')
    .values({ entity_id: entityId, title, published: true })
    .returning(['id', 'title'])
    .executeTakeFirstOrThrow();
}

export const as = (h: Harness, userId: number) => clientFor(h.app, h.db, userId);

/** A pathway of course A, then course B, then a sign-off, made through the API by the world's manager. */
export async function createPathway(
  h: Harness,
  w: PathwayWorld,
  o: { sequential?: boolean; requires_final_sign_off?: boolean; title?: string } = {},
) {
  const res = await (await as(h, w.manager.id))('POST', '/api/pathways', {
    title: o.title ?? 'Induction',
    sequential: o.sequential ?? true,
    requires_final_sign_off: o.requires_final_sign_off ?? false,
    steps: [
      { type: 'course', course_id: w.courseA.id, due_days: 7 },
      { type: 'course', course_id: w.courseB.id },
      { type: 'sign_off', title: 'Safe moving observed' },
    ],
  });
  if (res.statusCode !== 201) throw new Error(`createPathway: ${res.statusCode} ${res.body}`);
  return res.json().data as {
    id: number;
    course_id: number;
    version: number;
    steps: { key: string; type: string; title: string }[];
  };
}

/** Allocates the pathway to people through the API; returns the allocations' uuids in order. */
export async function allocate(h: Harness, w: PathwayWorld, pathwayId: number, userIds: number[]) {
  const res = await (await as(h, w.manager.id))('POST', `/api/pathways/${pathwayId}/allocations`, {
    user_ids: userIds,
  });
  if (res.statusCode !== 201) throw new Error(`allocate: ${res.statusCode} ${res.body}`);
  return (res.json().data as { uuid: string }[]).map((a) => a.uuid);
}

/** A passed result of a course, recorded the way an attempt records one (hooks included). */
export async function pass(h: Harness, userId: number, entityId: number, courseId: number, at = new Date()) {
  await h.db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId,
        entityId,
        courseId,
        contentId: null,
        type: 'historical',
        passed: true,
        score: null,
        completedAt: at,
        attemptId: null,
        createdBy: null,
      },
      at,
    ),
  );
}

export const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

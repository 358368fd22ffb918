import type { Db } from '../db/connect';

/**
 * Pathways' rows in server/test/tenancy.test.ts (issue 17): the target organisation's pathway (a course step and a
 * sign-off step), allocated to the victim and to the victim's job role, and the cases calling every pathway route
 * with them (outsider: 404 and nothing changes; insider without permissions: 403, or 404 for an allocation, which
 * only its person or someone with a permission in scope reaches at all).
 */
export interface PathwayFixture {
  id: number;
  allocation: string;
  signOffKey: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  pathway: PathwayFixture;
  victim: { id: number };
  org: { slug: string };
  role: { id: number };
}
interface PathwayCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped' | 'own';
}

export async function pathwayFixture(
  db: Db,
  o: { orgId: number; victimId: number; roleId: number; courseId: number; canary: string },
): Promise<PathwayFixture> {
  const course = await db
    .insertInto('courses')
    .values({ entity_id: o.orgId, title: `${o.canary} Pathway`, kind: 'pathway', published: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pathway = await db
    .insertInto('pathways')
    .values({
      entity_id: o.orgId,
      course_id: course.id,
      title: `${o.canary} Pathway`,
      current_version_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('pathway_versions')
    .values({ pathway_id: pathway.id, number: 1, changes: '[]' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const steps = await db
    .insertInto('pathway_steps')
    .values([
      { version_id: version.id, position: 0, type: 'course', course_id: o.courseId },
      { version_id: version.id, position: 1, type: 'sign_off', title: `${o.canary} competence` },
    ])
    .returning(['key', 'type'])
    .execute();
  await db
    .updateTable('pathways')
    .set({ current_version_id: version.id })
    .where('id', '=', pathway.id)
    .execute();
  await db
    .insertInto('pathway_role_allocations')
    .values({ pathway_id: pathway.id, entity_id: o.orgId, role_id: o.roleId })
    .execute();
  const allocation = await db
    .insertInto('pathway_allocations')
    .values({ pathway_id: pathway.id, version_id: version.id, user_id: o.victimId, step_credit: '{}' })
    .onConflict((c) => c.doNothing())
    .returning('uuid')
    .executeTakeFirst();
  const uuid =
    allocation?.uuid ??
    (
      await db
        .selectFrom('pathway_allocations')
        .select('uuid')
        .where('pathway_id', '=', pathway.id)
        .where('user_id', '=', o.victimId)
        .executeTakeFirstOrThrow()
    ).uuid;
  return {
    id: pathway.id,
    allocation: uuid,
    signOffKey: steps.find((s) => s.type === 'sign_off')?.key as string,
  };
}

export function pathwayCases(): PathwayCase[] {
  const c =
    (kind: PathwayCase['kind']) =>
    (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown): PathwayCase => ({
      method,
      route,
      url,
      ...(body ? { body } : {}),
      kind,
    });
  const scoped = c('scoped');
  const own = c('own');
  const pathway = (f: F) => `/api/pathways/${f.pathway.id}`;
  const allocation = (f: F) => `/api/pathway-allocations/${f.pathway.allocation}`;
  const role = (f: F) => `/api/entities/${f.org.slug}/roles/${f.role.id}/pathways`;
  const signOffStep = { type: 'sign_off', title: 'Observed' };
  return [
    scoped(
      'POST',
      '/api/pathways',
      () => '/api/pathways',
      (f) => ({ entity: f.org.slug, title: 'Theirs', steps: [signOffStep] }),
    ),
    scoped('GET', '/api/pathways/:id', pathway),
    scoped('PATCH', '/api/pathways/:id', pathway, () => ({ title: 'Renamed' })),
    scoped('DELETE', '/api/pathways/:id', pathway),
    scoped(
      'POST',
      '/api/pathways/:id/changes',
      (f) => `${pathway(f)}/changes`,
      () => ({ steps: [signOffStep] }),
    ),
    scoped('GET', '/api/pathways/:id/versions/:number', (f) => `${pathway(f)}/versions/1`),
    scoped('GET', '/api/pathways/:id/allocations', (f) => `${pathway(f)}/allocations`),
    scoped(
      'POST',
      '/api/pathways/:id/allocations',
      (f) => `${pathway(f)}/allocations`,
      (f) => ({ user_ids: [f.victim.id] }),
    ),
    scoped('GET', '/api/entities/:slug/roles/:role/pathways', role),
    scoped('POST', '/api/entities/:slug/roles/:role/pathways', role, (f) => ({ pathway_id: f.pathway.id })),
    scoped(
      'DELETE',
      '/api/entities/:slug/roles/:role/pathways/:pathwayId',
      (f) => `${role(f)}/${f.pathway.id}`,
    ),
    own('GET', '/api/pathway-allocations/:uuid', allocation),
    own('DELETE', '/api/pathway-allocations/:uuid', allocation),
    own(
      'POST',
      '/api/pathway-allocations/:uuid/steps/:key/sign-off',
      (f) => `${allocation(f)}/steps/${f.pathway.signOffKey}/sign-off`,
      () => ({ note: 'Seen', signed_on: '2026-01-05' }),
    ),
    own(
      'POST',
      '/api/pathway-allocations/:uuid/sign-off',
      (f) => `${allocation(f)}/sign-off`,
      () => ({ note: 'Ok' }),
    ),
  ];
}

/** GET /pathways: another organisation's list never shows the target's pathway. */
export const pathwayLists = () => [
  {
    method: 'GET' as const,
    route: '/api/pathways',
    url: () => '/api/pathways?per_page=100',
    secrets: (f: F) => [`"id":${f.pathway.id},`],
    insider: 403 as const,
  },
];

export const PATHWAY_TABLES = [
  'pathways',
  'pathway_versions',
  'pathway_steps',
  'pathway_role_allocations',
  'pathway_allocations',
  'pathway_sign_offs',
] as const;

export const PATHWAY_EXEMPT: Record<string, string> = {
  'GET /api/pathways/mine': 'the caller only',
};

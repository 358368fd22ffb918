import type { Db } from '../db/connect';

/**
 * The content designer's rows in server/test/tenancy.test.ts (issue 17): a design of the target's site whose title
 * carries the canary, and the cases calling every designer route with it (outsider holding every permission: 404
 * and nothing changes; insider without permissions: 403).
 */
export interface DesignerFixture {
  id: number;
  uuid: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  designer: DesignerFixture;
  org: { slug: string };
}
interface DesignerCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped';
}

export async function designerFixture(
  db: Db,
  o: { siteId: number; canary: string },
): Promise<DesignerFixture> {
  return db
    .insertInto('designs')
    .values({
      entity_id: o.siteId,
      title: `${o.canary} design`,
      pages: JSON.stringify([
        {
          id: 'p1',
          title: `${o.canary} page`,
          blocks: [{ id: 'b1', type: 'heading', text: 'Hi', level: 2 }],
        },
      ]),
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
}

export function designerCases(): DesignerCase[] {
  const s = (
    method: Method,
    route: string,
    url: (f: F) => string,
    body?: (f: F) => unknown,
  ): DesignerCase => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped',
  });
  const design = (f: F) => `/api/designs/${f.designer.id}`;
  const acting = (path: string) => (f: F) => `${path}?actingAs=${f.org.slug}`;
  return [
    s('POST', '/api/designs', acting('/api/designs'), () => ({ title: 'Planted' })),
    s('POST', '/api/designs/preview', acting('/api/designs/preview'), () => ({ pages: [] })),
    s('GET', '/api/designs/:id', design),
    s('PATCH', '/api/designs/:id', design, () => ({ revision: 1, title: 'Taken over' })),
    s('DELETE', '/api/designs/:id', design),
    s(
      'POST',
      '/api/designs/:id/publish',
      (f) => `${design(f)}/publish`,
      () => ({ new_course_title: 'Planted' }),
    ),
  ];
}

/** GET /designs: another organisation's list never shows the target's design. */
export const designerLists = () => [
  {
    method: 'GET' as const,
    route: '/api/designs',
    url: () => '/api/designs?per_page=100',
    secrets: (f: F) => [f.designer.uuid],
    insider: 403 as const,
  },
];

export const DESIGNER_TABLES = ['designs'] as const;

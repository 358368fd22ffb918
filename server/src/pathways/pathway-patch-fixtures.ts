import { CreatePathwayBody } from '@cc/contracts';
import type { PatchFixture, Row, World } from '../../test/patch-fixtures';

/**
 * PATCH /pathways/{id} in test/patch-fixtures.ts (issue 17): a pathway created with every field off its default,
 * read back through GET /pathways/{id}. Nobody is allocated, so new steps edit version 1 in place; `change_note` and
 * `choices` only matter when a new version is made (not stored otherwise).
 */

async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}

const pathway: PatchFixture<{ id: number; courseId: number }> = {
  async create(w: World) {
    const course = await w.h.db
      .insertInto('courses')
      .values({ entity_id: w.org.id, title: 'Fixture course', published: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const p = await dataOf(
      await w.admin('POST', '/api/pathways', {
        entity: w.org.slug,
        title: 'Induction',
        description: 'The first weeks.',
        sequential: true,
        requires_final_sign_off: true,
        steps: [
          {
            type: 'course',
            course_id: course.id,
            due_days: 7,
            due_from: 'start_date',
            description: 'First.',
          },
          { type: 'sign_off', title: 'Observed' },
        ],
      }),
    );
    return { id: p.id as number, courseId: course.id };
  },
  url: (s) => `/api/pathways/${s.id}`,
  values: (s) => ({
    title: 'Renamed',
    description: 'Changed.',
    sequential: false,
    requires_final_sign_off: false,
    steps: [{ type: 'course', course_id: s.courseId }],
    change_note: 'A note',
    choices: [],
  }),
  async read(s, w) {
    const data = await dataOf(await w.admin('GET', `/api/pathways/${s.id}`));
    const { versions: _versions, updated_at: _updated, ...rest } = data;
    return rest;
  },
  effects: { steps: ['steps', 'step_count'], change_note: [], choices: [] },
  createSchema: CreatePathwayBody,
};

export const PATHWAY_PATCH_FIXTURES: Record<string, PatchFixture> = {
  'PATCH /api/pathways/{id}': pathway,
};

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { recomputeLatestResult, recordResult } from './service';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('recordResult / recomputeLatestResult', () => {
  it('keeps the latest PASSED result in latest_results, falls back to the latest one, and empties on delete', async () => {
    const entity = await buildEntity(h.db);
    const user = await buildUser(h.db, { entityId: entity.id });
    const course = await buildCourse(h.db, entity.id);
    const base = {
      userId: user.id,
      entityId: entity.id,
      courseId: course.id,
      contentId: null,
      attemptId: null,
      createdBy: null,
      score: null,
    };
    const latest = () =>
      h.db
        .selectFrom('latest_results')
        .selectAll()
        .where('user_id', '=', user.id)
        .where('course_id', '=', course.id)
        .executeTakeFirst();

    const failed = await h.db.transaction().execute((trx) =>
      recordResult(trx, {
        ...base,
        type: 'elearning',
        passed: false,
        completedAt: new Date('2024-01-01T10:00:00Z'),
      }),
    );
    expect(await latest()).toMatchObject({ result_id: failed.id, passed: false });

    const pass = await h.db.transaction().execute((trx) =>
      recordResult(trx, {
        ...base,
        type: 'scorm',
        passed: true,
        completedAt: new Date('2024-02-01T10:00:00Z'),
      }),
    );
    // A later failure does not displace the pass.
    await h.db.transaction().execute((trx) =>
      recordResult(trx, {
        ...base,
        type: 'elearning',
        passed: false,
        completedAt: new Date('2024-03-01T10:00:00Z'),
      }),
    );
    expect(await latest()).toMatchObject({
      result_id: pass.id,
      passed: true,
      type: 'scorm',
      expires_at: null,
    });

    await h.db.transaction().execute(async (trx) => {
      await trx.updateTable('results').set({ deleted_at: new Date() }).where('id', '=', pass.id).execute();
      await recomputeLatestResult(trx, user.id, course.id);
    });
    const after = await latest();
    expect(after?.passed).toBe(false);
    expect(after?.result_id).not.toBe(pass.id);

    await h.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('results')
        .set({ deleted_at: new Date() })
        .where('user_id', '=', user.id)
        .execute();
      await recomputeLatestResult(trx, user.id, course.id);
    });
    expect(await latest()).toBeUndefined();
  });
});

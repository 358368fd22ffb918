import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import {
  as,
  documentsWorld,
  makeDocument,
  makeLibrary,
  newVersion,
  open,
  requiredDocument,
} from './fixtures';

/** Read-then-write paths of documents under concurrency (PostgreSQL only: PGlite cannot race). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('documents races', () => {
  it('6 acknowledgements of one version by one person at once: one 201, the rest 409, one result', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    await open(h, w.learner.id, doc.id);
    const learner = await as(h, w.learner.id);
    const calls = await parallel(6, () =>
      learner('POST', `/api/documents/${doc.id}/acknowledge`, { typed_name: 'Lee Learner', version: 1 }),
    );
    expect(calls.map((c) => c.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const results = await h.db
      .selectFrom('results')
      .select('id')
      .where('course_id', '=', doc.course_id)
      .where('user_id', '=', w.learner.id)
      .execute();
    expect(results).toHaveLength(1);
    const latest = await h.db
      .selectFrom('latest_results')
      .select(['result_id', 'result_count'])
      .where('course_id', '=', doc.course_id)
      .where('user_id', '=', w.learner.id)
      .executeTakeFirstOrThrow();
    expect(latest).toEqual({ result_id: results[0]?.id, result_count: 1 });
  });

  it('concurrent new versions get distinct numbers, the last one current', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const doc = await makeDocument(h, w.manager.id, lib.id);
    const calls = await parallel(5, (i) => newVersion(h, w.manager.id, doc.id, `Change ${i}`));
    expect(calls.map((c) => c.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const versions = await h.db
      .selectFrom('document_versions')
      .select('number')
      .where('document_id', '=', doc.id)
      .orderBy('number')
      .execute();
    expect(versions.map((v) => v.number)).toEqual([1, 2, 3, 4, 5, 6]);
    const current = await h.db
      .selectFrom('documents as d')
      .innerJoin('document_versions as v', 'v.id', 'd.current_version_id')
      .select('v.number')
      .where('d.id', '=', doc.id)
      .executeTakeFirstOrThrow();
    expect(current.number).toBe(6);
  });

  it('an acknowledgement racing a new version either lands on the old version (then expires) or is refused', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    await open(h, w.learner.id, doc.id);
    const learner = await as(h, w.learner.id);
    const [ack, version] = await Promise.all([
      learner('POST', `/api/documents/${doc.id}/acknowledge`, { typed_name: 'Lee Learner', version: 1 }),
      newVersion(h, w.manager.id, doc.id),
    ]);
    expect(version.statusCode).toBe(201);
    expect([201, 409]).toContain(ack.statusCode);
    const req = await h.db
      .selectFrom('user_requirements')
      .select(['passed', 'expires_at'])
      .where('user_id', '=', w.learner.id)
      .where('course_id', '=', doc.course_id)
      .executeTakeFirstOrThrow();
    // Never "in date" on version 2 without having acknowledged it.
    expect(req.passed === null || (req.expires_at !== null && req.expires_at <= new Date())).toBe(true);
  });

  it('a document added while its library is deleted: one of them wins, never a document in a deleted library', async () => {
    const w = await documentsWorld(h);
    const lib = await makeLibrary(h, w.manager.id);
    const manager = await as(h, w.manager.id);
    const [del, add] = await Promise.all([
      manager('DELETE', `/api/libraries/${lib.id}`),
      makeDocument(h, w.manager.id, lib.id).then(
        () => 201,
        () => 0,
      ),
    ]);
    const live = await h.db
      .selectFrom('libraries')
      .select('deleted_at')
      .where('id', '=', lib.id)
      .executeTakeFirstOrThrow();
    if (del.statusCode === 200) {
      expect(live.deleted_at).not.toBeNull();
      expect(add).toBe(0);
    } else {
      expect(del.statusCode).toBe(409);
      expect(add).toBe(201);
    }
  });
});

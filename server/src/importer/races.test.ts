import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { as, buildUser, csv, importerWorld, planCsv, runJobs } from './fixtures';

/** The importer under concurrency (PostgreSQL only). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('importer races', () => {
  it('8 applies of one plan at once: one 202, the rest 409, the people created once', async () => {
    const w = await importerWorld(h);
    const file = csv([
      ['name', 'email'],
      ['Amy', `amy-${w.group.slug}@example.test`],
      ['Ben', `ben-${w.group.slug}@example.test`],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'users', file)).json().data;
    const c = await as(h, w.importer.id);
    const codes = await parallel(8, () =>
      c('POST', `/api/importer/imports/${plan.uuid}/apply`).then((r) => r.statusCode),
    );
    expect(codes.filter((s) => s === 202)).toHaveLength(1);
    expect(codes.filter((s) => s === 409)).toHaveLength(7);
    await runJobs(h);
    const made = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', 'like', `%-${w.group.slug}@example.test`)
      .execute();
    expect(made).toHaveLength(2);
  });

  it('8 writers give one employee number in one organisation at once: exactly one keeps it', async () => {
    const w = await importerWorld(h);
    const people = await Promise.all(
      Array.from({ length: 8 }, (_, i) => buildUser(h.db, { entityId: i % 2 ? w.home.id : w.group.id })),
    );
    const outcomes = await parallel(8, (i) =>
      h.db
        .updateTable('users')
        .set({ employee_number: 'SAME-1' })
        .where('id', '=', people[i]?.id ?? 0)
        .execute()
        .then(
          () => 'ok',
          (e: { code?: string }) => e.code,
        ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o === '23505')).toHaveLength(7);
    // Another level A organisation may use the same number.
    const other = await buildUser(h.db);
    await h.db.updateTable('users').set({ employee_number: 'same-1' }).where('id', '=', other.id).execute();
  });
});

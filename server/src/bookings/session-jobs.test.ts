import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { parallel } from '../../test/parallel';
import { registeredJobNames } from '../jobs/queue';
import { DECIDE_MINIMUMS, decideMinimums, registerSessionJobs, TOO_FEW_DELEGATES } from './session-jobs';
import { insertSession, type SessionsWorld, sessionsWorld } from './sessions-world';

/** The minimum-delegates decision (issue 15): at the cut-off a session under its minimum is cancelled or confirmed. */
let h: Harness;
let w: SessionsWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await sessionsWorld(h);
});
afterAll(async () => h?.close());

const HOUR = 3_600_000;

const row = (id: number) =>
  h.db
    .selectFrom('training_sessions as s')
    .leftJoin('cancellation_reasons as r', 'r.id', 's.cancellation_reason_id')
    .select(['s.status', 's.decided_at', 's.places_taken', 's.sequence', 'r.name as reason'])
    .where('s.id', '=', id)
    .executeTakeFirstOrThrow();

describe('decideMinimums', () => {
  it('registers a recurring job', () => {
    registerSessionJobs();
    expect(registeredJobNames()).toContain(DECIDE_MINIMUMS);
  });

  it('under the minimum at the cut-off: cancelled (default) with the reason; at the minimum: confirmed; later ones wait', async () => {
    const now = new Date();
    const base = { entityId: w.org.id, contentId: w.f2f.id, courseId: w.f2f.course_id, minDelegates: 3 };
    // Default cut-off: 72 hours before the start.
    const under = await insertSession(h, {
      ...base,
      startsAt: new Date(now.getTime() + 48 * HOUR),
      placesTaken: 1,
    });
    const met = await insertSession(h, {
      ...base,
      startsAt: new Date(now.getTime() + 70 * HOUR),
      placesTaken: 3,
    });
    const later = await insertSession(h, {
      ...base,
      startsAt: new Date(now.getTime() + 80 * HOUR),
      placesTaken: 0,
    });

    const out = await decideMinimums(h.deps, now);
    expect(out.cancelled).toContain(under.id);
    expect(out.confirmed).toContain(met.id);
    expect(await row(under.id)).toMatchObject({
      status: 'cancelled',
      reason: TOO_FEW_DELEGATES,
      places_taken: 0,
      sequence: 1,
    });
    expect((await row(under.id)).decided_at).not.toBeNull();
    expect(await row(met.id)).toMatchObject({ status: 'confirmed', places_taken: 3 });
    expect(await row(later.id)).toMatchObject({ status: 'scheduled', decided_at: null });

    // Decided once: running again changes nothing.
    const second = await decideMinimums(h.deps, now);
    expect([...second.cancelled, ...second.confirmed]).not.toContain(under.id);
    expect([...second.cancelled, ...second.confirmed]).not.toContain(met.id);
  });

  it("the provider's settings: its own cut-off, and 'confirm' keeps a session under its minimum", async () => {
    const provider = await buildEntity(h.db, { level: 'A', isTrainingCompany: true });
    await h.db
      .insertInto('training_provider_settings')
      .values({ entity_id: provider.id, minimum_decision_hours: 24, under_minimum_action: 'confirm' })
      .execute();
    const now = new Date();
    const base = { entityId: provider.id, contentId: w.f2f.id, courseId: w.f2f.course_id, minDelegates: 4 };
    const soon = await insertSession(h, {
      ...base,
      startsAt: new Date(now.getTime() + 20 * HOUR),
      placesTaken: 1,
    });
    const notYet = await insertSession(h, {
      ...base,
      startsAt: new Date(now.getTime() + 48 * HOUR),
      placesTaken: 1,
    });
    await decideMinimums(h.deps, now);
    expect(await row(soon.id)).toMatchObject({ status: 'confirmed', places_taken: 1 });
    expect(await row(notYet.id)).toMatchObject({ status: 'scheduled', decided_at: null });
  });

  it('two workers at once decide each session once', async () => {
    const now = new Date();
    const base = { entityId: w.org.id, contentId: w.f2f.id, courseId: w.f2f.course_id, minDelegates: 2 };
    const ids = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        insertSession(h, {
          ...base,
          startsAt: new Date(now.getTime() + (10 + i) * HOUR),
          placesTaken: i % 3,
        }).then((s) => s.id),
      ),
    );
    const runs = await parallel(4, () => decideMinimums(h.deps, now));
    const decided = runs.flatMap((r) => [...r.cancelled, ...r.confirmed]).filter((id) => ids.includes(id));
    expect(decided.sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const r = await row(id);
      expect(r.status).toBe(r.places_taken >= 2 ? 'confirmed' : 'cancelled');
      if (r.status === 'cancelled') expect(r.sequence).toBe(1);
    }
  });
});

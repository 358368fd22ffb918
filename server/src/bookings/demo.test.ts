import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { londonInstant } from './demo';

/** The bookings demo: a training company with settings and a trainer, sessions of every kind, consistent seats. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 120_000);
afterAll(async () => h?.close());

const userId = async (email: string) =>
  (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('bookings demo data', () => {
  it('a training company with its settings and a trainer', async () => {
    const company = await h.db
      .selectFrom('entities as e')
      .innerJoin('training_provider_settings as s', 's.entity_id', 'e.id')
      .select(['e.slug', 'e.is_training_company'])
      .executeTakeFirstOrThrow();
    expect(company).toEqual({ slug: 'brightpath-training', is_training_company: true });
    const trainer = await h.db
      .selectFrom('users')
      .select('is_trainer')
      .where('email', '=', 'trainer@demo.test')
      .executeTakeFirstOrThrow();
    expect(trainer.is_trainer).toBe(true);
  });

  it('sessions of face-to-face content: internal, on the marketplace, one full with a waitlist, one past', async () => {
    const now = new Date();
    const sessions = await h.db
      .selectFrom('training_sessions as s')
      .innerJoin('contents as c', 'c.id', 's.content_id')
      .innerJoin('entities as e', 'e.id', 's.entity_id')
      .select(['s.id', 's.status', 's.available_to', 's.starts_at', 's.max_delegates', 's.places_taken'])
      .select(['c.type', 'e.is_training_company', 's.trainer_id'])
      .execute();
    expect(sessions.length).toBeGreaterThanOrEqual(6);
    expect(sessions.every((s) => s.type === 'face2face' && s.trainer_id !== null)).toBe(true);
    const future = sessions.filter((s) => new Date(s.starts_at) > now);
    expect(future.some((s) => s.available_to === 'internal' && !s.is_training_company)).toBe(true);
    expect(
      future.filter((s) => s.available_to !== 'internal' && s.is_training_company).length,
    ).toBeGreaterThan(1);

    // places_taken is the seat count.
    const delegates = await h.db
      .selectFrom('session_delegates')
      .select(['session_id', 'status', 'attendance', 'result_id', 'user_id', 'offer_expires_at'])
      .execute();
    for (const s of sessions) {
      const held = delegates.filter(
        (d) => d.session_id === s.id && ['pending', 'accepted', 'offered'].includes(d.status),
      ).length;
      expect(s.places_taken, `session ${s.id}`).toBe(held);
    }
    const full = sessions.filter((s) => s.places_taken === s.max_delegates && new Date(s.starts_at) > now);
    expect(full).toHaveLength(1);
    const ofFull = delegates.filter((d) => d.session_id === full[0]?.id);
    expect(ofFull.filter((d) => d.status === 'waitlisted').length).toBeGreaterThan(0);
    expect(ofFull.filter((d) => d.status === 'offered')).toHaveLength(1);
    expect(new Date(ofFull.find((d) => d.status === 'offered')?.offer_expires_at ?? 0) > now).toBe(true);

    // The past session: completed, attendance marked, results recorded as face2face.
    const past = sessions.filter((s) => new Date(s.starts_at) < now);
    expect(past.map((s) => s.status)).toEqual(['completed']);
    const marked = delegates.filter((d) => d.session_id === past[0]?.id);
    expect(marked.every((d) => d.attendance !== null && d.result_id !== null)).toBe(true);
    const results = await h.db
      .selectFrom('results')
      .select(['type', 'passed'])
      .where(
        'id',
        'in',
        marked.map((d) => d.result_id as number),
      )
      .execute();
    expect(results.every((r) => r.type === 'face2face')).toBe(true);
    expect(results.filter((r) => r.passed).length).toBeGreaterThan(0);

    // The demo learner has a booking.
    const learner = await userId('learner@demo.test');
    expect(delegates.some((d) => d.user_id === learner && d.status === 'accepted')).toBe(true);
  });

  it("the manager's bookings dashboard shows this demo (sessions, gaps with a next session)", async () => {
    const manager = await userId('manager@demo.test');
    const c = await clientFor(h.app, h.db, manager);
    const res = await c('GET', '/api/dashboards/bookings?deep=1');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.gaps.length).toBeGreaterThan(0);
    expect(data.gaps.some((g: { next_session: unknown }) => g.next_session !== null)).toBe(true);
  });

  it('London wall-clock times become the right instants in winter and summer', () => {
    expect(londonInstant('2026-01-15', '09:30').toISOString()).toBe('2026-01-15T09:30:00.000Z');
    expect(londonInstant('2026-07-15', '09:30').toISOString()).toBe('2026-07-15T08:30:00.000Z');
  });
});

import { BookingsMessages as M, type TrainerOption, type TrainingSessionView } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContent } from '../../test/content-factories';
import { buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import {
  insertSession,
  placeDelegate,
  type SessionsWorld,
  sessionBody,
  sessionsWorld,
} from './sessions-world';

/**
 * Issue 33 §3: a care group names the training company's trainer on its own session. The Trainer picker
 * (GET /training-sessions/trainers) and the save check offer the organisation's own trainers and those of the
 * training companies it books with, and nobody of an unrelated organisation.
 */
let h: Harness;
let w: SessionsWorld;
let providerTrainer: { id: number };
let providerSiteTrainer: { id: number };
let unbookedTrainer: { id: number };
let outsiderTrainer: { id: number };
let admin: { id: number };

beforeAll(async () => {
  h = await createHarness();
  w = await sessionsWorld(h);
  // A training company the group books with: one of the group's carers holds a place on its session.
  const provider = await buildEntity(h.db, { level: 'A', isTrainingCompany: true, name: 'Brightpath Test' });
  const providerSite = await buildEntity(h.db, { parentId: provider.id, name: 'Brightpath North' });
  providerTrainer = await buildUser(h.db, { entityId: provider.id, isTrainer: true, name: 'Jordan Test' });
  providerSiteTrainer = await buildUser(h.db, {
    entityId: providerSite.id,
    isTrainer: true,
    name: 'Jo North',
  });
  await buildUser(h.db, { entityId: provider.id, name: 'Jordan Office' }); // not a trainer
  await bookOnSessionOf(provider.id, w.learner.id);
  // A training company nobody in the group books with, and an unrelated care organisation's trainer.
  const unbooked = await buildEntity(h.db, { level: 'A', isTrainingCompany: true });
  unbookedTrainer = await buildUser(h.db, {
    entityId: unbooked.id,
    isTrainer: true,
    name: 'Jordan Unbooked',
  });
  outsiderTrainer = await buildUser(h.db, {
    entityId: w.otherOrg.id,
    isTrainer: true,
    name: 'Jordan Outsider',
  });
  // The outsider's organisation books with the unbooked company: that relationship is not the group's.
  await bookOnSessionOf(unbooked.id, w.outsider.id);
  admin = await buildUser(h.db, { entityId: w.site.id, superAdmin: true });
});
/** A face-to-face session of `providerId` with `userId` booked on it: the provider is one their organisation books with. */
async function bookOnSessionOf(providerId: number, userId: number): Promise<void> {
  const content = await buildContent(h.db, { entityId: providerId, type: 'face2face', published: true });
  const session = await insertSession(h, {
    entityId: providerId,
    contentId: content.id,
    courseId: content.course_id,
  });
  const delegate = await h.db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  await placeDelegate(h, session.id, delegate);
}

afterAll(async () => h?.close());

async function trainers(userId: number, search = '') {
  const res = await (await w.as(userId))(
    'GET',
    `/api/training-sessions/trainers?per_page=100${search ? `&search=${encodeURIComponent(search)}` : ''}`,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as TrainerOption[]).map((t) => t.name);
}

describe('GET /training-sessions/trainers (issue 33 §3)', () => {
  it("offers the group's trainers and the booked provider's, nobody else's", async () => {
    const names = await trainers(w.manager.id);
    expect(names).toEqual(expect.arrayContaining(['Jo North', 'Jordan Test', 'Tia Trainer']));
    expect(names).not.toContain('Jordan Unbooked');
    expect(names).not.toContain('Jordan Outsider');
    expect(names).not.toContain('Jordan Office');
    expect(await trainers(w.manager.id, 'jordan')).toEqual(['Jordan Test']);
    const res = await (await w.as(w.manager.id))('GET', '/api/training-sessions/trainers?search=jordan');
    expect(res.json().data[0]).toMatchObject({ provider: true, entity: { name: 'Brightpath Test' } });
  });

  it("the outsider sees their own provider's trainer, not the group's", async () => {
    const names = await trainers(w.outsider.id);
    expect(names).toEqual(expect.arrayContaining(['Jordan Outsider', 'Jordan Unbooked']));
    expect(names).not.toContain('Jordan Test');
    expect(names).not.toContain('Tia Trainer');
  });

  it('a super admin finds the provider trainer', async () => {
    expect(await trainers(admin.id, 'Jordan Test')).toEqual(['Jordan Test']);
  });

  it('401 anonymous, 403 without a bookings permission', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/training-sessions/trainers' })).statusCode).toBe(
      401,
    );
    expect((await (await w.as(w.nobody.id))('GET', '/api/training-sessions/trainers')).statusCode).toBe(403);
  });
});

describe('naming a trainer on a session (issue 33 §3)', () => {
  it("saves the booked provider's trainer; 422 for a trainer outside the set", async () => {
    const manager = await w.as(w.manager.id);
    const res = await manager(
      'POST',
      '/api/training-sessions',
      sessionBody(w, { trainerId: providerTrainer.id }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const s = (res.json() as { data: TrainingSessionView }).data;
    expect(s.trainer?.name).toBe('Jordan Test');
    const patched = await manager('PATCH', `/api/training-sessions/${s.id}`, {
      trainerId: providerSiteTrainer.id,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    for (const outside of [unbookedTrainer, outsiderTrainer]) {
      const refused = await manager(
        'POST',
        '/api/training-sessions',
        sessionBody(w, { trainerId: outside.id }),
      );
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors.trainerId).toEqual([M.notATrainer]);
      const edit = await manager('PATCH', `/api/training-sessions/${s.id}`, { trainerId: outside.id });
      expect(edit.statusCode).toBe(422);
    }
  });
});

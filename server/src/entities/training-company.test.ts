import { BookingsPerm as B, Perm, type TrainerOption, TrainingCompanyMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { ALL, type BookingWorld, bookingWorld, buildSession } from '../bookings/delegate-fixtures';
import { placeDelegate } from '../bookings/sessions-world';

/**
 * Issue 29 §7: an organisation that marks itself a training company waits for a super admin before it reaches other
 * organisations. Until approved its external sessions are not on their marketplace (nor bookable, nor orderable) and
 * its trainers are not offered to those who book with it; nobody but a super admin approves (403); approval lists
 * them, refusal takes them off again. Run on PostgreSQL as every server test file (SERVER_SUITE=postgres).
 */
let h: Harness;
let w: BookingWorld;
let fresh: { id: number; slug: string };
let freshAdmin: { id: number };
let superAdmin: { id: number };
let sessionId: number;

beforeAll(async () => {
  h = await createHarness();
  w = await bookingWorld(h.db, h.app);
  // A self-run organisation: its own admin holds every permission its organisation allows.
  fresh = await buildEntity(h.db, { level: 'A', name: 'Fresh Training Ltd' });
  freshAdmin = await buildUser(h.db, { entityId: fresh.id, permissions: ALL, name: 'Fay Fresh' });
  await buildUser(h.db, { entityId: fresh.id, isTrainer: true, name: 'Fergus Freshtrainer' });
  superAdmin = await buildUser(h.db, { entityId: w.group.id, superAdmin: true });
});
afterAll(async () => h?.close());

const statusOf = async (id: number) =>
  (
    await h.db
      .selectFrom('entities')
      .select(['is_training_company', 'training_company_status'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).training_company_status;

const marketplaceIds = async () => {
  const res = await w.m('GET', '/api/marketplace?per_page=100');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: number }[]).map((s) => s.id);
};
const availableIds = async () => {
  const res = await w.l('GET', `/api/users/${w.learner.id}/available-training?per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as { id: number }[]).map((s) => s.id);
};
const trainerNames = async () => {
  const res = await w.m('GET', '/api/training-sessions/trainers?per_page=100&search=Freshtrainer');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as TrainerOption[]).map((t) => t.name);
};
async function gql(userId: number, query: string, variables: Record<string, unknown> = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: await bearer(h.db, userId),
    payload: { query, variables },
  });
  return res.json() as {
    data?: Record<string, { status: string } | null> | null;
    errors?: { extensions?: { code?: string } }[];
  };
}

describe('becoming a training company (issue 29 §7)', () => {
  it('marking oneself a training company is a request: pending, and nothing reaches other organisations', async () => {
    const admin = await w.as(freshAdmin.id);
    const res = await admin('PATCH', `/api/entities/${fresh.slug}`, { is_training_company: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ is_training_company: true, training_company_status: 'pending' });

    const session = await buildSession(h.db, fresh.id, { availableTo: 'all', title: 'Fresh First Aid' });
    sessionId = session.id;
    // A delegate of the group on its session: the group books with it, were it a provider.
    await placeDelegate(h, session.id, { id: w.colleague.id, primary_entity_id: w.home.id });

    expect(await marketplaceIds()).not.toContain(session.id);
    expect(await availableIds()).not.toContain(session.id);
    const order = await w.m('POST', '/api/training-orders', { session_id: session.id, places: 1 });
    expect(order.statusCode).toBe(404);
    expect((await w.l('POST', `/api/training-sessions/${session.id}/book`, {})).statusCode).toBe(404);
    expect(await trainerNames()).toEqual([]);
    // Its own sessions and settings do not wait.
    expect((await admin('GET', `/api/entities/${fresh.slug}/training-provider-settings`)).statusCode).toBe(
      200,
    );
    const own = await admin('GET', `/api/training-sessions/${session.id}`);
    expect(own.statusCode, own.body).toBe(200);
  });

  it('nobody but a super admin approves or refuses, nor lists the requests (403), and nothing changes', async () => {
    for (const userId of [freshAdmin.id, w.outsider.id, w.manager.id]) {
      const client = await w.as(userId);
      for (const action of ['approve', 'refuse'])
        expect(
          (await client('POST', `/api/entities/${fresh.slug}/training-company/${action}`)).statusCode,
        ).toBe(403);
      expect((await client('GET', '/api/training-company-requests')).statusCode).toBe(403);
      const body = await gql(userId, 'mutation ($e: ID!) { approveTrainingCompany(entity: $e) { id } }', {
        e: fresh.slug,
      });
      expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    }
    expect(
      (await h.app.inject({ method: 'POST', url: `/api/entities/${fresh.slug}/training-company/approve` }))
        .statusCode,
    ).toBe(401);
    expect(await statusOf(fresh.id)).toBe('pending');
    expect(await marketplaceIds()).not.toContain(sessionId);
  });

  it('a super admin sees the request and approves it: the sessions are listed, bookable and orderable', async () => {
    const admin = await w.as(superAdmin.id);
    const list = await admin('GET', '/api/training-company-requests');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toContainEqual(
      expect.objectContaining({
        id: fresh.id,
        name: 'Fresh Training Ltd',
        status: 'pending',
        decided_by: null,
      }),
    );
    // The demo's and the tests' approved companies are not waiting.
    expect(list.json().data.map((r: { id: number }) => r.id)).not.toContain(w.company.id);
    expect((await admin('POST', '/api/entities/999999/training-company/approve')).statusCode).toBe(404);
    expect(
      (await admin('POST', `/api/entities/${w.outsiderOrg.slug}/training-company/approve`)).statusCode,
    ).toBe(404);

    // The platform's act: a super admin viewing another organisation (acting-as) answers too.
    const res = await admin(
      'POST',
      `/api/entities/${fresh.slug}/training-company/approve?actingAs=${w.group.slug}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: TrainingCompanyMessages.approved,
      data: { id: fresh.id, status: 'approved', decided_by: { id: superAdmin.id } },
    });
    expect(await marketplaceIds()).toContain(sessionId);
    expect(await availableIds()).toContain(sessionId);
    expect(await trainerNames()).toEqual(['Fergus Freshtrainer']);
    const order = await w.m('POST', '/api/training-orders', { session_id: sessionId, places: 1 });
    expect(order.statusCode, order.body).toBe(201);
    const booked = await w.l('POST', `/api/training-sessions/${sessionId}/book`, {});
    expect(booked.statusCode, booked.body).toBe(201);
    const approved = await admin('GET', '/api/training-company-requests?status=approved&search=fresh');
    expect(approved.json().data).toEqual([
      expect.objectContaining({ id: fresh.id, decided_by: { id: superAdmin.id, name: expect.any(String) } }),
    ]);
  });

  it('refusing takes them off; the organisation can ask again (pending), not while approved (422)', async () => {
    const admin = await w.as(superAdmin.id);
    const refused = await gql(
      superAdmin.id,
      'mutation ($e: ID!) { refuseTrainingCompany(entity: $e) { status } }',
      {
        e: fresh.slug,
      },
    );
    expect(refused.data?.refuseTrainingCompany?.status).toBe('refused');
    expect(await marketplaceIds()).not.toContain(sessionId);
    expect(await trainerNames()).toEqual([]);

    const own = await w.as(freshAdmin.id);
    const again = await own('POST', `/api/entities/${fresh.slug}/training-company/request`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.training_company_status).toBe('pending');
    expect((await w.o('POST', `/api/entities/${fresh.slug}/training-company/request`)).statusCode).toBe(404);
    const idle = await buildUser(h.db, { entityId: fresh.id, permissions: [B.ownBookings] });
    expect(
      (await (await w.as(idle.id))('POST', `/api/entities/${fresh.slug}/training-company/request`))
        .statusCode,
    ).toBe(403);

    expect((await admin('POST', `/api/entities/${fresh.slug}/training-company/approve`)).statusCode).toBe(
      200,
    );
    const twice = await own('POST', `/api/entities/${fresh.slug}/training-company/request`);
    expect(twice.statusCode).toBe(422);
    expect(twice.json()).toMatchObject({ message: TrainingCompanyMessages.alreadyApproved });
    // Sending the flag back unchanged (a full settings form) keeps the approval; turning it off clears it.
    expect(
      (await own('PATCH', `/api/entities/${fresh.slug}`, { is_training_company: true })).json().data
        .training_company_status,
    ).toBe('approved');
    expect(
      (await own('PATCH', `/api/entities/${fresh.slug}`, { is_training_company: false })).json().data
        .training_company_status,
    ).toBeNull();
    const back = await own('PATCH', `/api/entities/${fresh.slug}`, { is_training_company: true });
    expect(back.json().data.training_company_status).toBe('pending');
    expect(await marketplaceIds()).not.toContain(sessionId);
  });

  it("a super admin's own training company is approved as it is made", async () => {
    const admin = await w.as(superAdmin.id);
    const made = await admin('POST', '/api/entities', {
      name: 'Admin Made Training',
      level: 'A',
      is_training_company: true,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.training_company_status).toBe('approved');
    const plain = await buildEntity(h.db, { level: 'A', name: 'Plain Care Ltd' });
    const listed = await admin('POST', `/api/entities/${plain.slug}/training-company/request`);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toMatchObject({
      is_training_company: true,
      training_company_status: 'approved',
    });
    const site = await admin('POST', '/api/entities', {
      name: 'Plain Home',
      level: 'B',
      parent_id: w.group.id,
    });
    expect(site.json().data.training_company_status).toBeNull();
    // A site made by the group's own admin as a training company waits.
    const groupAdmin = await buildUser(h.db, { entityId: w.group.id, permissions: [Perm.addEntity] });
    const asked = await (await w.as(groupAdmin.id))('POST', '/api/entities', {
      name: 'Group Academy',
      level: 'B',
      parent_id: w.group.id,
      is_training_company: true,
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json().data.training_company_status).toBe('pending');
  });
});

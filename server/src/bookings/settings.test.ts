import { BookingsMessages, BookingsPerm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { NOT_A_TRAINING_COMPANY } from './settings';

/** /entities/{slug}/training-provider-settings and /delegate-settings: 401, 422, 403, 404 (other organisation), happy. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);

async function world() {
  const company = await buildEntity(h.db, { level: 'A', isTrainingCompany: true, name: 'Skills Co' });
  const home = await buildEntity(h.db, { level: 'A', name: 'Oak Care' });
  const site = await buildEntity(h.db, { level: 'B', parentId: home.id, name: 'Oak Home' });
  const provider = await buildUser(h.db, {
    entityId: company.id,
    permissions: [BookingsPerm.trainingProvider],
  });
  const staffer = await buildUser(h.db, { entityId: company.id, permissions: [BookingsPerm.createBookings] });
  const manager = await buildUser(h.db, {
    entityId: home.id,
    permissions: [BookingsPerm.editBooking, BookingsPerm.trainingProvider],
  });
  const learner = await buildUser(h.db, { entityId: site.id, permissions: [BookingsPerm.ownBookings] });
  return { company, home, site, provider, staffer, manager, learner };
}

describe('/api/entities/{slug}/training-provider-settings', () => {
  it('401 without sign-in', async () => {
    const { company } = await world();
    const url = `/api/entities/${company.slug}/training-provider-settings`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PATCH', url, payload: {} })).statusCode).toBe(401);
  });

  it('answers the defaults until saved, then changes only the fields sent', async () => {
    const { company, provider } = await world();
    const c = await as(provider.id);
    const url = `/api/entities/${company.slug}/training-provider-settings`;
    const first = await c('GET', url);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      entity_id: company.id,
      delegate_auto_accept_period: 48,
      delegate_removal_cutoff_hours: 48,
      practical_min_delegates: 4,
      practical_max_delegates: 12,
      theory_min_delegates: 4,
      theory_max_delegates: 20,
      waitlist_claim_hours: 24,
      waitlist_cutoff_hours: 24,
      minimum_decision_hours: 72,
      under_minimum_action: 'cancel',
    });
    const res = await c('PATCH', url, { theory_max_delegates: 25 });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BookingsMessages.settingsUpdated);
    expect(res.json().data).toEqual({ ...first.json().data, theory_max_delegates: 25 });
    const again = await c('PATCH', url, { under_minimum_action: 'confirm' });
    expect(again.json().data).toEqual({
      ...first.json().data,
      theory_max_delegates: 25,
      under_minimum_action: 'confirm',
    });
    expect((await c('GET', url)).json().data.theory_max_delegates).toBe(25);
  });

  it('422: a minimum above the maximum, checked against the stored settings; bad values', async () => {
    const { company, provider } = await world();
    const c = await as(provider.id);
    const url = `/api/entities/${company.slug}/training-provider-settings`;
    await c('PATCH', url, { practical_max_delegates: 8 });
    const res = await c('PATCH', url, { practical_min_delegates: 9 });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The minimum cannot be more than the maximum.');
    expect(res.json().errors).toEqual({ practical_min_delegates: [BookingsMessages.minAboveMax] });
    const lower = await c('PATCH', url, { theory_max_delegates: 3 });
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors).toEqual({ theory_max_delegates: [BookingsMessages.minAboveMax] });
    expect((await c('PATCH', url, { waitlist_claim_hours: 0 })).statusCode).toBe(422);
    expect((await c('PATCH', url, { under_minimum_action: 'maybe' })).statusCode).toBe(422);
    // Nothing was written by the refusals.
    expect((await c('GET', url)).json().data).toMatchObject({
      practical_min_delegates: 4,
      practical_max_delegates: 8,
      theory_max_delegates: 20,
      waitlist_claim_hours: 24,
    });
  });

  it('two PATCHes at once that are each right but wrong together: one wins, the other is 422, min <= max', async () => {
    for (let round = 0; round < 5; round++) {
      const { company, provider } = await world();
      const c = await as(provider.id);
      const url = `/api/entities/${company.slug}/training-provider-settings`;
      const [a, b] = await Promise.all([
        c('PATCH', url, { practical_min_delegates: 10 }),
        c('PATCH', url, { practical_max_delegates: 5 }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
      const loser = a.statusCode === 422 ? a : b;
      expect(loser.json().message).toBe(BookingsMessages.minAboveMax);
      const now = (await c('GET', url)).json().data;
      expect(now.practical_min_delegates).toBeLessThanOrEqual(now.practical_max_delegates);
    }
  });

  it('422 with a clear message for an organisation that is not a training company', async () => {
    const { home, manager } = await world();
    const res = await (await as(manager.id))('GET', `/api/entities/${home.slug}/training-provider-settings`);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(NOT_A_TRAINING_COMPANY);
  });

  it('403 without training provider (110)', async () => {
    const { company, staffer } = await world();
    const c = await as(staffer.id);
    const url = `/api/entities/${company.slug}/training-provider-settings`;
    expect((await c('GET', url)).statusCode).toBe(403);
    expect((await c('PATCH', url, { theory_max_delegates: 30 })).statusCode).toBe(403);
  });

  it('404 for another organisation, which stays unchanged; 404 for an unknown slug', async () => {
    const { company, manager } = await world();
    const c = await as(manager.id);
    const url = `/api/entities/${company.slug}/training-provider-settings`;
    expect((await c('GET', url)).statusCode).toBe(404);
    expect((await c('PATCH', url, { theory_max_delegates: 30 })).statusCode).toBe(404);
    expect((await c('GET', '/api/entities/no-such-org/training-provider-settings')).statusCode).toBe(404);
    const rows = await h.db
      .selectFrom('training_provider_settings')
      .selectAll()
      .where('entity_id', '=', company.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('/api/entities/{slug}/delegate-settings', () => {
  it('401 without sign-in', async () => {
    const { site } = await world();
    const url = `/api/entities/${site.slug}/delegate-settings`;
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PATCH', url, payload: {} })).statusCode).toBe(401);
  });

  it('defaults, then a PATCH of one field (a manager of the group, on a home of it)', async () => {
    const { site, manager } = await world();
    const c = await as(manager.id);
    const url = `/api/entities/${site.slug}/delegate-settings`;
    expect((await c('GET', url)).json().data).toEqual({
      entity_id: site.id,
      require_approval: false,
      allow_self_cancel: true,
      send_calendar_invites: true,
      notify_managers: true,
    });
    const res = await c('PATCH', url, { require_approval: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(BookingsMessages.settingsUpdated);
    const res2 = await c('PATCH', url, { send_calendar_invites: false });
    expect(res2.json().data).toEqual({
      entity_id: site.id,
      require_approval: true,
      allow_self_cancel: true,
      send_calendar_invites: false,
      notify_managers: true,
    });
  });

  it('a home without its own settings shows the group’s, and its first save changes only the fields sent', async () => {
    const { home, site, manager } = await world();
    const c = await as(manager.id);
    await c('PATCH', `/api/entities/${home.slug}/delegate-settings`, {
      require_approval: true,
      notify_managers: false,
    });
    const url = `/api/entities/${site.slug}/delegate-settings`;
    expect((await c('GET', url)).json().data).toEqual({
      entity_id: site.id,
      require_approval: true,
      allow_self_cancel: true,
      send_calendar_invites: true,
      notify_managers: false,
    });
    const res = await c('PATCH', url, { allow_self_cancel: false });
    expect(res.json().data).toEqual({
      entity_id: site.id,
      require_approval: true,
      allow_self_cancel: false,
      send_calendar_invites: true,
      notify_managers: false,
    });
    // The home's own row now stands: a later change at the group does not reach it.
    await c('PATCH', `/api/entities/${home.slug}/delegate-settings`, { require_approval: false });
    expect((await c('GET', url)).json().data.require_approval).toBe(true);
  });

  it('422 for a value of the wrong kind', async () => {
    const { site, manager } = await world();
    const res = await (await as(manager.id))('PATCH', `/api/entities/${site.slug}/delegate-settings`, {
      notify_managers: 'sometimes',
    });
    expect(res.statusCode).toBe(422);
  });

  it('403 without create bookings (9) or edit booking (11)', async () => {
    const { site, learner } = await world();
    const c = await as(learner.id);
    const url = `/api/entities/${site.slug}/delegate-settings`;
    expect((await c('GET', url)).statusCode).toBe(403);
    expect((await c('PATCH', url, { notify_managers: false })).statusCode).toBe(403);
  });

  it('404 for another organisation', async () => {
    const { site, staffer } = await world();
    const c = await as(staffer.id);
    const url = `/api/entities/${site.slug}/delegate-settings`;
    expect((await c('GET', url)).statusCode).toBe(404);
    expect((await c('PATCH', url, { notify_managers: false })).statusCode).toBe(404);
    const rows = await h.db
      .selectFrom('delegate_settings')
      .selectAll()
      .where('entity_id', '=', site.id)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('GraphQL settings', () => {
  it('reads and updates both settings with the same rules', async () => {
    const { company, site, provider, manager } = await world();
    const gql = async (userId: number, query: string, variables: object) => {
      const c = await as(userId);
      return (await c('POST', '/graphql', { query, variables })).json();
    };
    const read = await gql(
      provider.id,
      'query ($slug: String!) { trainingProviderSettings(slug: $slug) { entity_id theory_max_delegates under_minimum_action } }',
      { slug: company.slug },
    );
    expect(read.data.trainingProviderSettings).toEqual({
      entity_id: company.id,
      theory_max_delegates: 20,
      under_minimum_action: 'cancel',
    });
    const bad = await gql(
      provider.id,
      'mutation ($slug: String!) { updateTrainingProviderSettings(slug: $slug, input: { theory_min_delegates: 30 }) { entity_id } }',
      { slug: company.slug },
    );
    expect(bad.errors[0].extensions.validation).toEqual({
      theory_min_delegates: [BookingsMessages.minAboveMax],
    });
    const upd = await gql(
      manager.id,
      'mutation ($slug: String!) { updateDelegateSettings(slug: $slug, input: { notify_managers: false }) { notify_managers require_approval } }',
      { slug: site.slug },
    );
    expect(upd.data.updateDelegateSettings).toEqual({ notify_managers: false, require_approval: false });
    const outsider = await gql(
      provider.id,
      'query ($slug: String!) { delegateSettings(slug: $slug) { entity_id } }',
      { slug: site.slug },
    );
    expect(outsider.errors[0].extensions.status).toBe(404);
  });
});

import { CareCertificateMessages as M, CareCertificatePerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { as, certificateWorld, versionId } from './certificate-fixtures';

/** /care-certificate-settings?actingAs (86): inherited, first PATCH from the applied values; 401, 422, 403, 404. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const url = '/api/care-certificate-settings';

describe('/api/care-certificate-settings', () => {
  it('401 without sign-in', async () => {
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PATCH', url, payload: {} })).statusCode).toBe(401);
  });

  it('defaults, then the group’s saved settings apply to its home until the home saves its own (only sent fields)', async () => {
    const w = await certificateWorld(h);
    const group = await as(h, w.manager.id);
    const first = await group('GET', url);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      entity_id: w.group.id,
      expected_weeks: 12,
      default_version_id: null,
      inherited_from: null,
    });
    const v = await versionId(h.db, '2015');
    const saved = await group('PATCH', url, { default_version_id: v });
    expect(saved.json().message).toBe(M.settingsUpdated);
    expect(saved.json().data).toEqual({
      entity_id: w.group.id,
      expected_weeks: 12,
      default_version_id: v,
      inherited_from: { id: w.group.id, name: 'Oak Care' },
    });
    const homeManager = await buildUser(h.db, { entityId: w.home.id, permissions: [P.assign] });
    const home = await as(h, homeManager.id);
    expect((await home('GET', url)).json().data).toEqual({
      entity_id: w.home.id,
      expected_weeks: 12,
      default_version_id: v,
      inherited_from: { id: w.group.id, name: 'Oak Care' },
    });
    // The group manager acting as the home sees the same.
    expect((await group('GET', `${url}?actingAs=${w.home.slug}`)).json().data.entity_id).toBe(w.home.id);
    const own = await home('PATCH', url, { expected_weeks: 8 });
    expect(own.json().data).toEqual({
      entity_id: w.home.id,
      expected_weeks: 8,
      default_version_id: v,
      inherited_from: { id: w.home.id, name: 'Oak Home' },
    });
    await group('PATCH', url, { expected_weeks: 20 });
    expect((await home('GET', url)).json().data.expected_weeks).toBe(8);
  });

  it('422 bad values; 403 without 86; 404 acting as another organisation', async () => {
    const w = await certificateWorld(h);
    const c = await as(h, w.manager.id);
    const bad = await c('PATCH', url, { expected_weeks: 0 });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['expected_weeks']);
    const missing = await c('PATCH', url, { default_version_id: 999999 });
    expect(missing.json().errors).toEqual({ default_version_id: ['Choose a version.'] });
    expect((await (await as(h, w.observer.id))('GET', url)).statusCode).toBe(403);
    expect((await (await as(h, w.observer.id))('PATCH', url, { expected_weeks: 3 })).statusCode).toBe(403);
    const outsider = await as(h, w.outsider.id);
    expect((await outsider('GET', `${url}?actingAs=${w.home.slug}`)).statusCode).toBe(404);
    expect(
      (await outsider('PATCH', `${url}?actingAs=${w.home.slug}`, { expected_weeks: 3 })).statusCode,
    ).toBe(404);
    const row = await h.db
      .selectFrom('care_certificate_settings')
      .select('entity_id')
      .where('entity_id', 'in', [w.home.id, w.group.id])
      .execute();
    expect(row).toHaveLength(0);
  });
});

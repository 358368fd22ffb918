import { PERMISSIONS, type StarterMatrixApplied, type StarterMatrixPreview } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';
import { insertCareRoles } from '../demo/seed';
import { STARTER_COURSES, STARTER_ROLES, STARTER_RULES } from './catalogue';

/**
 * The starter training matrix (issue 37 §2): applied to a new organisation (made as registration makes one: the care
 * job roles, no courses), its compliance matrix asks a care worker for the catalogue's courses; the preview says what
 * will be made and what is kept; applying twice adds nothing; what the organisation set is never changed; parallel
 * applies on PostgreSQL make each thing once.
 */
let h: Harness;
const ALL = PERMISSIONS.map((p) => p.id);
type Client = Awaited<ReturnType<typeof clientFor>>;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A new organisation as registration makes it (registration/service.ts): the care job roles, an Administrator. */
async function newOrganisation() {
  const org = await buildEntity(h.db, { level: 'A' });
  const roles = await insertCareRoles(h.db, org.id);
  const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL, roleId: roles.Administrator });
  return { org, roles, as: await clientFor(h.app, h.db, admin.id) };
}

const preview = async (as: Client, slug: string) => {
  const res = await as('GET', `/api/entities/${slug}/starter-matrix`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as StarterMatrixPreview;
};

const countRows = async (orgId: number) => ({
  courses: Number(
    (
      await h.db
        .selectFrom('courses')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('entity_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n,
  ),
  roles: Number(
    (
      await h.db
        .selectFrom('entity_roles')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('entity_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n,
  ),
  rules: Number(
    (
      await h.db
        .selectFrom('compliance_rules')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('entity_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n,
  ),
});

describe('the catalogue', () => {
  it('names only its own courses and roles in its rules, each pair once', () => {
    const courses = new Set(STARTER_COURSES.map((c) => c.key));
    const roles = new Set(STARTER_ROLES.map((r) => r.key));
    for (const rule of STARTER_RULES) {
      expect(courses.has(rule.course), rule.course).toBe(true);
      expect(roles.has(rule.role), rule.role).toBe(true);
    }
    const pairs = STARTER_RULES.map((r) => `${r.role}:${r.course}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    // Every role of the issue has rules.
    for (const role of roles)
      expect(
        STARTER_RULES.some((r) => r.role === role),
        role,
      ).toBe(true);
  });

  it('cites a source for every course and leaves the period unset where the guidance gives none', () => {
    for (const c of STARTER_COURSES) {
      expect(c.sources.length, c.key).toBeGreaterThan(0);
      if (c.refreshMonths === null) expect(c.refreshBasis, c.key).toMatch(/organisation decides/);
      else expect([12, 36], c.key).toContain(c.refreshMonths);
    }
  });
});

describe('GET and POST /api/entities/{slug}/starter-matrix', () => {
  let world: Awaited<ReturnType<typeof newOrganisation>>;
  let applied: StarterMatrixApplied;
  beforeAll(async () => {
    world = await newOrganisation();
  });

  it('previews a new organisation: every course to add, the care roles it has kept, every rule to add', async () => {
    const p = await preview(world.as, world.org.slug);
    expect(p.fresh).toBe(true);
    expect(p.courses.every((c) => c.action === 'create')).toBe(true);
    const byKey = Object.fromEntries(p.roles.map((r) => [r.key, r]));
    // Registration's roles are matched by their usual names, not duplicated.
    expect(byKey['care-worker']).toMatchObject({ action: 'keep', existing: { name: 'Care Assistant' } });
    expect(byKey['senior-carer']).toMatchObject({ action: 'keep', existing: { name: 'Senior Carer' } });
    expect(byKey.nurse).toMatchObject({ action: 'keep', existing: { name: 'Nurse' } });
    expect(byKey['registered-manager']).toMatchObject({ action: 'keep', existing: { name: 'Home Manager' } });
    expect(byKey['kitchen-staff']).toMatchObject({ action: 'keep', existing: { name: 'Cook' } });
    expect(byKey['domestic-staff']).toMatchObject({ action: 'keep', existing: { name: 'Housekeeper' } });
    expect(p.to_create).toEqual({ courses: STARTER_COURSES.length, roles: 0, rules: STARTER_RULES.length });
    // The preview wrote nothing.
    expect(await countRows(world.org.id)).toMatchObject({ courses: 0, rules: 0 });
  });

  it('applies: the courses, rules and periods of the catalogue; the preview then has nothing to add', async () => {
    const res = await world.as('POST', `/api/entities/${world.org.slug}/starter-matrix`);
    expect(res.statusCode, res.body).toBe(201);
    applied = res.json().data;
    expect(applied.created).toEqual({
      courses: STARTER_COURSES.length,
      roles: 0,
      rules: STARTER_RULES.length,
    });
    expect(res.json().message).toMatch(/19 courses, 0 job roles and \d+ course rules added/);
    const rows = await h.db
      .selectFrom('compliance_rules as r')
      .innerJoin('courses as c', 'c.id', 'r.course_id')
      .innerJoin('entity_roles as ro', 'ro.id', 'r.role_id')
      .select(['ro.name as role', 'c.title', 'r.type', 'r.validity_months'])
      .where('r.entity_id', '=', world.org.id)
      .execute();
    expect(rows).toContainEqual({
      role: 'Care Assistant',
      title: 'Fire safety',
      type: 'primary',
      validity_months: 12,
    });
    expect(rows).toContainEqual({
      role: 'Care Assistant',
      title: 'Infection prevention and control',
      type: 'primary',
      validity_months: 36,
    });
    // No period in the guidance: unset, the organisation decides.
    expect(rows).toContainEqual({
      role: 'Care Assistant',
      title: 'Dementia awareness',
      type: 'secondary',
      validity_months: null,
    });
    expect(rows).toContainEqual({
      role: 'Senior Carer',
      title: 'Medication',
      type: 'primary',
      validity_months: 12,
    });
    expect(rows).toContainEqual({ role: 'Cook', title: 'Food safety', type: 'primary', validity_months: 36 });
    expect(rows.filter((r) => r.role === 'Care Assistant' && r.title === 'Medication')).toEqual([]);
    const after = await preview(world.as, world.org.slug);
    expect(after.to_create).toEqual({ courses: 0, roles: 0, rules: 0 });
    expect(after.fresh).toBe(false);
  });

  it('shows a care worker the expected required courses in the compliance matrix', async () => {
    const carer = await buildUser(h.db, { entityId: world.org.id, roleId: world.roles['Care Assistant'] });
    const cook = await buildUser(h.db, { entityId: world.org.id, roleId: world.roles.Cook });
    const res = await world.as('POST', '/api/reports/matrix', {
      directFormat: 'json',
      compliance_type: 'all',
    });
    expect(res.statusCode, res.body).toBe(200);
    const cells = res.json().data.cells as {
      user_id: number;
      course_id: number;
      type: string;
      status: string;
    }[];
    const titleOf = new Map(applied.courses.map((c) => [c.existing?.id, c.title]));
    const required = (userId: number, type: string) =>
      cells
        .filter((c) => c.user_id === userId && c.type === type)
        .map((c) => titleOf.get(c.course_id))
        .sort();
    expect(required(carer.id, 'primary')).toEqual(
      [
        'Basic life support',
        'Equality and diversity',
        'Fire safety',
        'Food safety',
        'Health and safety',
        'Infection prevention and control',
        'Learning disability and autism',
        'Moving and handling',
        'Safeguarding adults',
      ].sort(),
    );
    expect(required(carer.id, 'secondary')).toEqual(
      [
        'Communication',
        'Dementia awareness',
        'Fluids and nutrition',
        'Handling information',
        'Mental Capacity Act and Deprivation of Liberty Safeguards',
        'Oral health',
        'Person-centred care',
        'Privacy and dignity',
        'Recording and reporting',
      ].sort(),
    );
    // Nothing done yet: every cell is missing.
    expect(cells.filter((c) => c.user_id === carer.id).every((c) => c.status === 'missing')).toBe(true);
    expect(required(cook.id, 'primary')).toContain('Food safety');
    expect(required(cook.id, 'primary')).not.toContain('Moving and handling');
  });

  it('applying again adds nothing and changes nothing (200)', async () => {
    const before = await countRows(world.org.id);
    const res = await world.as('POST', `/api/entities/${world.org.slug}/starter-matrix`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.created).toEqual({ courses: 0, roles: 0, rules: 0 });
    expect(res.json().message).toMatch(/Nothing to add/);
    expect(await countRows(world.org.id)).toEqual(before);
  });

  it('answers the same through GraphQL', async () => {
    const gql = async (query: string) =>
      (await world.as('POST', '/api/graphql', { query })).json() as {
        data?: Record<string, { to_create: unknown; created?: unknown; courses: { action: string }[] }>;
        errors?: unknown;
      };
    const q = await gql(
      `{ starterMatrix(entity: "${world.org.slug}") { fresh to_create { courses roles rules } courses { key action existing { id title } refresh_months } } }`,
    );
    expect(q.errors).toBeUndefined();
    expect(q.data?.starterMatrix?.to_create).toEqual({ courses: 0, roles: 0, rules: 0 });
    expect(q.data?.starterMatrix?.courses.every((c) => c.action === 'keep')).toBe(true);
    const m = await gql(
      `mutation { applyStarterMatrix(entity: "${world.org.slug}") { created { courses roles rules } to_create { rules } courses { action } } }`,
    );
    expect(m.errors).toBeUndefined();
    expect(m.data?.applyStarterMatrix?.created).toEqual({ courses: 0, roles: 0, rules: 0 });
  });
});

describe('what the organisation set is kept', () => {
  it('uses its courses and roles by name, keeps its rules, and adds only what is missing', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL });
    const as = await clientFor(h.app, h.db, admin.id);
    const fire = await buildCourse(h.db, org.id, { title: 'FIRE SAFETY' });
    const ipc = await buildCourse(h.db, org.id, { title: 'Infection Control' });
    const carer = await buildRole(h.db, org.id, { name: 'Care worker' });
    const chef = await buildRole(h.db, org.id, { name: 'Chef' });
    // Its own choices: fire safety every 6 months and Required, infection control never expiring.
    const own = await h.db
      .insertInto('compliance_rules')
      .values([
        { entity_id: org.id, role_id: carer.id, course_id: fire.id, type: 'secondary', validity_months: 6 },
        { entity_id: org.id, role_id: carer.id, course_id: ipc.id, type: 'primary', validity_months: null },
      ])
      .returning(['id', 'updated_at'])
      .execute();
    // A care worker who passed fire safety last year, under the organisation's own 6-month rule.
    const ann = await buildUser(h.db, { entityId: org.id, roleId: carer.id });
    await buildPassedResult(h.db, { userId: ann.id, entityId: org.id, courseId: fire.id });

    const p = await preview(as, org.slug);
    expect(p.fresh).toBe(false);
    const course = (key: string) => p.courses.find((c) => c.key === key);
    expect(course('fire-safety')).toMatchObject({
      action: 'keep',
      existing: { id: fire.id, title: 'FIRE SAFETY' },
    });
    expect(course('infection-prevention-and-control')).toMatchObject({
      action: 'keep',
      existing: { id: ipc.id, title: 'Infection Control' },
    });
    const role = (key: string) => p.roles.find((r) => r.key === key);
    expect(role('care-worker')).toMatchObject({ action: 'keep', existing: { id: carer.id } });
    expect(role('kitchen-staff')).toMatchObject({ action: 'keep', existing: { id: chef.id } });
    expect(role('nurse')).toMatchObject({ action: 'create', existing: null });
    const fireRule = p.rules.find((r) => r.role_key === 'care-worker' && r.course_key === 'fire-safety');
    expect(fireRule).toMatchObject({
      action: 'keep',
      type: 'primary',
      refresh_months: 12,
      existing: { id: own[0]?.id, type: 'secondary', refresh_months: 6 },
    });
    expect(p.to_create).toEqual({
      courses: STARTER_COURSES.length - 2,
      roles: STARTER_ROLES.length - 2,
      rules: STARTER_RULES.length - 2,
    });

    const res = await as('POST', `/api/entities/${org.slug}/starter-matrix`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.created).toEqual(p.to_create);
    const kept = await h.db
      .selectFrom('compliance_rules')
      .select(['id', 'type', 'validity_months', 'updated_at'])
      .where(
        'id',
        'in',
        own.map((r) => r.id),
      )
      .orderBy('id')
      .execute();
    expect(kept).toEqual([
      { id: own[0]?.id, type: 'secondary', validity_months: 6, updated_at: own[0]?.updated_at },
      { id: own[1]?.id, type: 'primary', validity_months: null, updated_at: own[1]?.updated_at },
    ]);
    // Her pass keeps the expiry of the organisation's own rule.
    const latest = await h.db
      .selectFrom('latest_results')
      .select(['completed_at', 'expires_at'])
      .where('user_id', '=', ann.id)
      .where('course_id', '=', fire.id)
      .executeTakeFirstOrThrow();
    const months = (latest.expires_at as Date).getTime() - (latest.completed_at as Date).getTime();
    expect(Math.round(months / (30.4 * 86_400_000))).toBe(6);
    // No second course of a name the organisation had.
    const names = await h.db.selectFrom('courses').select('title').where('entity_id', '=', org.id).execute();
    expect(
      names
        .filter((c) => /fire safety|infection/i.test(c.title))
        .map((c) => c.title)
        .sort(),
    ).toEqual(['FIRE SAFETY', 'Infection Control']);
  });
});

describe('who may preview and apply', () => {
  it('refuses a manager without the course and role permissions (403), a site (422) and another organisation (404)', async () => {
    const { org } = await newOrganisation();
    const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const manager = await buildUser(h.db, { entityId: org.id, permissions: [68, 49] });
    const asManager = await clientFor(h.app, h.db, manager.id);
    for (const method of ['GET', 'POST'] as const)
      expect((await asManager(method, `/api/entities/${org.slug}/starter-matrix`)).statusCode).toBe(403);
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL });
    const asAdmin = await clientFor(h.app, h.db, admin.id);
    const onSite = await asAdmin('POST', `/api/entities/${site.slug}/starter-matrix`);
    expect(onSite.statusCode).toBe(422);
    expect(onSite.json().errors.entity[0]).toMatch(/whole organisation/);
    const outsider = await newOrganisation();
    const theirs = await outsider.as('POST', `/api/entities/${org.slug}/starter-matrix`);
    const missing = await outsider.as('POST', '/api/entities/no-such-organisation/starter-matrix');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(missing.body);
    expect(await countRows(org.id)).toMatchObject({ courses: 0, rules: 0 });
  });
});

describeRaces('parallel applies', () => {
  it('make each course, role and rule once', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const admin = await buildUser(h.db, { entityId: org.id, permissions: ALL });
    const as = await clientFor(h.app, h.db, admin.id);
    const responses = await parallel(8, () => as('POST', `/api/entities/${org.slug}/starter-matrix`));
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(await countRows(org.id)).toEqual({
      courses: STARTER_COURSES.length,
      roles: STARTER_ROLES.length,
      rules: STARTER_RULES.length,
    });
    const created = responses.map((r) => r.json().data.created);
    expect(created.reduce((n, c) => n + c.rules, 0)).toBe(STARTER_RULES.length);
  });
});

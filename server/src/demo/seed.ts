import { PERMISSIONS } from '@cc/contracts';
import { sql } from 'kysely';
import { hashPassword } from '../auth/passwords';
import { seedBookingsDemo } from '../bookings/demo';
import { seedCareCertificateDemo } from '../care-certificate/demo';
import { seedFinishedCareCertificate } from '../care-certificate/demo-finished';
import { seedComplianceDemo } from '../compliance/demo-seed';
import type { Db } from '../db/connect';
import { type DemoStorage, seedDocumentsDemo } from '../documents/demo';
import { seedHelpDemo } from '../help/demo';
import type { Deps } from '../http/context';
import { seedMessagingDemo } from '../messaging/demo';
import { seedNotificationsDemo } from '../notifications/demo';
import { seedPathwaysDemo } from '../pathways/demo';
import { seedPresetsDemo } from '../presets/demo';
import { backfillComplianceHistoryIn } from '../reports/jobs';
import { seedResultsDemo } from '../results/demo';
import { seedTagsDemo } from '../tags/demo';
import { seedCatalogue } from './catalogue';
import { FIRST_NAMES, LAST_NAMES } from './names';

export const DEMO_PASSWORD = 'demo-Password1';
export const DEMO_LOGINS = [
  { email: 'admin@demo.test', label: 'super admin (Meadowbrook Care Group)' },
  { email: 'manager@demo.test', label: 'home manager (Oakfield House)' },
  { email: 'trainer@demo.test', label: 'trainer (Brightpath Training)' },
  { email: 'learner@demo.test', label: 'care assistant (Oakfield House)' },
  { email: 'assessor@demo.test', label: 'Care Certificate assessor (Oakfield House)' },
] as const;

const ALL = PERMISSIONS.map((p) => p.id);
/**
 * Type permission sets of the demo (and of new organisations' starter types). A manager holds every permission of
 * the Learner type (118 request bookings included), so under the privilege rule (permissions/privilege.ts) they may
 * add learners; the Administrator and Trainer types give more than a manager holds, so a manager cannot hand them out.
 */
export const TYPE_PERMISSIONS: Record<string, number[]> = {
  Administrator: ALL,
  Manager: [
    3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 35, 36, 39, 40, 41, 42, 43, 44, 45,
    49, 50, 53, 56, 67, 68, 79, 80, 81, 86, 87, 88, 89, 91, 93, 94, 95, 96, 97, 98, 104, 105, 108, 117, 118,
    120, 127, 134, 135, 136,
  ],
  Trainer: [6, 7, 9, 11, 21, 24, 25, 26, 29, 30, 44, 63, 80, 89, 104, 108, 109, 110, 123, 127, 128],
  Learner: [6, 44, 80, 104, 108, 118, 127, 134],
};
export const CARE_ROLES: { name: string; inspectable: boolean; weight: number }[] = [
  { name: 'Care Assistant', inspectable: true, weight: 40 },
  { name: 'Senior Carer', inspectable: true, weight: 15 },
  { name: 'Nurse', inspectable: true, weight: 10 },
  { name: 'Home Manager', inspectable: true, weight: 2 },
  { name: 'Deputy Manager', inspectable: true, weight: 3 },
  { name: 'Activities Coordinator', inspectable: false, weight: 5 },
  { name: 'Housekeeper', inspectable: false, weight: 8 },
  { name: 'Cook', inspectable: false, weight: 6 },
  { name: 'Maintenance Officer', inspectable: false, weight: 3 },
  { name: 'Administrator', inspectable: false, weight: 3 },
];

interface NewEntityInput {
  slug: string;
  name: string;
  level: 'A' | 'B';
  parent_id?: number | null;
  is_training_company?: boolean;
  subdomain?: string | null;
  address?: string;
  telephone?: string;
  email?: string;
  whitelabel?: Record<string, unknown>;
}

export async function insertEntity(db: Db, e: NewEntityInput): Promise<number> {
  const row = await db
    .insertInto('entities')
    .values({
      slug: e.slug,
      name: e.name,
      level: e.level,
      parent_id: e.parent_id ?? null,
      is_training_company: e.is_training_company ?? false,
      // The demo's training company is approved (issue 29 §7), as migration 048 approved every existing one.
      training_company_status: e.is_training_company ? 'approved' : null,
      subdomain: e.subdomain ?? null,
      address: e.address ?? null,
      telephone: e.telephone ?? null,
      email: e.email ?? null,
      whitelabel: JSON.stringify(e.whitelabel ?? {}),
      focused_courses: '[]',
      password_requirements: null,
      can_see_new_dashboards: true,
      can_view_internal_bookings: true,
      can_view_external_bookings: true,
      can_manage_bookings: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('entity_permissions')
    .values(ALL.map((permission_id) => ({ entity_id: row.id, permission_id })))
    .execute();
  return row.id;
}

/** Starter user types with their permission sets; returns name -> id. */
export async function insertStarterTypes(db: Db, entityId: number): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const [name, permissions] of Object.entries(TYPE_PERMISSIONS)) {
    const t = await db
      .insertInto('entity_types')
      .values({ entity_id: entityId, name })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[name] = t.id;
    await db
      .insertInto('type_permissions')
      .values(permissions.map((permission_id) => ({ type_id: t.id, permission_id })))
      .execute();
  }
  return ids;
}

export async function insertCareRoles(db: Db, entityId: number): Promise<Record<string, number>> {
  const rows = await db
    .insertInto('entity_roles')
    .values(CARE_ROLES.map((r) => ({ entity_id: entityId, name: r.name, inspectable: r.inspectable })))
    .returning(['id', 'name'])
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.id]));
}

/** Deterministic pseudo-random numbers, so every demo database is the same. */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function isoDaysAgo(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

function pickWeighted<T extends { weight: number }>(items: T[], r: number): T {
  const total = items.reduce((s, i) => s + i.weight, 0);
  let x = r * total;
  for (const item of items) {
    x -= item.weight;
    if (x < 0) return item;
  }
  return items[items.length - 1];
}

export interface StaffOptions {
  entityIds: number[];
  roleIds: Record<string, number>;
  learnerTypeId: number;
  count: number;
  passwordHash: string;
  emailDomain: string;
  seed: number;
  now?: Date;
}

/** Bulk-inserts staff in chunks (one statement per 1,000 rows). Returns how many were inserted. */
export async function insertStaff(db: Db, o: StaffOptions): Promise<number> {
  const rand = seededRandom(o.seed);
  const rows = [];
  for (let i = 0; i < o.count; i++) {
    const first = FIRST_NAMES[Math.floor(rand() * FIRST_NAMES.length)];
    const last = LAST_NAMES[Math.floor(rand() * LAST_NAMES.length)];
    const role = pickWeighted(CARE_ROLES, rand());
    // About one in twelve started within the last 90 days (new starters, ARCHITECTURE compliance rules).
    const daysAgo = rand() < 0.08 ? Math.floor(rand() * 90) : 90 + Math.floor(rand() * 1800);
    rows.push({
      name: `${first} ${last}`,
      email: `${first}.${last}.${i + 1}@${o.emailDomain}`.toLowerCase(),
      password_hash: o.passwordHash,
      email_verified_at: o.now ?? new Date(),
      primary_entity_id: o.entityIds[i % o.entityIds.length],
      role_id: o.roleIds[role.name],
      type_id: o.learnerTypeId,
      start_date: isoDaysAgo(daysAgo, o.now),
      user_preferences: '{}',
    });
  }
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('users')
      .values(rows.slice(i, i + 1000))
      .execute();
  return rows.length;
}

/**
 * The demo (issue 2 §8): one level A care group with three level B homes, one training company, about 200 staff,
 * and the four logins printed at start-up. Runs only on an empty database.
 */
export async function seedDemoIfEmpty(
  db: Db,
  storage: DemoStorage = null,
  deps: Deps | null = null,
): Promise<boolean> {
  // Issue 30 §7: processes started together on an empty database (a cluster's first start) each found it empty and
  // seeded, and all but one crashed on a duplicate key. One seeds under a session lock; the others wait for it, then
  // find the demo there.
  return db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext(${DEMO_SEED_LOCK}))`.execute(conn);
    try {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM entities`.execute(conn);
      if ((rows[0]?.n ?? 0) > 0) return false;
      await seedDemo(conn, storage, deps);
      return true;
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${DEMO_SEED_LOCK}))`.execute(conn);
    }
  });
}
const DEMO_SEED_LOCK = 'carecompliance:demo-seed';

/**
 * `deps` (the process's dependencies): when given, the parts that run through the real services (a Care Certificate
 * finished step by step, issue 32 §3) run after the seed's transaction, as the people who would take each step.
 */
export async function seedDemo(db: Db, storage: DemoStorage = null, deps: Deps | null = null): Promise<void> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = new Date();
  await db.transaction().execute(async (trx) => {
    const group = await insertEntity(trx, {
      slug: 'meadowbrook',
      name: 'Meadowbrook Care Group',
      level: 'A',
      subdomain: 'meadowbrook',
      address: '1 Meadow Lane, Leeds LS1 4AB',
      telephone: '0113 496 0000',
      email: 'office@meadowbrook.example',
      whitelabel: {
        primary: '#0f766e',
        accent: '#f59e0b',
        companyName: 'Meadowbrook Care Group',
        entityAltName: 'Home',
        entitiesAltName: 'Homes',
      },
    });
    const homes = [
      ['oakfield-house', 'Oakfield House', '12 Oak Road, Leeds LS6 2QT'],
      ['riverside-lodge', 'Riverside Lodge', '3 River Walk, York YO1 7HH'],
      ['willow-court', 'Willow Court', '48 Willow Street, Harrogate HG1 1AA'],
    ].map(([slug, name, address]) => ({ slug, name, address }));
    const homeIds: Record<string, number> = {};
    for (const h of homes) homeIds[h.slug] = await insertEntity(trx, { ...h, level: 'B', parent_id: group });
    const training = await insertEntity(trx, {
      slug: 'brightpath-training',
      name: 'Brightpath Training',
      level: 'A',
      is_training_company: true,
      subdomain: 'brightpath',
      address: '7 College Street, Manchester M1 3BA',
      whitelabel: { primary: '#7c3aed', accent: '#ec4899', companyName: 'Brightpath Training' },
    });

    const groupTypes = await insertStarterTypes(trx, group);
    const groupRoles = await insertCareRoles(trx, group);
    const trainingTypes = await insertStarterTypes(trx, training);
    const trainingRoles = Object.fromEntries(
      (
        await trx
          .insertInto('entity_roles')
          .values([
            { entity_id: training, name: 'Trainer', inspectable: false },
            { entity_id: training, name: 'Training Coordinator', inspectable: false },
          ])
          .returning(['id', 'name'])
          .execute()
      ).map((r) => [r.name, r.id]),
    );

    const person = (
      name: string,
      email: string,
      entity: number,
      role: number | null,
      type: number,
      extra: Record<string, unknown> = {},
    ) => ({
      name,
      email,
      password_hash: passwordHash,
      email_verified_at: now,
      primary_entity_id: entity,
      role_id: role,
      type_id: type,
      start_date: isoDaysAgo(700, now),
      password_changed_at: now,
      user_preferences: '{}',
      ...extra,
    });
    await trx
      .insertInto('users')
      .values([
        person(
          'Alex Morgan',
          'admin@demo.test',
          group,
          groupRoles['Administrator'],
          groupTypes.Administrator,
          { super_admin: true },
        ),
        person(
          'Sam Patel',
          'manager@demo.test',
          homeIds['oakfield-house'],
          groupRoles['Home Manager'],
          groupTypes.Manager,
        ),
        person('Jordan Reid', 'trainer@demo.test', training, trainingRoles.Trainer, trainingTypes.Trainer, {
          is_trainer: true,
        }),
        person(
          'Casey Lee',
          'learner@demo.test',
          homeIds['oakfield-house'],
          groupRoles['Care Assistant'],
          groupTypes.Learner,
        ),
        person(
          'Priya Shah',
          'priya.shah@riverside.example',
          homeIds['riverside-lodge'],
          groupRoles['Home Manager'],
          groupTypes.Manager,
        ),
        person(
          'Tom Evans',
          'tom.evans@willow.example',
          homeIds['willow-court'],
          groupRoles['Home Manager'],
          groupTypes.Manager,
        ),
        person(
          'Dana Brooks',
          'dana.brooks@brightpath.example',
          training,
          trainingRoles['Training Coordinator'],
          trainingTypes.Manager,
        ),
      ])
      .execute();
    await insertStaff(trx, {
      entityIds: Object.values(homeIds),
      roleIds: groupRoles,
      learnerTypeId: groupTypes.Learner,
      count: 190,
      passwordHash,
      emailDomain: 'meadowbrook.example',
      seed: 42,
      now,
    });
    await seedCatalogue(trx, { groupId: group, now });
    await seedResultsDemo(trx, { groupId: group, now });
    await seedPresetsDemo(trx, { now });
    await seedTagsDemo(trx, {
      groupId: group,
      homeIds: Object.values(homeIds),
      oakfieldId: homeIds['oakfield-house'],
    });
    await seedComplianceDemo(trx, { groupId: group, roleIds: groupRoles, now });
    await seedMessagingDemo(trx, { oakfieldId: homeIds['oakfield-house'], now });
    await seedNotificationsDemo(trx, { groupId: group });
    await seedHelpDemo(trx);
    await seedBookingsDemo(trx, { groupId: group, trainingId: training, homeIds, now });
    await seedCareCertificateDemo(trx, {
      oakfieldId: homeIds['oakfield-house'] as number,
      roleIds: groupRoles,
      learnerTypeId: groupTypes.Learner as number,
      passwordHash,
      now,
    });
    await seedDocumentsDemo(trx, {
      groupId: group,
      oakfieldId: homeIds['oakfield-house'] as number,
      careAssistantRoleId: groupRoles['Care Assistant'] as number,
      managerTypeId: groupTypes.Manager as number,
      storage,
      now,
    });
    // Pathways (issue 17): after the courses and the Care Certificate demo (its Dementia Awareness pass is step 1).
    await seedPathwaysDemo(trx, {
      oakfieldId: homeIds['oakfield-house'] as number,
      roleIds: groupRoles,
      now,
    });
    // The compliance report's 12-month trend (reports/jobs.ts): past month ends back-filled from the results history.
    await backfillComplianceHistoryIn(trx, now, 12);
  });
  if (deps) await seedFinishedCareCertificate(deps, db, now);
}

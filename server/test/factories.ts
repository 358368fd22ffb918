import { randomUUID } from 'node:crypto';
import { ContentPerm, PERMISSIONS } from '@cc/contracts';
import { hashPassword } from '../src/auth/passwords';
import { createAccessToken } from '../src/auth/queries';
import type { Db } from '../src/db/connect';
import type { TestApp } from './harness';
import { buildCourse, buildPassedResult } from './learning-factories';

export const TEST_PASSWORD = 'Test-Password-42';
let passwordHash: Promise<string> | null = null;
/** One argon2id hash per test process: hashing is deliberately slow. */
export const testPasswordHash = () => {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return passwordHash;
};

const uid = () => randomUUID().slice(0, 8);
const ALL = PERMISSIONS.map((p) => p.id);

export interface EntityOptions {
  name?: string;
  slug?: string;
  level?: 'A' | 'B';
  parentId?: number | null;
  isTrainingCompany?: boolean;
  /** A training company's approval (issue 29 §7): approved unless told. */
  trainingCompanyStatus?: 'pending' | 'approved' | 'refused';
  /** What the entity allows its users (entity permissions); all by default. */
  allowed?: number[];
  settings?: Record<string, unknown>;
}

/** A new organisation by default (Outline's factories), so test files never collide. */
export async function buildEntity(db: Db, o: EntityOptions = {}) {
  const suffix = uid();
  const entity = await db
    .insertInto('entities')
    .values({
      name: o.name ?? `Org ${suffix}`,
      slug: o.slug ?? `org-${suffix}`,
      level: o.level ?? (o.parentId ? 'B' : 'A'),
      parent_id: o.parentId ?? null,
      is_training_company: o.isTrainingCompany ?? false,
      training_company_status: o.isTrainingCompany ? (o.trainingCompanyStatus ?? 'approved') : null,
      focused_courses: '[]',
      whitelabel: '{}',
      password_requirements: null,
      ...(o.settings ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const allowed = o.allowed ?? ALL;
  if (allowed.length) {
    await db
      .insertInto('entity_permissions')
      .values(allowed.map((permission_id) => ({ entity_id: entity.id, permission_id })))
      .execute();
  }
  return entity;
}

export async function buildRole(db: Db, entityId: number, o: { name?: string; inspectable?: boolean } = {}) {
  return db
    .insertInto('entity_roles')
    .values({ entity_id: entityId, name: o.name ?? `Role ${uid()}`, inspectable: o.inspectable ?? false })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function buildType(db: Db, entityId: number, o: { name?: string; permissions?: number[] } = {}) {
  const type = await db
    .insertInto('entity_types')
    .values({ entity_id: entityId, name: o.name ?? `Type ${uid()}` })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (o.permissions?.length) {
    await db
      .insertInto('type_permissions')
      .values(o.permissions.map((permission_id) => ({ type_id: type.id, permission_id })))
      .execute();
  }
  return type;
}

export interface UserOptions {
  entityId?: number;
  permissions?: number[];
  superAdmin?: boolean;
  name?: string;
  email?: string;
  roleId?: number | null;
  isTrainer?: boolean;
  startDate?: string | null;
  verified?: boolean;
}

/** A user with a type holding `permissions`, in a new organisation unless `entityId` is given. */
export async function buildUser(db: Db, o: UserOptions = {}) {
  const entityId = o.entityId ?? (await buildEntity(db)).id;
  const type = await buildType(db, entityId, { permissions: o.permissions ?? [] });
  const suffix = uid();
  const user = await db
    .insertInto('users')
    .values({
      name: o.name ?? `User ${suffix}`,
      email: o.email ?? `user-${suffix}@example.test`,
      password_hash: await testPasswordHash(),
      email_verified_at: o.verified === false ? null : new Date(),
      super_admin: o.superAdmin ?? false,
      primary_entity_id: entityId,
      role_id: o.roleId ?? null,
      type_id: type.id,
      is_trainer: o.isTrainer ?? false,
      start_date: o.startDate ?? null,
      password_changed_at: new Date(),
      user_preferences: '{}',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...user, type };
}

/** Bearer headers for a user (mobile/API style: no XSRF needed). */
export async function bearer(db: Db, userId: number, abilities?: string[]) {
  const token = await createAccessToken(db, { userId, name: 'test', abilities });
  return { authorization: `Bearer ${token.plainText}` };
}

/**
 * Bearer headers of a device that has just signed in with the password (issue 29 §6: it may manage the user's
 * sessions and devices for PASSWORD_CONFIRM_MINUTES). `bearer` stands for a device signed in long ago.
 */
export async function signedInBearer(db: Db, userId: number) {
  const token = await createAccessToken(db, { userId, name: 'test', passwordConfirmedAt: new Date() });
  return { authorization: `Bearer ${token.plainText}` };
}

/** Calls the API as a user: `as(user)('GET', '/api/users')`. */
export async function clientFor(app: TestApp, db: Db, userId: number) {
  const headers = await bearer(db, userId);
  return (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

/** A snapshot of a table for "nothing changed" assertions in outsider tests. */
export async function snapshot(
  db: Db,
  table:
    | 'entities'
    | 'users'
    | 'entity_roles'
    | 'entity_types'
    | 'entity_permissions'
    | 'type_permissions'
    | 'user_permissions',
) {
  return db
    .selectFrom(table)
    .selectAll()
    .execute()
    .then((rows) => JSON.stringify(rows));
}

/** Bearer headers of a content author in `entityId`: may add and edit content and upload its packages. */
export async function contentAuthor(db: Db, entityId: number) {
  const user = await buildUser(db, {
    entityId,
    permissions: [ContentPerm.contentCreator, ContentPerm.addContent, ContentPerm.editContent],
  });
  return bearer(db, user.id);
}

const DAY = 86_400_000;

/**
 * Issue 33 §4's world, before a requirement's grace period starts: an organisation that gives new requirements 30
 * days, a Carer job role that has required Fire safety for long (a rule from before due dates: due at once), and
 * Food hygiene not yet required; Ann (Fire safety passed 10 days before `now`) and Bob (nothing done), both
 * started long ago; a manager with `permissions` and their bearer headers. Requiring Food hygiene (POST
 * /compliance) starts its grace period.
 */
export async function buildGracePeriodWorld(db: Db, now: Date, o: { permissions: number[]; name?: string }) {
  const org = await buildEntity(db, { level: 'A', name: o.name, settings: { new_requirement_days: 30 } });
  const carer = await buildRole(db, org.id, { name: 'Carer' });
  const fire = await buildCourse(db, org.id, { title: 'Fire safety' });
  const food = await buildCourse(db, org.id, { title: 'Food hygiene' });
  await db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: carer.id,
      course_id: fire.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const manager = await buildUser(db, { entityId: org.id, permissions: o.permissions });
  const longAgo = new Date(now.getTime() - 400 * DAY).toISOString().slice(0, 10);
  const ann = await buildUser(db, {
    entityId: org.id,
    roleId: carer.id,
    startDate: longAgo,
    name: 'Ann Able',
  });
  const bob = await buildUser(db, {
    entityId: org.id,
    roleId: carer.id,
    startDate: longAgo,
    name: 'Bob Best',
  });
  await buildPassedResult(db, {
    userId: ann.id,
    entityId: org.id,
    courseId: fire.id,
    completedAt: new Date(now.getTime() - 10 * DAY),
    now,
  });
  return { org, carer, fire, food, manager, ann, bob, headers: await bearer(db, manager.id) };
}

import {
  STARTER_MATRIX_PERMISSIONS,
  type StarterCourse,
  type StarterMatrixApplied,
  StarterMatrixMessages,
  type StarterMatrixPreview,
  type StarterRole,
  type StarterRule,
} from '@cc/contracts';
import { recordAudits } from '../audit/record';
import { ruleSnapshot } from '../compliance/audit';
import { redateResultsUnderRule } from '../compliance/queries';
import { newRuleDueAt } from '../compliance/rule-queries';
import { markScoresStale } from '../compliance/scores-cache';
import type { Db } from '../db/connect';
import { lockKeys } from '../db/locks';
import { authorize, type Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import type { Trx } from '../results/queries';
import { entityInScope } from '../roles/service';
import { nameKey, STARTER_COURSES, STARTER_ROLES, STARTER_RULES } from './catalogue';
import {
  insertStarterCourse,
  insertStarterRole,
  insertStarterRule,
  organisationCourses,
  organisationRoles,
  organisationRules,
} from './queries';

/**
 * The starter training matrix (issue 37 §2; contracts starter-matrix.ts): preview and apply for one level A
 * organisation in the caller's scope. The plan is computed from what the organisation has now; applying runs the
 * same plan inside one transaction under the organisation's advisory lock, so two applies at once run one after the
 * other and the second finds everything made (roles and rules also have unique constraints: ON CONFLICT DO NOTHING).
 */

interface Organisation {
  id: number;
  slug: string;
  name: string;
}

/** The organisation named by slug: in scope (404 otherwise), the caller holds the permissions (403), level A (422). */
async function organisationOf(ctx: Ctx, slug: string): Promise<Organisation> {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, STARTER_MATRIX_PERMISSIONS);
  if (entity.level !== 'A') throw invalidField('entity', StarterMatrixMessages.siteOnly);
  return { id: entity.id, slug: entity.slug, name: entity.name };
}

/** First match wins: the starter's own name, then its other names in their order. */
function matchByName<T>(byKey: Map<string, T>, names: readonly string[]): T | undefined {
  for (const name of names) {
    const hit = byKey.get(nameKey(name));
    if (hit) return hit;
  }
  return undefined;
}

/** The first row (lowest id) per name key. */
function indexByName<T extends { id: number }>(rows: T[], name: (row: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const key = nameKey(name(row));
    if (!map.has(key)) map.set(key, row);
  }
  return map;
}

interface Plan {
  preview: StarterMatrixPreview;
  courseIds: Map<string, number>;
  roleIds: Map<string, number>;
}

async function planFor(db: Db | Trx, org: Organisation): Promise<Plan> {
  const [courses, roles, rules] = await Promise.all([
    organisationCourses(db, org.id),
    organisationRoles(db, org.id),
    organisationRules(db, org.id),
  ]);
  const courseByName = indexByName(courses, (c) => c.title);
  const roleByName = indexByName(roles, (r) => r.name);
  const ruleByPair = new Map(rules.map((r) => [`${r.role_id}:${r.course_id}`, r]));
  const courseIds = new Map<string, number>();
  const roleIds = new Map<string, number>();

  const previewCourses: StarterCourse[] = STARTER_COURSES.map((c) => {
    const existing = matchByName(courseByName, [c.title, ...c.alsoKnownAs]);
    if (existing) courseIds.set(c.key, existing.id);
    return {
      key: c.key,
      title: c.title,
      action: existing ? 'keep' : 'create',
      existing: existing ? { id: existing.id, title: existing.title } : null,
      refresh_months: c.refreshMonths,
      refresh_basis: c.refreshBasis,
      care_certificate_standard: c.careCertificateStandard,
    };
  });
  const previewRoles: StarterRole[] = STARTER_ROLES.map((r) => {
    const existing = matchByName(roleByName, [r.name, ...r.alsoKnownAs]);
    if (existing) roleIds.set(r.key, existing.id);
    return {
      key: r.key,
      name: r.name,
      action: existing ? 'keep' : 'create',
      existing: existing ? { id: existing.id, name: existing.name } : null,
    };
  });
  const refresh = new Map(STARTER_COURSES.map((c) => [c.key, c.refreshMonths]));
  const previewRules: StarterRule[] = STARTER_RULES.map((rule) => {
    const roleId = roleIds.get(rule.role);
    const courseId = courseIds.get(rule.course);
    const existing = roleId && courseId ? ruleByPair.get(`${roleId}:${courseId}`) : undefined;
    return {
      role_key: rule.role,
      course_key: rule.course,
      type: rule.type,
      refresh_months: refresh.get(rule.course) ?? null,
      action: existing ? 'keep' : 'create',
      existing: existing
        ? { id: existing.id, type: existing.type, refresh_months: existing.validity_months }
        : null,
    };
  });
  const count = (items: { action: string }[]) => items.filter((i) => i.action === 'create').length;
  return {
    preview: {
      entity: { id: org.id, slug: org.slug, name: org.name },
      courses: previewCourses,
      roles: previewRoles,
      rules: previewRules,
      to_create: { courses: count(previewCourses), roles: count(previewRoles), rules: count(previewRules) },
      fresh: rules.length === 0,
    },
    courseIds,
    roleIds,
  };
}

/** GET /entities/{slug}/starter-matrix: what applying would create, and what the organisation has that is kept. */
export async function previewStarterMatrix(ctx: Ctx, slug: string): Promise<StarterMatrixPreview> {
  const org = await organisationOf(ctx, slug);
  return (await planFor(ctx.db, org)).preview;
}

/**
 * POST /entities/{slug}/starter-matrix: creates the missing courses (the organisation's own, unpublished until it
 * adds content or publishes them), job roles and course rules; keeps everything the organisation has. A new rule
 * dates the passes people already hold of its course by its refresh period, as a new rule does everywhere
 * (compliance/queries.ts redateResultsUnderRule), and gives people who have not done it the organisation's days to
 * complete new requirements.
 */
export async function applyStarterMatrix(ctx: Ctx, slug: string): Promise<StarterMatrixApplied> {
  const org = await organisationOf(ctx, slug);
  const now = ctx.clock();
  const created = await ctx.db.transaction().execute(async (trx) => {
    await lockKeys(trx, 'starter-matrix', [[org.id]]);
    const plan = await planFor(trx, org);
    const { courseIds, roleIds } = plan;
    const audits: Parameters<typeof recordAudits>[2][number][] = [];
    let courses = 0;
    let roles = 0;
    let rules = 0;

    for (const c of STARTER_COURSES) {
      if (courseIds.has(c.key)) continue;
      courseIds.set(c.key, await insertStarterCourse(trx, org.id, c.title));
      courses++;
    }
    for (const r of STARTER_ROLES) {
      if (roleIds.has(r.key)) continue;
      const made = await insertStarterRole(trx, org.id, r.name, r.inspectable);
      roleIds.set(r.key, made.id);
      if (made.created) {
        roles++;
        audits.push({
          action: 'created',
          kind: 'role',
          subjectId: made.id,
          entityId: org.id,
          label: r.name,
          after: { id: made.id, entity_id: org.id, name: r.name, inspectable: r.inspectable },
        });
      }
    }
    const dueAt = await newRuleDueAt(trx, org.id, now);
    const refresh = new Map(STARTER_COURSES.map((c) => [c.key, c.refreshMonths]));
    for (const rule of STARTER_RULES) {
      const roleId = roleIds.get(rule.role) as number;
      const courseId = courseIds.get(rule.course) as number;
      const validity = refresh.get(rule.course) ?? null;
      const id = await insertStarterRule(
        trx,
        {
          entity_id: org.id,
          role_id: roleId,
          course_id: courseId,
          type: rule.type,
          validity_months: validity,
          due_at: dueAt,
        },
        now,
      );
      if (id === null) continue; // the organisation's own rule for this role and course: kept as it is
      rules++;
      await redateResultsUnderRule(trx, { id, course_id: courseId, validity_months: validity }, now);
      const after = await ruleSnapshot(trx, id);
      if (after)
        audits.push({
          action: 'created',
          kind: 'compliance_rule',
          subjectId: id,
          entityId: org.id,
          label: String(after.role_label),
          after,
        });
    }
    await recordAudits(trx, ctx, audits);
    return { courses, roles, rules };
  });
  if (created.rules > 0) markScoresStale();
  const { preview } = await planFor(ctx.db, org);
  return { ...preview, created };
}

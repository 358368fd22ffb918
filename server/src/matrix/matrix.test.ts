import {
  type CellsWire,
  cellCountsAsCompliant,
  decodeCells,
  decodeUsers,
  MATRIX_STATUSES,
  type MatrixCell,
  type MatrixUser,
  type UsersWire,
} from '@cc/contracts';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { currentCounts } from '../compliance/queries';
import { type CellStatus, cellStatus } from '../compliance/rules';
import type { Ctx } from '../http/context';
import {
  MatrixAggregator,
  type MatrixBlock,
  type MatrixScopePlan,
  matrixBlocks,
  planMatrix,
  planMatrixScope,
} from './service';

/**
 * The block query against a naive JS computation with cellStatus (issue 5 item 7): random small organisations
 * (a level A group, level B sites, roles, rules with overrides, latest results of every kind), the matrix and
 * currentCounts must agree with the naive figures.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const NOW = new Date('2026-06-15T12:00:00Z');
const DAY = 86_400_000;

function ctxFor(userId: number, actor: Awaited<ReturnType<typeof loadActorOf>>): Ctx {
  return {
    ...h.deps,
    clock: () => NOW,
    actor,
    ip: null,
    userAgent: null,
    log: pino({ level: 'silent' }),
    memo: new Map([['uid', userId]]),
  };
}
async function loadActorOf(userId: number) {
  const { loadActor } = await import('../auth/actor');
  const actor = await loadActor(h.db, userId, { via: 'session', sessionId: 'test' });
  if (!actor) throw new Error('no actor');
  return actor;
}

type SpecOf<T> = T extends fc.Arbitrary<infer U> ? U : never;
const spec = fc.record({
  sites: fc.integer({ min: 1, max: 3 }),
  roles: fc.integer({ min: 1, max: 3 }),
  courses: fc.integer({ min: 1, max: 5 }),
  users: fc.array(
    fc.record({ site: fc.nat(), role: fc.nat(), startedDaysAgo: fc.integer({ min: 0, max: 400 }) }),
    {
      minLength: 1,
      maxLength: 12,
    },
  ),
  rules: fc.array(fc.record({ where: fc.nat(), role: fc.nat(), course: fc.nat(), primary: fc.boolean() }), {
    maxLength: 14,
  }),
  results: fc.array(
    fc.record({
      user: fc.nat(),
      course: fc.nat(),
      passed: fc.boolean(),
      exempt: fc.boolean(),
      expiresInDays: fc.option(fc.integer({ min: -60, max: 120 })),
      count: fc.integer({ min: 1, max: 4 }),
    }),
    { maxLength: 30 },
  ),
  warning: fc.integer({ min: 0, max: 60 }),
  blockUsers: fc.integer({ min: 1, max: 5 }),
});

async function build(s: SpecOf<typeof spec>) {
  const group = await buildEntity(h.db, {
    level: 'A',
    settings: { expiry_warning: s.warning, starter_period: 90 },
  });
  const sites = [];
  for (let i = 0; i < s.sites; i++)
    sites.push(
      await buildEntity(h.db, { parentId: group.id, settings: { expiry_warning: (s.warning + i * 7) % 61 } }),
    );
  const roles = [];
  for (let i = 0; i < s.roles; i++) roles.push(await buildRole(h.db, group.id));
  const courses = [];
  for (let i = 0; i < s.courses; i++) courses.push(await buildCourse(h.db, group.id));
  const places = [group, ...sites];
  const seen = new Set<string>();
  for (const r of s.rules) {
    const entity = places[r.where % places.length]!;
    const role = roles[r.role % roles.length]!;
    const course = courses[r.course % courses.length]!;
    const key = `${entity.id}:${role.id}:${course.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await h.db
      .insertInto('compliance_rules')
      .values({
        entity_id: entity.id,
        role_id: role.id,
        course_id: course.id,
        type: r.primary ? 'primary' : 'secondary',
        validity_months: 12,
      })
      .execute();
  }
  const users = [];
  for (const u of s.users) {
    const entity = places[u.site % places.length]!;
    const start = new Date(NOW.getTime() - u.startedDaysAgo * DAY).toISOString().slice(0, 10);
    users.push(
      await buildUser(h.db, {
        entityId: entity.id,
        roleId: roles[u.role % roles.length]!.id,
        startDate: start,
      }),
    );
  }
  const lrSeen = new Set<string>();
  for (const r of s.results) {
    const user = users[r.user % users.length]!;
    const course = courses[r.course % courses.length]!;
    const key = `${user.id}:${course.id}`;
    if (lrSeen.has(key)) continue;
    lrSeen.add(key);
    const completed = new Date(NOW.getTime() - 200 * DAY);
    const expires =
      r.expiresInDays === null ? null : new Date(NOW.getTime() + r.expiresInDays * DAY + 3600_000);
    const type = r.exempt ? 'exempt' : 'elearning';
    const result = await h.db
      .insertInto('results')
      .values({
        user_id: user.id,
        entity_id: user.primary_entity_id,
        course_id: course.id,
        type,
        passed: r.passed,
        completed_at: completed,
        expires_at: expires,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('latest_results')
      .values({
        user_id: user.id,
        course_id: course.id,
        result_id: result.id,
        passed: r.passed,
        completed_at: completed,
        expires_at: expires,
        type,
        result_count: r.count,
      })
      .execute();
  }
  const manager = await buildUser(h.db, { entityId: group.id, permissions: [12] });
  return { group, sites, places, roles, courses, users, manager };
}

/** The plan's blocks, each with its people and cells decoded from the wire (as the web app reads them). */
async function* decodedBlocks(
  ctx: Ctx,
  plan: MatrixScopePlan,
  aggregator: MatrixAggregator,
  blockUsers: number,
): AsyncGenerator<{ block: MatrixBlock; users: MatrixUser[]; cells: MatrixCell[] }> {
  for await (const block of matrixBlocks(ctx, plan, aggregator, { blockUsers })) {
    const users = decodeUsers(JSON.parse(block.users) as UsersWire);
    const cells = decodeCells(JSON.parse(block.cells) as CellsWire, new Map(users.map((u) => [u.id, u])));
    yield { block, users, cells };
  }
}

describe('matrix blocks', () => {
  it('agree with a naive computation with cellStatus, and with currentCounts', async () => {
    await fc.assert(
      fc.asyncProperty(spec, fc.constantFrom('primary', 'secondary', 'all'), async (s, type) => {
        const org = await build(s);
        const ctx = ctxFor(org.manager.id, await loadActorOf(org.manager.id));
        const plan = await planMatrix(ctx, { compliance_type: type });
        const aggregator = new MatrixAggregator(plan);
        const got = new Map<
          string,
          { type: string; status: string; count: number; resultId: number | null }
        >();
        const gotUsers: number[] = [];
        for await (const { users, cells } of decodedBlocks(ctx, plan, aggregator, s.blockUsers)) {
          gotUsers.push(...users.map((u) => u.id));
          const byId = new Map(users.map((u) => [u.id, u]));
          for (const c of cells) {
            expect(c.primary_entity_id).toBe(byId.get(c.user_id)?.primary_entity_id);
            got.set(`${c.user_id}:${c.course_id}`, {
              type: c.type,
              status: c.status,
              count: c.result_count,
              resultId: c.latest_result_id,
            });
          }
        }
        // Naive: rules per (entity, role) with level A inheritance, latest results, cellStatus.
        const rules = await h.db.selectFrom('compliance_rules').selectAll().execute();
        const lrs = await h.db.selectFrom('latest_results').selectAll().execute();
        const ents = await h.db
          .selectFrom('entities')
          .selectAll()
          .where(
            'id',
            'in',
            org.places.map((p) => p.id),
          )
          .execute();
        const entity = new Map(ents.map((e) => [e.id, e]));
        const want = new Map<
          string,
          { type: string; status: string; count: number; resultId: number | null }
        >();
        const tallies = new Map<string, Record<CellStatus | 'required', number> & { users: Set<number> }>();
        for (const u of org.users) {
          const e = entity.get(u.primary_entity_id)!;
          const required = new Map<number, string>();
          if (e.parent_id !== null)
            for (const r of rules)
              if (r.entity_id === e.parent_id && r.role_id === u.role_id) required.set(r.course_id, r.type);
          for (const r of rules)
            if (r.entity_id === e.id && r.role_id === u.role_id) required.set(r.course_id, r.type);
          const courses = new Set([
            ...required.keys(),
            ...(type === 'all' ? lrs.filter((l) => l.user_id === u.id).map((l) => l.course_id) : []),
          ]);
          for (const courseId of courses) {
            const t = required.get(courseId) ?? 'none';
            if (type !== 'all' && t !== type) continue;
            const lr = lrs.find((l) => l.user_id === u.id && l.course_id === courseId);
            const status = cellStatus(
              lr ? { passed: lr.passed, type: lr.type, expiresAt: lr.expires_at } : null,
              NOW,
              e.expiry_warning,
            );
            want.set(`${u.id}:${courseId}`, {
              type: t,
              status,
              count: lr?.result_count ?? 0,
              resultId: lr?.result_id ?? null,
            });
            if (t === 'none') continue;
            const key = `${e.id}:${t}`;
            const tally = tallies.get(key) ?? {
              users: new Set(),
              required: 0,
              in_date: 0,
              expiring: 0,
              expired: 0,
              missing: 0,
              exempt: 0,
            };
            tally.users.add(u.id);
            tally.required++;
            tally[status]++;
            tallies.set(key, tally);
          }
        }
        expect(Object.fromEntries(got)).toEqual(Object.fromEntries(want));
        // The socket's lazy plan (global figures after the first block) with a status filter: the same cells of
        // that status, and every course of the full plan announced before or with the cells that use it.
        const status = MATRIX_STATUSES[s.users.length % MATRIX_STATUSES.length] as CellStatus;
        const lazy = await planMatrixScope(ctx, { compliance_type: type, includeStatusTypes: [status] });
        const announced = new Set<number>();
        const filtered = new Map<string, string>();
        const filteredAggregator = new MatrixAggregator(lazy);
        for await (const { block, cells } of decodedBlocks(ctx, lazy, filteredAggregator, s.blockUsers)) {
          for (const c of block.newCourses) announced.add(c.id);
          for (const c of cells) {
            expect(announced.has(c.course_id)).toBe(true);
            filtered.set(`${c.user_id}:${c.course_id}`, c.status);
          }
        }
        for (const c of plan.courses) expect(announced.has(c.id)).toBe(true);
        expect(Object.fromEntries(filtered)).toEqual(
          Object.fromEntries([...want].filter(([, w]) => w.status === status).map(([k, w]) => [k, w.status])),
        );
        // A course filter narrows both sides of each person's join: the same cells, of those courses only.
        const some = org.courses.filter((_, i) => i % 2 === 0).map((c) => c.id);
        const narrowPlan = await planMatrix(ctx, { compliance_type: type, courses: some });
        const narrowed = new Map<string, string>();
        const narrowAggregator = new MatrixAggregator(narrowPlan);
        for await (const { cells } of decodedBlocks(ctx, narrowPlan, narrowAggregator, s.blockUsers))
          for (const c of cells) narrowed.set(`${c.user_id}:${c.course_id}`, c.status);
        expect(Object.fromEntries(narrowed)).toEqual(
          Object.fromEntries(
            [...want]
              .filter(([key]) => some.includes(Number(key.split(':')[1])))
              .map(([key, w]) => [key, w.status]),
          ),
        );
        expect(gotUsers).toEqual([...org.users, org.manager].map((u) => u.id).sort((a, b) => a - b));
        // Aggregates agree with the naive tallies and with the compliance core's currentCounts.
        const aggregates = aggregator.aggregates();
        const core = await currentCounts(
          h.db,
          org.places.map((p) => p.id),
          NOW,
        );
        for (const p of org.places) {
          const own = aggregates.find((a) => a.entity_id === p.id)!.own;
          for (const t of ['primary', 'secondary'] as const) {
            const naive = tallies.get(`${p.id}:${t}`);
            const fromCore = core.find((c) => c.entity_id === p.id && c.type === t);
            const shown = type === 'all' || type === t;
            const expected =
              shown && naive
                ? {
                    users: naive.users.size,
                    required: naive.required,
                    in_date: naive.in_date,
                    expiring: naive.expiring,
                    expired: naive.expired,
                    missing: naive.missing,
                    exempt: naive.exempt,
                  }
                : { users: 0, required: 0, in_date: 0, expiring: 0, expired: 0, missing: 0, exempt: 0 };
            expect(own[t]).toEqual(expected);
            if (shown)
              expect(own[t]).toEqual(
                fromCore ? { ...fromCore, entity_id: undefined, type: undefined } : expected,
              );
          }
        }
        // A "Show" filter's blocks send some cells and tally them all in their statement; the others tally the
        // cells they send (block-tallies.ts): both give the same figures.
        expect(filteredAggregator.aggregates()).toEqual(aggregates);
        expect(filteredAggregator.topLevel()).toEqual(aggregator.topLevel());
        const top = aggregator.topLevel();
        const inDate = [...got.values()].filter(
          (c) => c.type !== 'none' && cellCountsAsCompliant(c.status as CellStatus),
        ).length;
        const required = [...got.values()].filter((c) => c.type !== 'none').length;
        expect(top.in_date + top.expiring + top.exempt).toBe(inDate);
        expect(top.required).toBe(required);
        expect(MATRIX_STATUSES).toContain('missing');
        expect(MATRIX_STATUSES.indexOf('exempt')).toBe(4);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

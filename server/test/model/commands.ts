import { randomUUID } from 'node:crypto';
import type { Attendance } from '@cc/contracts';
import { PERMISSIONS } from '@cc/contracts';
import fc from 'fast-check';
import { expect } from 'vitest';
import { insertSession, placeDelegate } from '../../src/bookings/sessions-world';
import { forgetScores } from '../../src/compliance/scores-cache';
import { csv, planCsv, runJobs } from '../../src/importer/fixtures';
import { endExemptions } from '../../src/results/exemption-end';
import { buildEntity, buildRole, buildUser, clientFor } from '../factories';
import type { Harness } from '../harness';
import { buildContent, buildCourse, buildLesson, buildQuiz } from '../learning-factories';
import { type ComplianceType, Model, type ModelImport, type ModelResult, scoreOf, type Tally } from './model';

/**
 * The real side of the model test (issue 28 item 8): one small organisation per run (a level A group, level B
 * sites, job roles, courses, a manager with every permission and a few people), driven only through the API, and
 * `compare`, which reads every person x course status and every compliance figure the API reports and holds them to
 * the model's.
 */

type Client = Awaited<ReturnType<typeof clientFor>>;
const DAY_MS = 86_400_000;

export interface Real {
  h: Harness;
  manager: Client;
  learners: Client[];
  entities: { id: number; slug: string }[];
  roles: number[];
  courses: number[];
  people: number[];
  /** The harness clock reads this (deps.clock). */
  clock: { now: Date };
  /** The manager's user id (imports are uploaded as them). */
  boss: number;
  /** Per course: its face-to-face content (sessions are of it, MarkAttendance) and its e-learning (SyncOffline). */
  f2f: number[];
  elearning: OfflineContent[];
  log: string[];
}

/** A course's e-learning: one lesson of one topic and a quiz of one question (pass mark 50), taken offline. */
export interface OfflineContent {
  contentId: number;
  topicIds: number[];
  quizId: number;
  right: Record<string, number[]>;
  wrong: Record<string, number[]>;
}

export const SHAPE = { sites: 2, roles: 2, courses: 3, people: 5, warningDays: 30 } as const;
/** The day every run starts on (a fixed day, so a seed replays the same dates). */
export const START = new Date('2026-12-01T09:30:00.000Z');

const ALL_PERMISSIONS = PERMISSIONS.map((p) => p.id);

export async function setupWorld(h: Harness): Promise<{ model: Model; real: Real }> {
  const clock = { now: new Date(START) };
  (h.deps as { clock: () => Date }).clock = () => new Date(clock.now);
  const settings = { expiry_warning: SHAPE.warningDays };
  // The group's bookings area is on: its managers run face-to-face sessions (MarkAttendance).
  const group = await buildEntity(h.db, {
    level: 'A',
    settings: { ...settings, can_view_internal_bookings: true },
  });
  const sites = [];
  for (let i = 0; i < SHAPE.sites; i++)
    sites.push(await buildEntity(h.db, { level: 'B', parentId: group.id, settings }));
  const entities = [group, ...sites].map((e) => ({ id: e.id, slug: e.slug }));
  const roles = [];
  for (let i = 0; i < SHAPE.roles; i++)
    roles.push((await buildRole(h.db, group.id, { name: `Role ${i}` })).id);
  const courses = [];
  for (let i = 0; i < SHAPE.courses; i++)
    courses.push((await buildCourse(h.db, group.id, { title: `Course ${i}` })).id);
  const f2f: number[] = [];
  const elearning: OfflineContent[] = [];
  for (const courseId of courses) {
    f2f.push(
      (
        await buildContent(h.db, group.id, {
          courseId,
          type: 'face2face',
          title: `Session content ${courseId}`,
        })
      ).id,
    );
    const content = await buildContent(h.db, group.id, { courseId, title: `E-learning ${courseId}` });
    const { topics } = await buildLesson(h.db, content.id, group.id, [{ title: 'Only topic' }]);
    const { quiz, questions } = await buildQuiz(
      h.db,
      content.id,
      group.id,
      [{ answers: ['Right', 'Wrong'], correct: [0] }],
      { passMark: 50 },
    );
    const answers = (right: boolean) =>
      Object.fromEntries(
        questions.map((q) => [
          String(q.id),
          q.answers.filter((a) => a.is_correct === right).map((a) => a.id),
        ]),
      );
    elearning.push({
      contentId: content.id,
      topicIds: topics.map((t) => t.id),
      quizId: quiz.id,
      right: answers(true),
      wrong: answers(false),
    });
  }
  const boss = await buildUser(h.db, { entityId: group.id, permissions: ALL_PERMISSIONS });
  const manager = await clientFor(h.app, h.db, boss.id);
  const model = new Model({ now: new Date(START), ...SHAPE });
  const people: number[] = [];
  const learners: Client[] = [];
  for (let i = 0; i < SHAPE.people; i++) {
    const entity = i % entities.length;
    // Both roles in the group and in the first site from the start; one person with no role.
    const role = ([0, 1, null, 1, 0] as const)[i % 5] ?? null;
    // Made in the group (its user type is the group's, which every site may use), then placed.
    const user = await buildUser(h.db, {
      entityId: group.id,
      roleId: role === null ? null : roles[role],
      name: `Person ${i}`,
    });
    await h.db
      .updateTable('users')
      // The employee number keys the person in an ASC-WDS training file (ImportTraining).
      .set({ primary_entity_id: entities[entity]?.id as number, employee_number: `W${i}` })
      .where('id', '=', user.id)
      .execute();
    people.push(user.id);
    learners.push(await clientFor(h.app, h.db, user.id));
    model.people.push({ entity, role });
  }
  return {
    model,
    real: {
      h,
      boss: boss.id,
      f2f,
      elearning,
      manager,
      learners,
      entities,
      roles,
      courses,
      people,
      clock,
      log: [],
    },
  };
}

// --- Reading the API and comparing with the model.

const TALLY_KEYS = ['users', 'required', 'in_date', 'expiring', 'expired', 'missing', 'exempt'] as const;
const pickTally = (t: Record<string, unknown>) =>
  Object.fromEntries(TALLY_KEYS.map((k) => [k, t[k]])) as unknown as Tally;
const withScore = (t: Tally) => ({ ...t, score: scoreOf(t) });

/** Every person x course status and every compliance figure the API reports, against the model's. */
export async function compare(m: Model, r: Real): Promise<void> {
  const courseIdx = new Map(r.courses.map((id, i) => [id, i]));
  const cells = m.cells();
  const expectedCell = (c: (typeof cells)[number]) =>
    `${c.person}/${c.course}: ${c.type} ${c.validity ?? 'none'} ${c.status} x${c.resultCount}`;
  const expected = cells.map(expectedCell).sort();

  // 1. The user and learner pages: GET /users/{id}/compliance-courses.
  const seen: string[] = [];
  for (const [person, userId] of r.people.entries()) {
    const res = await r.manager('GET', `/api/users/${userId}/compliance-courses?per_page=100`);
    expect(res.statusCode, res.body).toBe(200);
    for (const row of res.json().data as {
      course: { id: number };
      type: ComplianceType;
      validity: number | null;
      status: string;
      latest_result: { result_count: number } | null;
    }[])
      seen.push(
        `${person}/${courseIdx.get(row.course.id)}: ${row.type} ${row.validity ?? 'none'} ${row.status} x${row.latest_result?.result_count ?? 0}`,
      );
  }
  expect(seen.sort(), 'GET /users/{id}/compliance-courses').toEqual(expected);

  // 2. The matrix (POST /reports/matrix, json): its required cells and its top-level figures.
  const personIdx = new Map(r.people.map((id, i) => [id, i]));
  const matrix = await r.manager('POST', '/api/reports/matrix', {
    directFormat: 'json',
    compliance_type: 'all',
  });
  expect(matrix.statusCode, matrix.body).toBe(200);
  const data = matrix.json().data as {
    cells: { user_id: number; course_id: number; type: string; status: string; result_count: number }[];
    breakdown: { top_level: Record<string, unknown> };
  };
  const matrixCells = data.cells
    .filter((c) => c.type !== 'none' && personIdx.has(c.user_id))
    .map(
      (c) =>
        `${personIdx.get(c.user_id)}/${courseIdx.get(c.course_id)}: ${c.type} ${c.status} x${c.result_count}`,
    )
    .sort();
  const expectedMatrix = cells
    .map((c) => `${c.person}/${c.course}: ${c.type} ${c.status} x${c.resultCount}`)
    .sort();
  expect(matrixCells, 'POST /reports/matrix cells').toEqual(expectedMatrix);
  const all = Model.tally(cells);
  const top = data.breakdown.top_level;
  expect(
    { ...pickTally(top), users: undefined, score: top.score },
    'POST /reports/matrix breakdown.top_level',
  ).toEqual({ ...withScore(all), users: undefined });

  // 3. The compliance report (POST /reports/compliance): per entity (deep and own), per course, totals.
  const report = await r.manager('POST', '/api/reports/compliance', {
    compliance_type: 'all',
    previousMonths: 0,
  });
  expect(report.statusCode, report.body).toBe(200);
  const rep = report.json().data as {
    entities: (Record<string, unknown> & { id: number; own: Record<string, unknown> })[];
    courses: (Record<string, unknown> & { id: number })[];
    totals: Record<string, unknown>;
  };
  const figures = m.entityFigures();
  const entityRows = r.entities.map((e, i) => {
    const row = rep.entities.find((x) => x.id === e.id);
    return {
      entity: i,
      deep: row && { ...pickTally(row), score: row.score },
      own: row && { ...pickTally(row.own), score: row.own.score },
    };
  });
  expect(entityRows, 'POST /reports/compliance entities').toEqual(
    figures.map((f, i) => ({ entity: i, deep: withScore(f.deep), own: withScore(f.own) })),
  );
  const byCourse = m.courseFigures();
  const courseRows = rep.courses
    .map((c) => ({ course: courseIdx.get(c.id), ...pickTally(c), score: c.score }))
    .sort((a, b) => (a.course ?? -1) - (b.course ?? -1));
  expect(courseRows, 'POST /reports/compliance courses').toEqual(
    [...byCourse.entries()].sort((a, b) => a[0] - b[0]).map(([course, t]) => ({ course, ...withScore(t) })),
  );
  expect({ ...pickTally(rep.totals), score: rep.totals.score }, 'POST /reports/compliance totals').toEqual(
    withScore(Model.tally(cells)),
  );

  // 4. The entity scores (GET /entities/{id}/score/{x}: 202 while computing) and the entity record's score (the
  //    Mandatory score of its subtree, GET /entities/{id}).
  const seenScores = [];
  const expectedScores = [];
  const KEYS = [
    ['all', true],
    ['primary', true],
    ['secondary', true],
    ['all', false],
  ] as const;
  // Every score asked at once (each starts its computation), then read.
  const bodies = await Promise.all(
    r.entities.flatMap((e) =>
      KEYS.map(([x, deep]) => scoreOf202(r, `/api/entities/${e.id}/score/${x}?deep=${deep ? 1 : 0}`)),
    ),
  );
  for (const [i, e] of r.entities.entries()) {
    for (const [k, [x, deep]] of KEYS.entries()) {
      const body = bodies[i * KEYS.length + k] as Record<string, unknown>;
      seenScores.push({ entity: i, x, deep, ...pickTally(body), score: body.score });
      const mine = cells.filter((c) => {
        const at = m.people[c.person]?.entity;
        return (x === 'all' || c.type === x) && (at === i || (deep && m.entities[at ?? -1]?.parent === i));
      });
      expectedScores.push({ entity: i, x, deep, ...withScore(Model.tally(mine)) });
    }
    const record = await r.manager('GET', `/api/entities/${e.id}`);
    expect(record.statusCode, record.body).toBe(200);
    seenScores.push({ entity: i, record: record.json().data.score });
    const primary = cells.filter((c) => {
      const at = m.people[c.person]?.entity;
      return c.type === 'primary' && (at === i || m.entities[at ?? -1]?.parent === i);
    });
    expectedScores.push({ entity: i, record: scoreOf(Model.tally(primary)) });
  }
  expect(seenScores, 'GET /entities/{id}/score/{x} and GET /entities/{id} score').toEqual(expectedScores);
}

/** A score, polling while the server answers 202 (computing in the background). */
async function scoreOf202(r: Real, url: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const res = await r.manager('GET', url);
    if (res.statusCode === 200) return res.json().data;
    expect(res.statusCode, res.body).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${url} still computing`);
}

// --- Commands. Each runs against the server, applies the same change to the model, then compares the two.

type Cmd = fc.AsyncCommand<Model, Real, false>;
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const dayStart = (d: Date) => new Date(`${ymd(d)}T00:00:00.000Z`);

async function newestResultId(r: Real, userId: number, courseId: number, type: string): Promise<number> {
  const row = await r.h.db
    .selectFrom('results')
    .select('id')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .where('type', '=', type as never)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return row.id;
}

abstract class Base implements Cmd {
  check(_m: Readonly<Model>): boolean {
    return true;
  }
  abstract apply(m: Model, r: Real): Promise<void>;
  async run(m: Model, r: Real): Promise<void> {
    r.log.push(this.toString());
    await this.apply(m, r);
    await compare(m, r);
  }
  abstract toString(): string;
}

export class AssignRule extends Base {
  constructor(
    readonly entity: number,
    readonly role: number,
    readonly course: number,
    readonly type: ComplianceType,
    readonly validity: number | null,
    readonly redate: boolean,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const own = m.ownRule(this.entity, this.role, this.course);
    const body = { type: this.type, validity: this.validity, update_previous_results: this.redate };
    if (own) {
      const found = await r.h.db
        .selectFrom('compliance_rules')
        .select('id')
        .where('entity_id', '=', r.entities[this.entity]?.id as number)
        .where('role_id', '=', r.roles[this.role] as number)
        .where('course_id', '=', r.courses[this.course] as number)
        .executeTakeFirstOrThrow();
      const res = await r.manager('PATCH', `/api/compliance/${found.id}`, body);
      expect(res.statusCode, res.body).toBe(200);
    } else {
      const res = await r.manager('POST', '/api/compliance', {
        ...body,
        entity: r.entities[this.entity]?.slug,
        roleId: r.roles[this.role],
        courseId: r.courses[this.course],
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    m.assign(
      { entity: this.entity, role: this.role, course: this.course, type: this.type, validity: this.validity },
      this.redate,
    );
  }
  toString() {
    return `assign(entity ${this.entity}, role ${this.role}, course ${this.course}, ${this.type}, validity ${this.validity ?? 'none'}, redate ${this.redate})`;
  }
}

/** A historical result recorded by the manager (approved at once), or submitted by the learner (pending). */
async function recordResult(
  m: Model,
  r: Real,
  o: { person: number; course: number; passed: boolean; daysAgo: number; bySelf: boolean },
): Promise<() => void> {
  const completed = dayStart(new Date(m.now.getTime() - o.daysAgo * DAY_MS));
  const client = o.bySelf ? (r.learners[o.person] as Client) : r.manager;
  const res = await client('POST', '/api/results/historical/create', {
    user_id: r.people[o.person],
    course_id: r.courses[o.course],
    completed_at: ymd(completed),
    passed: o.passed,
  });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as number;
  // The model's change is applied by the caller once every parallel request has answered: the expiry is the one
  // the row in force when the request ran gives, and no command running beside this one changes rows.
  return () =>
    m.results.push({
      id,
      person: o.person,
      course: o.course,
      kind: 'historical',
      passed: o.passed,
      status: o.bySelf ? 'pending' : 'approved',
      completedAt: completed,
      expiresAt: m.expiryFor(o.person, o.course, completed, o.passed),
      deleted: false,
    });
}

export interface ResultArgs {
  person: number;
  course: number;
  passed: boolean;
  daysAgo: number;
}
const describeResult = (a: ResultArgs) =>
  `person ${a.person}, course ${a.course}, ${a.passed ? 'pass' : 'fail'} ${a.daysAgo} days ago`;

export class RecordResult extends Base {
  constructor(
    readonly a: ResultArgs,
    readonly bySelf = false,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    (await recordResult(m, r, { ...this.a, bySelf: this.bySelf }))();
  }
  toString() {
    return `${this.bySelf ? 'submitForApproval' : 'record'}(${describeResult(this.a)})`;
  }
}

/** Two results recorded at once (different or the same person and course). */
export class RecordInParallel extends Base {
  constructor(
    readonly a: ResultArgs,
    readonly b: ResultArgs,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const applied = await Promise.all([
      recordResult(m, r, { ...this.a, bySelf: false }),
      recordResult(m, r, { ...this.b, bySelf: false }),
    ]);
    for (const apply of applied) apply();
  }
  toString() {
    return `parallel(record(${describeResult(this.a)}), record(${describeResult(this.b)}))`;
  }
}

const liveResults = (m: Readonly<Model>) => m.results.filter((x) => !x.deleted);
const pendingResults = (m: Readonly<Model>) => m.results.filter((x) => !x.deleted && x.status === 'pending');
const pick = <T>(list: readonly T[], n: number) => list[n % list.length] as T;

export class DeleteResult extends Base {
  constructor(
    readonly n: number,
    readonly twice: boolean,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return liveResults(m).length > 0;
  }
  async apply(m: Model, r: Real) {
    const target = pick(liveResults(m), this.n) as ModelResult;
    const send = () => r.manager('DELETE', `/api/results/${target.id}`);
    const answers = this.twice ? await Promise.all([send(), send()]) : [await send()];
    // One delete succeeds; a second one at the same time finds it deleted (404) or deletes nothing new.
    expect(answers.map((a) => a.statusCode).sort()).toContain(200);
    for (const a of answers) expect([200, 404], a.body).toContain(a.statusCode);
    target.deleted = true;
  }
  toString() {
    return `${this.twice ? 'parallel(delete, delete)' : 'delete'}(live result #${this.n})`;
  }
}

export class Approve extends Base {
  constructor(
    readonly n: number,
    readonly twice: boolean,
  ) {
    super();
  }
  override check(m: Readonly<Model>) {
    return pendingResults(m).length > 0;
  }
  async apply(m: Model, r: Real) {
    const target = pick(pendingResults(m), this.n) as ModelResult;
    const send = () => r.manager('POST', `/api/results/pending/${target.id}/approve`);
    const answers = this.twice ? await Promise.all([send(), send()]) : [await send()];
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join('\n')).toEqual(
      this.twice ? [200, 409] : [200],
    );
    target.status = 'approved';
  }
  toString() {
    return `${this.twice ? 'parallel(approve, approve)' : 'approve'}(pending result #${this.n})`;
  }
}

/**
 * PATCH /users/{id}/compliance-courses/{course} {exempt: true}: an exemption from now, no end (422 when the course is
 * not one the person is required to do; nothing changes). `twice`: two at once record one exemption. An exemption
 * whose end has come (ExemptUntil) excuses nobody: exempting again records a new one.
 */
export class Exempt extends Base {
  constructor(
    readonly person: number,
    readonly course: number,
    readonly twice: boolean,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const userId = r.people[this.person] as number;
    const courseId = r.courses[this.course] as number;
    const send = () =>
      r.manager('PATCH', `/api/users/${userId}/compliance-courses/${courseId}`, {
        exempt: true,
        notes: 'Model test exemption',
      });
    const answers = this.twice ? await Promise.all([send(), send()]) : [await send()];
    const required = m.ruleFor(this.person, this.course) !== undefined;
    for (const a of answers) expect(a.statusCode, a.body).toBe(required ? 200 : 422);
    if (!required || m.activeExemptions(this.person, this.course).length > 0) return;
    m.results.push({
      id: await newestResultId(r, userId, courseId, 'exempt'),
      person: this.person,
      course: this.course,
      kind: 'exempt',
      passed: true,
      status: 'approved',
      completedAt: new Date(m.now),
      expiresAt: null,
      deleted: false,
    });
  }
  toString() {
    return `${this.twice ? 'parallel(exempt, exempt)' : 'exempt'}(person ${this.person}, course ${this.course})`;
  }
}

/**
 * POST /results/exempt with an end date (today, end `days` later; issue 28 §6): once the end has come the requirement
 * applies again and the status is what the person's other results give (model.ts `ended`).
 */
export class ExemptUntil extends Base {
  constructor(
    readonly person: number,
    readonly course: number,
    readonly days: number,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const start = dayStart(m.now);
    const end = new Date(start.getTime() + this.days * DAY_MS);
    const res = await r.manager('POST', '/api/results/exempt', {
      user_id: r.people[this.person],
      course_id: r.courses[this.course],
      end_date: ymd(end),
      notes: 'Model test exemption',
    });
    expect(res.statusCode, res.body).toBe(201);
    m.results.push({
      id: res.json().data.id,
      person: this.person,
      course: this.course,
      kind: 'exempt',
      passed: true,
      status: 'approved',
      completedAt: start,
      expiresAt: end,
      deleted: false,
    });
  }
  toString() {
    return `exemptUntil(person ${this.person}, course ${this.course}, ${this.days} days)`;
  }
}

export class Unexempt extends Base {
  constructor(
    readonly person: number,
    readonly course: number,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const res = await r.manager(
      'PATCH',
      `/api/users/${r.people[this.person]}/compliance-courses/${r.courses[this.course]}`,
      { exempt: false },
    );
    const required = m.ruleFor(this.person, this.course) !== undefined;
    expect(res.statusCode, res.body).toBe(required ? 200 : 422);
    if (!required) return;
    for (const e of m.exemptions(this.person, this.course)) e.deleted = true;
  }
  toString() {
    return `unexempt(person ${this.person}, course ${this.course})`;
  }
}

export class ChangeRole extends Base {
  constructor(
    readonly person: number,
    readonly role: number | null,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const res = await r.manager('PATCH', `/api/users/${r.people[this.person]}`, {
      role_id: this.role === null ? null : r.roles[this.role],
    });
    expect(res.statusCode, res.body).toBe(200);
    (m.people[this.person] as { role: number | null }).role = this.role;
  }
  toString() {
    return `changeRole(person ${this.person}, role ${this.role ?? 'none'})`;
  }
}

export class MovePerson extends Base {
  constructor(
    readonly person: number,
    readonly entity: number,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const res = await r.manager('PATCH', `/api/users/${r.people[this.person]}`, {
      primary_entity_id: r.entities[this.entity]?.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    (m.people[this.person] as { entity: number }).entity = this.entity;
  }
  toString() {
    return `move(person ${this.person}, entity ${this.entity})`;
  }
}

export class SetWarning extends Base {
  constructor(
    readonly entity: number,
    readonly days: number,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const res = await r.manager('PATCH', `/api/entities/${r.entities[this.entity]?.id}`, {
      expiry_warning: this.days,
    });
    expect(res.statusCode, res.body).toBe(200);
    (m.entities[this.entity] as { warningDays: number }).warningDays = this.days;
  }
  toString() {
    return `setWarning(entity ${this.entity}, ${this.days} days)`;
  }
}

const dmy = (d: Date) => `${ymd(d).slice(8, 10)}/${ymd(d).slice(5, 7)}/${ymd(d).slice(0, 4)}`;
const sameDay = (a: Date, b: Date) => ymd(a) === ymd(b);
/** The live historical record an imported row for (person, course, day) lands on (the importer's key). */
const recordOn = (m: Readonly<Model>, a: ResultArgs, day: Date) =>
  m.results.find(
    (x) =>
      !x.deleted &&
      x.kind === 'historical' &&
      x.person === a.person &&
      x.course === a.course &&
      sameDay(x.completedAt, day),
  );

/** The importer's jobs, run on the test's clock. */
const runImporterJobs = (r: Real) => runJobs(r.h, new Date(r.clock.now));

async function importView(r: Real, uuid: string) {
  const res = await r.manager('GET', `/api/importer/imports/${uuid}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/**
 * A pass read from an ASC-WDS training file (the importer, issue 28 §8): planned, applied through the job queue, and
 * in the model as the same approved historical pass a manager records; a row whose person, course and day already
 * hold a pass updates that record's expiry to the rule's (the importer's key), and is otherwise unchanged.
 */
export class ImportTraining extends Base {
  constructor(readonly a: Omit<ResultArgs, 'passed'>) {
    super();
  }
  private day(m: Readonly<Model>) {
    return dayStart(new Date(m.now.getTime() - this.a.daysAgo * DAY_MS));
  }
  override check(m: Readonly<Model>) {
    // A file holds passes: a day that already holds a fail or a pending record is not the importer's to settle.
    const found = recordOn(m, { ...this.a, passed: true }, this.day(m));
    return !found || (found.passed && found.status === 'approved');
  }
  async apply(m: Model, r: Real) {
    const day = this.day(m);
    const file = csv([
      [
        'LOCALESTID',
        'UNIQUEWORKERID',
        'CATEGORY',
        'DESCRIPTION',
        'DATECOMPLETED',
        'EXPIRYDATE',
        'ACCREDITED',
        'NOTES',
      ],
      ['site', `W${this.a.person}`, '10', `Course ${this.a.course}`, dmy(day), '', '', ''],
    ]);
    const planned = await planCsv(r.h, r.boss, 'training', file, 'asc-wds-training.csv');
    expect(planned.statusCode, planned.body).toBe(201);
    const uuid = planned.json().data.uuid as string;
    const applying = await r.manager('POST', `/api/importer/imports/${uuid}/apply`);
    expect(applying.statusCode, applying.body).toBe(202);
    await runImporterJobs(r);
    const view = await importView(r, uuid);
    expect(view.import.status, JSON.stringify(view.errors ?? view)).toBe('applied');
    const expiresAt = m.expiryFor(this.a.person, this.a.course, day, true);
    const found = recordOn(m, { ...this.a, passed: true }, day);
    const done: ModelImport = { uuid, created: [], updated: [], undone: false };
    if (!found) {
      // The record the import created: its one row's target.
      const row = await r.h.db
        .selectFrom('import_rows as ir')
        .innerJoin('imports as i', 'i.id', 'ir.import_id')
        .select('ir.target_id as id')
        .where('i.uuid', '=', uuid)
        .where('ir.action', '=', 'create')
        .executeTakeFirstOrThrow();
      const created: ModelResult = {
        id: row.id as number,
        person: this.a.person,
        course: this.a.course,
        kind: 'historical',
        passed: true,
        status: 'approved',
        completedAt: day,
        expiresAt,
        deleted: false,
      };
      m.results.push(created);
      done.created.push(created);
    } else if ((found.expiresAt?.getTime() ?? null) !== (expiresAt?.getTime() ?? null)) {
      done.updated.push({ result: found, before: found.expiresAt });
      found.expiresAt = expiresAt;
    }
    m.imports.push(done);
  }
  toString() {
    return `importTraining(person ${this.a.person}, course ${this.a.course}, pass ${this.a.daysAgo} days ago)`;
  }
}

/** Undo of an applied import: its created records go, the records it updated get their expiry back. */
export class UndoImport extends Base {
  constructor(readonly n: number) {
    super();
  }
  private open(m: Readonly<Model>) {
    return m.imports.filter((x) => !x.undone);
  }
  override check(m: Readonly<Model>) {
    return this.open(m).length > 0;
  }
  async apply(m: Model, r: Real) {
    const target = pick(this.open(m), this.n) as ModelImport;
    const res = await r.manager('POST', `/api/importer/imports/${target.uuid}/undo`);
    expect(res.statusCode, res.body).toBe(202);
    await runImporterJobs(r);
    expect((await importView(r, target.uuid)).import.status).toBe('undone');
    for (const x of target.created) x.deleted = true;
    for (const u of target.updated) u.result.expiresAt = u.before;
    target.undone = true;
  }
  toString() {
    return `undoImport(applied import #${this.n})`;
  }
}

const HOUR_MS = 3_600_000;

/**
 * A trainer marks a person at a face-to-face session of the course (issue 28 §8): a session held `daysAgo` days ago
 * (09:00 to 15:00 UTC, today's while it runs), the person a delegate, the manager marks them; `marks` holds one mark,
 * or two (a re-mark, which replaces the result the first made). Graded by attendance: attended is a pass, partly
 * attended or a no-show a fail, dated when the session ended or, marked while it runs, now.
 */
export class MarkAttendance extends Base {
  constructor(
    readonly person: number,
    readonly course: number,
    readonly daysAgo: number,
    readonly marks: readonly Attendance[],
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const startsAt = new Date(dayStart(m.now).getTime() - this.daysAgo * DAY_MS + 9 * HOUR_MS);
    const session = await insertSession(r.h, {
      entityId: r.entities[0]?.id as number,
      contentId: r.f2f[this.course] as number,
      courseId: r.courses[this.course] as number,
      startsAt,
    });
    const userId = r.people[this.person] as number;
    const at = m.people[this.person]?.entity ?? 0;
    const delegate = await placeDelegate(r.h, session.id, {
      id: userId,
      primary_entity_id: r.entities[at]?.id as number,
    });
    let earlier: ModelResult | undefined;
    for (const mark of this.marks) {
      const res = await r.manager('POST', `/api/training-sessions/${session.id}/attendance`, {
        marks: [{ delegate_id: delegate.id, attendance: mark }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const row = await r.h.db
        .selectFrom('session_delegates')
        .select('result_id')
        .where('id', '=', delegate.id)
        .executeTakeFirstOrThrow();
      if (earlier) earlier.deleted = true;
      const completedAt = new Date(Math.min(startsAt.getTime() + 6 * HOUR_MS, m.now.getTime()));
      const passed = mark === 'attended';
      earlier = {
        id: row.result_id as number,
        person: this.person,
        course: this.course,
        kind: 'face2face',
        passed,
        status: 'approved',
        completedAt,
        expiresAt: m.expiryFor(this.person, this.course, completedAt, passed),
        deleted: false,
      };
      m.results.push(earlier);
    }
  }
  toString() {
    return `markAttendance(person ${this.person}, course ${this.course}, session ${this.daysAgo} days ago, ${this.marks.join(' then ')})`;
  }
}

/**
 * A learner's e-learning attempt taken offline and synced (issue 28 §8): downloaded and finished now (the quiz passed
 * or failed), sent once or twice at once (a resend: one is stored, the other answers with the first's outcome). A
 * pass gives the learner's result unless a pass completed at or after it is on record; a fail gives none.
 */
export class SyncOffline extends Base {
  constructor(
    readonly person: number,
    readonly course: number,
    readonly passed: boolean,
    readonly twice: boolean,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    const learner = r.learners[this.person] as Client;
    const content = r.elearning[this.course] as OfflineContent;
    const dl = await learner('POST', '/api/offline/downloads', { content_id: content.contentId });
    expect(dl.statusCode, dl.body).toBe(201);
    const body = {
      client_uuid: randomUUID(),
      download_id: dl.json().data.download_id,
      content_id: content.contentId,
      started_at: m.now.toISOString(),
      completed_at: m.now.toISOString(),
      completed_topic_ids: content.topicIds,
      quiz_responses: { [String(content.quizId)]: this.passed ? content.right : content.wrong },
    };
    const send = () => learner('POST', '/api/offline/attempts', body);
    const answers = this.twice ? await Promise.all([send(), send()]) : [await send()];
    expect(answers.map((a) => a.statusCode).sort(), answers.map((a) => a.body).join('\n')).toEqual(
      this.twice ? [200, 201] : [201],
    );
    const counts = this.passed && m.offlinePassCounts(this.person, this.course, m.now);
    for (const a of answers)
      expect(a.json().data, a.body).toMatchObject({
        status: this.passed ? 'passed' : 'failed',
        counted: counts,
      });
    if (!counts) return;
    const courseId = r.courses[this.course] as number;
    m.results.push({
      id: await newestResultId(r, r.people[this.person] as number, courseId, 'elearning'),
      person: this.person,
      course: this.course,
      kind: 'elearning',
      passed: true,
      status: 'approved',
      completedAt: new Date(m.now),
      expiresAt: m.expiryFor(this.person, this.course, m.now, true),
      deleted: false,
    });
  }
  toString() {
    return `${this.twice ? 'parallel(sync, sync)' : 'sync'}Offline(person ${this.person}, course ${this.course}, ${this.passed ? 'pass' : 'fail'})`;
  }
}

/**
 * Days pass. `nightly`: the exemption-end job (results/exemption-end.ts) then runs at the new time; the statuses are
 * the same with or without it (an exemption whose end has come counts for nothing from that instant).
 */
export class AdvanceClock extends Base {
  constructor(
    readonly days: number,
    readonly nightly = false,
  ) {
    super();
  }
  async apply(m: Model, r: Real) {
    m.now = new Date(m.now.getTime() + this.days * DAY_MS);
    r.clock.now = new Date(m.now);
    if (this.nightly) await endExemptions(r.h.deps, new Date(m.now));
    // Cached scores are served for SCORE_MAX_AGE_MS of real time; days passing on the test clock are far more.
    forgetScores();
  }
  toString() {
    return `advanceClock(${this.days} days${this.nightly ? ', nightly job' : ''})`;
  }
}

// --- Arbitraries.

const person = fc.nat({ max: SHAPE.people - 1 });
const course = fc.nat({ max: SHAPE.courses - 1 });
const role = fc.nat({ max: SHAPE.roles - 1 });
const resultArgs = fc.record({
  person,
  course,
  passed: fc.boolean(),
  // Around the validities below, so passes land in date, in the warning window and expired.
  daysAgo: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 800 })),
});

export const commandArbitraries = [
  fc
    .tuple(
      // Rows at the group (0) or at the first site (an override of the group's row).
      fc.constantFrom(0, 1),
      role,
      course,
      fc.constantFrom<ComplianceType>('primary', 'secondary'),
      fc.constantFrom(null, 1, 3, 12, 24),
      fc.boolean(),
    )
    .map(([e, ro, c, t, v, re]) => new AssignRule(e, ro, c, t, v, re)),
  resultArgs.map((a) => new RecordResult(a)),
  resultArgs.map((a) => new RecordResult(a, true)),
  fc.tuple(resultArgs, resultArgs).map(([a, b]) => new RecordInParallel(a, b)),
  fc.tuple(fc.nat(), fc.boolean()).map(([n, twice]) => new DeleteResult(n, twice)),
  fc.tuple(fc.nat(), fc.boolean()).map(([n, twice]) => new Approve(n, twice)),
  fc.tuple(person, course, fc.boolean()).map(([p, c, twice]) => new Exempt(p, c, twice)),
  fc.tuple(person, course).map(([p, c]) => new Unexempt(p, c)),
  fc.tuple(person, course, fc.integer({ min: 1, max: 200 })).map(([p, c, d]) => new ExemptUntil(p, c, d)),
  fc.tuple(person, fc.option(role, { nil: null })).map(([p, ro]) => new ChangeRole(p, ro)),
  fc.tuple(person, fc.nat({ max: SHAPE.sites })).map(([p, e]) => new MovePerson(p, e)),
  fc.tuple(fc.nat({ max: SHAPE.sites }), fc.constantFrom(0, 7, 30, 90)).map(([e, d]) => new SetWarning(e, d)),
  fc
    .record({
      person,
      course,
      daysAgo: fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 800 })),
    })
    .map((a) => new ImportTraining(a)),
  fc.nat().map((n) => new UndoImport(n)),
  fc
    .tuple(
      person,
      course,
      fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 800 })),
      fc.array(fc.constantFrom<Attendance>('attended', 'partial', 'no_show'), { minLength: 1, maxLength: 2 }),
    )
    .map(([p, c, d, marks]) => new MarkAttendance(p, c, d, marks)),
  fc
    .tuple(person, course, fc.boolean(), fc.boolean())
    .map(([p, c, ok, twice]) => new SyncOffline(p, c, ok, twice)),
  fc
    .tuple(fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 400 })), fc.boolean())
    .map(([d, nightly]) => new AdvanceClock(d, nightly)),
];

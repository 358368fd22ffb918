import {
  type CourseStatusOf,
  calendarDay,
  courseStatus,
  courseStatusText,
  newStarterDueBy,
} from '@cc/contracts';
import ExcelJS from 'exceljs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { loadActor } from '../auth/actor';
import { seedDemo } from '../demo/seed';
import type { Ctx } from '../http/context';
import { gatherPack, packCellStatus, packGaps } from '../reports/inspection-pack';

/**
 * Issue 28 item 5: one meaning of "out of date". Every person x required course of the demo gets its status from
 * contracts courseStatus over the raw facts (latest approved result, the organisation's warning days, the person's
 * start and new-starter period, a record awaiting approval), and the learner page, the user page, the manager
 * dashboard, the matrix (JSON and XLSX), the compliance report and the inspection pack must all say the same.
 */
let h: Harness;
let as: Awaited<ReturnType<typeof clientFor>>;
let adminId: number;
const NOW = new Date();
const key = (u: number, c: number) => `${u}:${c}`;

interface Person {
  id: number;
  uuid: string;
  name: string;
  entity_id: number;
}
const people = new Map<number, Person>();
const expected = new Map<string, CourseStatusOf>();

beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
  h.deps.clock = () => NOW;
  adminId = (
    await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'admin@demo.test')
      .executeTakeFirstOrThrow()
  ).id;
  as = await clientFor(h.app, h.db, adminId);
  // The raw facts, read apart from every path under test.
  const rows = await h.db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('effective_compliance_rules as ecr', (j) =>
      j.onRef('ecr.entity_id', '=', 'u.primary_entity_id').onRef('ecr.role_id', '=', 'u.role_id'),
    )
    .leftJoin('latest_results as lr', (j) =>
      j.onRef('lr.user_id', '=', 'u.id').onRef('lr.course_id', '=', 'ecr.course_id'),
    )
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.primary_entity_id',
      'u.start_date',
      'u.created_at',
      'e.expiry_warning',
      'e.starter_period',
      'ecr.course_id',
      'lr.passed',
      'lr.type',
      'lr.expires_at',
    ])
    .execute();
  const pending = await h.db
    .selectFrom('results')
    .select(['user_id', 'course_id'])
    .where('status', '=', 'pending')
    .where('passed', '=', true)
    .where('deleted_at', 'is', null)
    .execute();
  const pendingSet = new Set(pending.map((p) => key(p.user_id, p.course_id)));
  for (const r of rows) {
    people.set(r.id, { id: r.id, uuid: r.uuid, name: r.name, entity_id: r.primary_entity_id });
    const started = r.start_date ? new Date(`${String(r.start_date).slice(0, 10)}T00:00:00Z`) : r.created_at;
    expected.set(
      key(r.id, r.course_id),
      courseStatus({
        required: true,
        latest:
          r.passed === null
            ? null
            : { passed: r.passed, exempt: r.type === 'exempt', expiresAt: r.expires_at },
        pending: pendingSet.has(key(r.id, r.course_id)),
        dueBy: newStarterDueBy(started, r.starter_period, NOW),
        warningDays: r.expiry_warning,
        now: NOW,
      }),
    );
  }
}, 180_000);
afterAll(() => h?.close());

const statuses = () => new Set([...expected.values()].map((s) => s.status));

describe('one status per person x course, on every screen (demo)', () => {
  it('the demo has every status a required course can have, and Robin Hughes is out of date', async () => {
    expect([...statuses()].sort()).toEqual(
      // (No demo record awaiting approval is of a course its sender still needs: contracts tests cover `pending`.)
      expect.arrayContaining(['due', 'exempt', 'expired', 'expiring', 'in_date', 'missing']),
    );
    const robin = [...people.values()].find((p) => p.name === 'Robin Hughes');
    expect(robin).toBeDefined();
    const his = [...expected].filter(([k]) => k.startsWith(`${robin?.id}:`)).map(([, s]) => s);
    expect(his.length).toBeGreaterThan(0);
    expect(his.every((s) => s.status === 'missing' && s.outOfDate)).toBe(true);
    // His own page counts them overdue (it said "0 Overdue… No due date is set" before).
    const events = (await as('GET', `/api/users/${robin?.uuid}/events`)).json().data;
    expect(events.counts.overdue).toBe(his.length);
  });

  it('the user page and the learner page say it for every person', async () => {
    for (const p of people.values()) {
      const page = await as('GET', `/api/users/${p.uuid}/compliance-courses?per_page=100`);
      expect(page.statusCode, page.body).toBe(200);
      const courses = page.json().data as {
        course: { id: number };
        status: string;
        course_status: string;
        status_date: string | null;
        out_of_date: boolean;
      }[];
      const mine = [...expected].filter(([k]) => k.startsWith(`${p.id}:`));
      expect(courses.length, p.name).toBe(mine.length);
      for (const c of courses) {
        const want = expected.get(key(p.id, c.course.id));
        expect({ who: p.name, course: c.course.id, ...pick(c) }).toEqual({
          who: p.name,
          course: c.course.id,
          status: want?.cell,
          course_status: want?.status,
          status_date: want?.date,
          out_of_date: want?.outOfDate,
        });
      }
      const events = await as('GET', `/api/users/${p.uuid}/events`);
      expect(events.statusCode, events.body).toBe(200);
      const body = events.json().data as {
        counts: { overdue: number };
        data: {
          kind: string;
          state: string;
          course: { id: number };
          course_status: string;
          status: string;
        }[];
      };
      const required = body.data.filter((e) => e.kind !== 'optional');
      expect(required.length, p.name).toBe(mine.length);
      for (const e of required) {
        const want = expected.get(key(p.id, e.course.id));
        expect({
          who: p.name,
          course: e.course.id,
          status: e.course_status,
          overdue: e.state === 'overdue',
        }).toEqual({
          who: p.name,
          course: e.course.id,
          status: want?.status,
          overdue: want?.outOfDate,
        });
      }
      expect(body.counts.overdue, p.name).toBe(mine.filter(([, s]) => s.outOfDate).length);
    }
  }, 300_000);

  it('the manager dashboard lists exactly the out-of-date person x course pairs, in the same words', async () => {
    const group = await h.db
      .selectFrom('entities')
      .select('id')
      .where('slug', '=', 'meadowbrook')
      .executeTakeFirstOrThrow();
    const seen = new Map<string, string>();
    for (let page = 1; ; page++) {
      const res = await as(
        'GET',
        `/api/dashboards/manager/people?list=out_of_date&compliance_type=all&entity=${group.id}&page=${page}&per_page=100`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json().data as { id: number; courses: { id: number; course_status: string }[] }[];
      for (const p of rows) for (const c of p.courses) seen.set(key(p.id, c.id), c.course_status);
      if (rows.length < 100) break;
    }
    const inGroup = await groupUsers(group.id);
    const want = new Map(
      [...expected]
        .filter(([k, s]) => s.outOfDate && inGroup.has(Number(k.split(':')[0])))
        .map(([k, s]) => [k, s.status]),
    );
    expect(seen.size).toBeGreaterThan(0);
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(want));
  });

  it('the matrix (JSON and XLSX) and the compliance report count the same cells', async () => {
    const res = await as('POST', '/api/reports/matrix', { directFormat: 'json', compliance_type: 'all' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as {
      cells: {
        user_id: number;
        course_id: number;
        type: string;
        status: string;
        latest_result_expires: string | null;
        due_by: string | null;
      }[];
      courses: { id: number; title: string }[];
    };
    const required = data.cells.filter((c) => c.type !== 'none');
    expect(required.length).toBe(expected.size);
    for (const c of required) {
      const want = expected.get(key(c.user_id, c.course_id));
      expect({ cell: key(c.user_id, c.course_id), status: c.status, due_by: c.due_by }).toEqual({
        cell: key(c.user_id, c.course_id),
        status: want?.cell,
        // Due: the date it is due by, the day the one status names.
        due_by: want?.status === 'due' && want.date ? calendarDay(new Date(want.date)) : null,
      });
    }
    expect(required.some((c) => c.due_by !== null)).toBe(true);

    // The XLSX: every required cell's words (Missing, Exempt, No expiry) or its expiry date.
    const file = await as('POST', '/api/reports/matrix', {
      directFormat: 'file',
      format: 'xlsx',
      compliance_type: 'all',
    });
    expect(file.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as never);
    const ws = wb.worksheets[0];
    if (!ws) throw new Error('no sheet');
    const courseByTitle = new Map(data.courses.map((c) => [c.title, c.id]));
    const columns = new Map<number, number>();
    // Three title rows (issue 33 §5), then the column headers on row 4.
    ws.getRow(4).eachCell((cell, col) => {
      const id = courseByTitle.get(String(cell.value));
      if (id) columns.set(col, id);
    });
    const names = new Map<string, number[]>();
    for (const p of people.values()) names.set(p.name, [...(names.get(p.name) ?? []), p.id]);
    let checked = 0;
    ws.eachRow((row, n) => {
      if (n <= 4) return;
      const ids = names.get(String(row.getCell(1).value));
      if (ids?.length !== 1) return; // a name two people share: the JSON check above covers them
      const userId = ids[0] as number;
      for (const [col, courseId] of columns) {
        const want = expected.get(key(userId, courseId));
        if (!want) continue;
        const v = row.getCell(col).value;
        const text =
          v instanceof Date ? v.toISOString().slice(0, 10) : v === null || v === undefined ? '' : String(v);
        // A due cell (never done, due by a date ahead) reads as the one status says it (issue 33 §4).
        const wantText =
          want.status === 'due'
            ? courseStatusText(want)
            : want.cell === 'missing'
              ? 'Missing'
              : want.cell === 'exempt'
                ? 'Exempt'
                : want.date
                  ? formatDay(want.date)
                  : 'No expiry';
        expect({ cell: key(userId, courseId), text }).toEqual({
          cell: key(userId, courseId),
          text: wantText,
        });
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(expected.size / 2);

    // The compliance report: each home's figures are the tally of the cells of its people.
    const report = await as('POST', '/api/reports/compliance', { compliance_type: 'all', previousMonths: 0 });
    expect(report.statusCode, report.body).toBe(200);
    const entities = report.json().data.entities as {
      id: number;
      own: { in_date: number; expiring: number; expired: number; missing: number; exempt: number };
    }[];
    for (const e of entities) {
      const tally = { in_date: 0, expiring: 0, expired: 0, missing: 0, exempt: 0 };
      for (const [k, s] of expected)
        if (people.get(Number(k.split(':')[0]))?.entity_id === e.id) tally[s.cell]++;
      expect({ entity: e.id, ...pick5(e.own) }).toEqual({ entity: e.id, ...tally });
    }
  });

  it('the inspection pack lists every person x course that is not compliant, with the same status', async () => {
    const homes = await h.db.selectFrom('entities').select(['id', 'name']).where('level', '=', 'B').execute();
    const actor = await loadActor(h.db, adminId, { via: 'session', sessionId: 'pack' });
    const ctx: Ctx = {
      ...h.deps,
      actor,
      ip: null,
      userAgent: null,
      log: pino({ level: 'silent' }),
      memo: new Map(),
    };
    let checked = 0;
    for (const home of homes) {
      const data = await gatherPack(ctx, home);
      for (const person of data.people)
        for (const c of person.cells) {
          if (c.type === 'none') continue;
          const want = expected.get(key(person.id, c.course_id));
          const got = packCellStatus(data, person, c);
          expect({
            cell: key(person.id, c.course_id),
            status: got.status,
            date: got.date?.slice(0, 10),
          }).toEqual({
            cell: key(person.id, c.course_id),
            status: want?.status,
            date: want?.date?.slice(0, 10),
          });
          checked++;
        }
      const gaps = packGaps(data, { primary: 'Mandatory', secondary: 'Required' });
      const wantGaps = data.people.flatMap((p) =>
        p.cells
          .filter((c) => c.type !== 'none' && !expected.get(key(p.id, c.course_id))?.compliant)
          .map(
            (c) =>
              `${p.id}:${data.courses.get(c.course_id)?.title}:${expected.get(key(p.id, c.course_id))?.status}`,
          ),
      );
      expect(gaps.map((g) => `${g.person.id}:${g.course}:${g.status}`).sort()).toEqual(wantGaps.sort());
    }
    // Every person of a home (the group's own office staff are in no home's pack).
    const homeIds = new Set(homes.map((x) => x.id));
    expect(checked).toBe(
      [...expected.keys()].filter((k) => homeIds.has(people.get(Number(k.split(':')[0]))?.entity_id ?? 0))
        .length,
    );
  }, 300_000);
});

function pick(c: {
  status: string;
  course_status: string;
  status_date: string | null;
  out_of_date: boolean;
}) {
  return {
    status: c.status,
    course_status: c.course_status,
    status_date: c.status_date,
    out_of_date: c.out_of_date,
  };
}
function pick5(f: { in_date: number; expiring: number; expired: number; missing: number; exempt: number }) {
  return {
    in_date: f.in_date,
    expiring: f.expiring,
    expired: f.expired,
    missing: f.missing,
    exempt: f.exempt,
  };
}
/** The XLSX's date cell read back (exceljs: a Date at UTC midnight of the day shown). */
const formatDay = (iso: string) => iso.slice(0, 10);

async function groupUsers(groupId: number) {
  const rows = await h.db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .select('u.id')
    .where((eb) => eb.or([eb('e.id', '=', groupId), eb('e.parent_id', '=', groupId)]))
    .execute();
  return new Set(rows.map((r) => r.id));
}

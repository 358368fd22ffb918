import { CareCertificatePerm, CareCertificateReportQuery } from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { loadActor } from '../auth/actor';
import type { Ctx } from '../http/context';
import { careCertificateReport } from './report';
import { criteriaOf, insertCertificate, observe, setState, versionId } from './report-fixtures';

/**
 * The Care Certificate report (87), its exports and the dashboards' widgets: every filter flag, a preset, paging,
 * the per-standard view, the files read back, and 401 / 422 / 403 / 404 on each route.
 */
let h: Harness;
let org: { id: number; slug: string };
let site: { id: number; slug: string };
let other: { id: number };
let v2025 = 0;
let v2015 = 0;
const ids = {} as Record<
  'ann' | 'bob' | 'cat' | 'dan' | 'eve' | 'manager' | 'viewer' | 'none' | 'outsider',
  number
>;
let carerRole = { id: 0 };
let seniorRole = { id: 0 };
let annUuid = '';
let annStandards: { id: number; number: number }[] = [];

beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, {
    level: 'A',
    name: 'Report Group',
    settings: { whitelabel: JSON.stringify({ certificateGroupMenuName: 'Induction Standards' }) },
  });
  site = await buildEntity(h.db, { parentId: org.id, name: 'Report Home' });
  other = await buildEntity(h.db, { name: 'Other Group' });
  v2025 = await versionId(h.db, '2025');
  v2015 = await versionId(h.db, '2015');
  carerRole = await buildRole(h.db, org.id, { name: 'Carer' });
  seniorRole = await buildRole(h.db, org.id, { name: 'Senior' });
  const person = (name: string, roleId = carerRole.id) =>
    buildUser(h.db, { entityId: site.id, name, roleId, email: `${name.toLowerCase()}@report.test` });
  const ann = await person('Ann');
  const bob = await person('Bob');
  const cat = await person('Cat');
  const dan = await person('Dan');
  const eve = await person('Eve', seniorRole.id);
  const manager = await buildUser(h.db, { entityId: org.id, name: 'Manager', permissions: [87] });
  Object.assign(ids, {
    ann: ann.id,
    bob: bob.id,
    cat: cat.id,
    dan: dan.id,
    eve: eve.id,
    manager: manager.id,
    viewer: (await buildUser(h.db, { entityId: org.id, permissions: [CareCertificatePerm.approve] })).id,
    none: (await buildUser(h.db, { entityId: org.id, permissions: [] })).id,
    outsider: (await buildUser(h.db, { entityId: other.id, permissions: [87, 86, 93] })).id,
  });
  // Ann (2015, overdue): standard 1 approved, 2 awaiting approval, 3 working towards, the rest outstanding.
  const a = await insertCertificate(h.db, {
    userId: ann.id,
    versionId: v2015,
    expectedBy: '2026-01-01',
    assignedBy: manager.id,
  });
  annUuid = a.uuid;
  annStandards = a.standards;
  await observe(h.db, a.id, a.standards[0].id);
  await setState(h.db, a.id, a.standards[0].id, 'approved');
  await observe(h.db, a.id, a.standards[1].id);
  await setState(h.db, a.id, a.standards[1].id, 'awaiting_approval');
  await observe(h.db, a.id, a.standards[2].id, 1);
  // Bob (2015, not overdue): nothing yet.
  await insertCertificate(h.db, { userId: bob.id, versionId: v2015, expectedBy: '2099-01-01' });
  // Cat: a 2025 certificate completed elsewhere.
  await insertCertificate(h.db, {
    userId: cat.id,
    versionId: v2025,
    historical: true,
    complete: '2024-05-01',
    expectedBy: null,
  });
  // Eve (Senior, 2015): standard 1 working towards.
  const e = await insertCertificate(h.db, { userId: eve.id, versionId: v2015, expectedBy: '2099-01-01' });
  await observe(h.db, e.id, e.standards[0].id, 1);
  // Someone of another organisation with a certificate never shows.
  const stranger = await buildUser(h.db, { entityId: other.id, name: 'Stranger' });
  await insertCertificate(h.db, { userId: stranger.id, versionId: v2015 });
});
afterAll(async () => h?.close());

const as = (who: keyof typeof ids) => clientFor(h.app, h.db, ids[who]);
const names = (body: { data: { user: { name: string } }[] }) => body.data.map((r) => r.user.name);
const report = async (query: string, who: keyof typeof ids = 'manager') => {
  const res = await (await as(who))('GET', `/api/reports/care-certificate?per_page=50&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const only = (flag: string) =>
  ['includeApproved', 'includeAwaitingApproval', 'includeWorkingTowards', 'includeOutstanding']
    .map((f) => `${f}=${f === flag ? 'true' : 'false'}`)
    .join('&');

describe('GET /reports/care-certificate', () => {
  it('lists people in scope with their certificate, standards, and workforce data set value', async () => {
    const body = await report('');
    expect(names(body)).toEqual(['Ann', 'Bob', 'Cat', 'Eve']);
    expect(body.meta.total).toBe(4);
    const ann = body.data[0];
    expect(ann).toMatchObject({
      user: { id: ids.ann, name: 'Ann', entity: { id: site.id, name: 'Report Home' } },
      role: 'Carer',
      nmds: 'in_progress',
      certificate: {
        uuid: annUuid,
        version: { id: v2015, code: '2015' },
        status: 'in_progress',
        overdue: true,
        standards_total: 15,
        standards_approved: 1,
        standards_awaiting_approval: 1,
        assigned_by: 'Manager',
      },
    });
    expect(ann.certificate.criteria_evidenced).toBeGreaterThan(1);
    expect(ann.standards).toMatchObject({
      '1': 'approved',
      '2': 'awaiting_approval',
      '3': 'working_towards',
      '4': 'outstanding',
    });
    expect(Object.keys(ann.standards)).toHaveLength(15);
    expect(body.data[1]).toMatchObject({ nmds: 'not_started', certificate: { overdue: false } });
    expect(body.data[2]).toMatchObject({
      nmds: 'completed',
      certificate: { historical: true, status: 'complete', standards_approved: 16 },
    });
  });

  it('adds people without a certificate with people=all', async () => {
    const body = await report(`people=all&entities=${site.id}`);
    expect(names(body)).toEqual(['Ann', 'Bob', 'Cat', 'Dan', 'Eve']);
    expect(body.data[3]).toMatchObject({ certificate: null, nmds: 'not_started', standards: {} });
  });

  it('keeps a person when any standard has an included status', async () => {
    expect(names(await report(only('includeApproved')))).toEqual(['Ann', 'Cat']);
    expect(names(await report(only('includeAwaitingApproval')))).toEqual(['Ann']);
    expect(names(await report(only('includeWorkingTowards')))).toEqual(['Ann', 'Eve']);
    expect(names(await report(only('includeOutstanding')))).toEqual(['Ann', 'Bob', 'Eve']);
    // Someone without a certificate counts as outstanding.
    expect(names(await report(`${only('includeOutstanding')}&people=all&entities=${site.id}`))).toEqual([
      'Ann',
      'Bob',
      'Dan',
      'Eve',
    ]);
    expect(names(await report(`${only('includeWorkingTowards')}&people=all&entities=${site.id}`))).toEqual([
      'Ann',
      'Eve',
    ]);
    const none = await report(
      'includeApproved=false&includeAwaitingApproval=false&includeWorkingTowards=false&includeOutstanding=false',
    );
    expect(none.data).toEqual([]);
    // Two flags: approved or working towards.
    expect(names(await report('includeAwaitingApproval=false&includeOutstanding=false'))).toEqual([
      'Ann',
      'Cat',
      'Eve',
    ]);
  });

  it('filters by certificate status, overdue, search, version and organisation', async () => {
    expect(names(await report('care_certificate_filter=complete'))).toEqual(['Cat']);
    expect(names(await report('care_certificate_filter=in_progress'))).toEqual(['Ann', 'Bob', 'Eve']);
    expect(names(await report('overdue_only=true'))).toEqual(['Ann']);
    expect(names(await report('search=BOB@REPORT'))).toEqual(['Bob']);
    expect(names(await report('search=eve'))).toEqual(['Eve']);
    expect(names(await report(`certificates=${v2025}`))).toEqual(['Cat']);
    expect(names(await report(`certificates=${v2015}&certificates=${v2025}`))).toEqual([
      'Ann',
      'Bob',
      'Cat',
      'Eve',
    ]);
    expect(names(await report(`entities=${site.id}`))).toEqual(['Ann', 'Bob', 'Cat', 'Eve']);
    expect(names(await report(`entities=${org.id}&deep=false`))).toEqual([]);
  });

  it('reads a page in the same number of statements whatever its size (no per-row queries)', async () => {
    const statements = async (perPage: number, extra: Record<string, unknown> = {}) => {
      let n = 0;
      const db = h.db.withPlugin({
        transformQuery: (a) => {
          n += 1;
          return a.node;
        },
        transformResult: async (a) => a.result,
      });
      const actor = await loadActor(h.db, ids.manager, { via: 'session', sessionId: 'count' });
      const ctx = { ...h.deps, db, actor, ip: null, userAgent: null, log: h.app.log, memo: new Map() } as Ctx;
      const q = CareCertificateReportQuery.parse({ per_page: perPage, people: 'all', ...extra });
      const page = await careCertificateReport(ctx, q);
      return { n, rows: page.data.length };
    };
    // Both pages hold people with and without a certificate (Dan is fourth by name).
    const few = await statements(4);
    const all = await statements(50);
    expect(few.rows).toBe(4);
    expect(all.rows).toBe(8);
    expect(all.n).toBe(few.n);
    const evidence = {
      includeApproved: 'false',
      includeAwaitingApproval: 'false',
      includeOutstanding: 'false',
    };
    expect((await statements(50, evidence)).n).toBe((await statements(1, evidence)).n);
  });

  it('pages the rows', async () => {
    const res = await (await as('manager'))('GET', '/api/reports/care-certificate?per_page=3&page=2');
    const body = res.json();
    expect(names(body)).toEqual(['Eve']);
    expect(body.meta).toMatchObject({ total: 4, last_page: 2, current_page: 2 });
    // The evidence path pages the same way.
    const evidence = await (await as('manager'))(
      'GET',
      `/api/reports/care-certificate?per_page=1&page=2&${only('includeWorkingTowards')}`,
    );
    expect(names(evidence.json())).toEqual(['Eve']);
    expect(evidence.json().meta.total).toBe(2);
    const past = await (await as('manager'))('GET', '/api/reports/care-certificate?per_page=3&page=9');
    expect(past.json().data).toEqual([]);
    expect(past.json().meta.total).toBe(4);
  });

  it("applies the caller's own preset: its roles and its care certificate filter", async () => {
    const preset = await h.db
      .insertInto('report_presets')
      .values({
        user_id: ids.manager,
        entity_id: org.id,
        name: 'Seniors in progress',
        report_type: 'certificate',
        entities: JSON.stringify([site.id]),
        courses: '[]',
        pathways: '[]',
        users: '[]',
        roles: JSON.stringify([seniorRole.id]),
        include_status_types: '[]',
        care_certificate_filter: 'in_progress',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(names(await report(`preset_id=${preset.id}`))).toEqual(['Eve']);
    // Someone else's preset is the same 404 as a missing one.
    const viewer = await as('viewer');
    await h.db.insertInto('user_permissions').values({ user_id: ids.viewer, permission_id: 87 }).execute();
    expect((await viewer('GET', `/api/reports/care-certificate?preset_id=${preset.id}`)).statusCode).toBe(
      404,
    );
    await h.db.deleteFrom('user_permissions').where('user_id', '=', ids.viewer).execute();
    // A preset with a user list and a complete filter.
    const cat = await h.db
      .insertInto('report_presets')
      .values({
        user_id: ids.manager,
        entity_id: org.id,
        name: 'Complete',
        report_type: 'certificate',
        entities: '[]',
        courses: '[]',
        pathways: '[]',
        users: JSON.stringify([ids.cat, ids.ann]),
        roles: '[]',
        include_status_types: '[]',
        care_certificate_filter: 'complete',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(names(await report(`preset_id=${cat.id}`))).toEqual(['Cat']);
    // The query's own filter wins over the preset's.
    expect(names(await report(`preset_id=${cat.id}&care_certificate_filter=in_progress`))).toEqual(['Ann']);
  });

  it('counts per standard with view=standard', async () => {
    const res = await (await as('manager'))('GET', '/api/reports/care-certificate?view=standard');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as { version_code: string; number: number; [k: string]: unknown }[];
    const s1 = rows.find((r) => r.version_code === '2015' && r.number === 1);
    expect(s1).toMatchObject({ approved: 1, working_towards: 1, outstanding: 1, awaiting_approval: 0 });
    const s2 = rows.find((r) => r.version_code === '2015' && r.number === 2);
    expect(s2).toMatchObject({ awaiting_approval: 1, outstanding: 2 });
    expect(rows.find((r) => r.version_code === '2025' && r.number === 16)).toMatchObject({ approved: 1 });
    expect(rows.filter((r) => r.version_code === '2015')).toHaveLength(15);
  });

  it('answers 401, 422, 403 and 404', async () => {
    const anon = await h.app.inject({ method: 'GET', url: '/api/reports/care-certificate' });
    expect(anon.statusCode).toBe(401);
    const bad = await (await as('manager'))(
      'GET',
      '/api/reports/care-certificate?care_certificate_filter=sometimes&view=table',
    );
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(['care_certificate_filter', 'view']),
    );
    expect((await (await as('none'))('GET', '/api/reports/care-certificate')).statusCode).toBe(403);
    // Another organisation's id is the same 404 as a missing one (before the permission check).
    expect(
      (await (await as('outsider'))('GET', `/api/reports/care-certificate?entities=${site.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await (await as('none'))('GET', `/api/reports/care-certificate?entities=${other.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await (await as('manager'))('GET', '/api/reports/care-certificate?preset_id=999999')).statusCode,
    ).toBe(404);
    // The outsider's own report shows nothing of ours.
    const theirs = await (await as('outsider'))('GET', '/api/reports/care-certificate?people=all');
    expect(theirs.statusCode).toBe(200);
    expect(theirs.body).not.toContain('Report Home');
  });
});

describe('GET /reports/care-certificate/export/{format}', () => {
  it('writes every matching row to XLSX, one column per standard, titled with the white-label name', async () => {
    const res = await (await as('manager'))(
      'GET',
      `/api/reports/care-certificate/export/xlsx?people=all&per_page=1&entities=${site.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="care-certificate-.*\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const found = wb.getWorksheet('Induction Standards');
    expect(found).toBeDefined();
    const sheet = found as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 9)).toEqual([
      'Person',
      'Organisation',
      'Role',
      'Version',
      'Started',
      'Expected by',
      'Completed',
      'Status',
      'Workforce data set',
    ]);
    expect(header).toContain('Standard 16');
    expect(sheet.rowCount).toBe(6);
    const ann = (sheet.getRow(2).values as unknown[]).slice(1);
    expect(ann.slice(0, 9)).toEqual([
      'Ann',
      'Report Home',
      'Carer',
      '2015',
      '05/01/2026',
      '01/01/2026',
      undefined, // an empty cell
      'In progress (overdue)',
      'In progress or partially completed',
    ]);
    expect(ann.slice(9, 13)).toEqual(['Approved', 'Awaiting approval', 'Working towards', 'Outstanding']);
    const dan = (sheet.getRow(5).values as unknown[]).slice(1);
    expect(dan[0]).toBe('Dan');
    expect(dan[7]).toBe('Not assigned');
    expect(dan[8]).toBe('Not started');
  });

  it('writes the PDF with the same rows and filters', async () => {
    const res = await (await as('manager'))(
      'GET',
      '/api/reports/care-certificate/export/pdf?care_certificate_filter=in_progress',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Induction Standards report');
    expect(text).toContain('3 people');
    for (const name of ['Ann', 'Bob', 'Eve']) expect(text).toContain(name);
    expect(text).not.toContain('Cat');
    // Issue 32 §5: dates whole in the organisation's format, S1..S15 headings (2015 only here), no blank cell.
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(
      'Ann Report Home Carer 2015 05/01/2026 01/01/2026 Not yet In progress (overdue) In progress or partially completed',
    );
    expect(flat).not.toMatch(/\d{2}\/\d{2}\/\d{0,3}…/);
    expect(flat).toContain(`Person ${Array.from({ length: 15 }, (_, i) => `S${i + 1}`).join(' ')} Ann`);
    expect(flat).not.toContain('S16');
    expect(flat).toContain(
      `Ann Approved Awaiting approval Working towards ${'Outstanding '.repeat(11)}Outstanding Bob`,
    );
  });

  it('writes every standard of every version in the PDF, and fills the cells a person has no status for', async () => {
    await h.db.updateTable('entities').set({ date_format: 'YYYY-MM-DD' }).where('id', '=', org.id).execute();
    try {
      const res = await (await as('manager'))(
        'GET',
        `/api/reports/care-certificate/export/pdf?people=all&entities=${site.id}`,
      );
      expect(res.statusCode, res.body).toBe(200);
      const flat = (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
      expect(flat).toContain(`Person ${Array.from({ length: 16 }, (_, i) => `S${i + 1}`).join(' ')} Ann`);
      expect(flat).toContain('Ann Report Home Carer 2015 2026-01-05 2026-01-01 Not yet');
      // Ann's 2015 certificate has no Standard 16; Dan has no certificate.
      expect(flat).toMatch(/Ann Approved Awaiting approval Working towards (Outstanding ){12}Not in version/);
      expect(flat).toContain(
        'Dan Report Home Carer None Not assigned Not assigned Not assigned Not assigned',
      );
      expect(flat).toContain(`Dan ${'Not assigned '.repeat(16)}`);
    } finally {
      await h.db.updateTable('entities').set({ date_format: null }).where('id', '=', org.id).execute();
    }
  });

  it('answers 401, 422, 403 and 404', async () => {
    const anon = await h.app.inject({ method: 'GET', url: '/api/reports/care-certificate/export/xlsx' });
    expect(anon.statusCode).toBe(401);
    expect((await (await as('manager'))('GET', '/api/reports/care-certificate/export/csv')).statusCode).toBe(
      422,
    );
    expect((await (await as('none'))('GET', '/api/reports/care-certificate/export/pdf')).statusCode).toBe(
      403,
    );
    expect(
      (await (await as('outsider'))('GET', `/api/reports/care-certificate/export/xlsx?entities=${site.id}`))
        .statusCode,
    ).toBe(404);
  });
});

describe('dashboard widgets', () => {
  it('shows the learner their certificate and next criteria, skipping approved and awaiting standards', async () => {
    const res = await (await as('ann'))('GET', '/api/dashboard/care-certificate');
    expect(res.statusCode, res.body).toBe(200);
    const w = res.json().data;
    expect(w.certificate).toMatchObject({ uuid: annUuid, user: { id: ids.ann } });
    expect(w.next).toHaveLength(5);
    // Standard 3 has its first criterion evidenced: the next ones start after it.
    expect(w.next[0].standard_number).toBe(3);
    expect(w.next.every((n: { standard_number: number }) => n.standard_number >= 3)).toBe(true);
    const first3 = await criteriaOf(h.db, annStandards[2].id);
    expect(w.next.slice(0, 2).map((n: { code: string }) => n.code)).toEqual(
      first3.slice(1, 3).map((k) => k.code),
    );
    // No certificate: nothing to show.
    const dan = (await (await as('dan'))('GET', '/api/dashboard/care-certificate')).json().data;
    expect(dan).toEqual({ certificate: null, next: [] });
    // A complete certificate has nothing next.
    const cat = (await (await as('cat'))('GET', '/api/dashboard/care-certificate')).json().data;
    expect(cat.certificate.status).toBe('complete');
    expect(cat.next).toEqual([]);
    expect((await h.app.inject({ method: 'GET', url: '/api/dashboard/care-certificate' })).statusCode).toBe(
      401,
    );
  });

  it('shows a manager their people by stage', async () => {
    const res = await (await as('viewer'))('GET', '/api/dashboard/care-certificate/team');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      working_towards: 2,
      awaiting_approval: 1,
      overdue: 1,
      complete: 1,
    });
    const w = res.json().data;
    expect(w.overdue_people.map((p: { user: { name: string } }) => p.user.name)).toEqual(['Ann']);
    expect(w.awaiting_people.map((p: { uuid: string }) => p.uuid)).toEqual([annUuid]);
    // Another organisation sees none of ours.
    const theirs = (await (await as('outsider'))('GET', '/api/dashboard/care-certificate/team')).json().data;
    expect(theirs).toMatchObject({ working_towards: 1, awaiting_approval: 0, complete: 0 });
    expect(JSON.stringify(theirs)).not.toContain('Ann');
    expect((await (await as('none'))('GET', '/api/dashboard/care-certificate/team')).statusCode).toBe(403);
    expect((await (await as('manager'))('GET', '/api/dashboard/care-certificate/team')).statusCode).toBe(403);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/dashboard/care-certificate/team' })).statusCode,
    ).toBe(401);
  });
});

describe('GraphQL', () => {
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by shape in the assertions.
  type Body = { data?: Record<string, any> | null; errors?: { extensions?: { code?: string } }[] };
  const gql = async (
    who: keyof typeof ids | null,
    query: string,
    variables: Record<string, unknown> = {},
  ) => {
    const headers = who === null ? {} : await bearer(h.db, ids[who]);
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers,
      payload: { query, variables },
    });
    return res.json() as Body;
  };
  const codes = (b: Body) => b.errors?.map((e) => e.extensions?.code);
  const REPORT = `query ($filter: CareCertificateReportFilter, $first: Int) {
    careCertificateReport(filter: $filter, first: $first) {
      data { user { name entity { name } } role nmds certificate { uuid overdue standards_approved } standards { number status } }
      paginatorInfo { total }
    }
  }`;

  it('careCertificateReport and careCertificateStandardReport answer as the REST routes do', async () => {
    const all = await gql('manager', REPORT, { first: 50 });
    expect(all.errors).toBeUndefined();
    expect(all.data?.careCertificateReport.paginatorInfo.total).toBe(4);
    const ann = all.data?.careCertificateReport.data[0];
    expect(ann).toMatchObject({ user: { name: 'Ann' }, nmds: 'in_progress', certificate: { uuid: annUuid } });
    expect(ann.standards.slice(0, 3)).toEqual([
      { number: 1, status: 'approved' },
      { number: 2, status: 'awaiting_approval' },
      { number: 3, status: 'working_towards' },
    ]);
    const filtered = await gql('manager', REPORT, {
      filter: { includeApproved: false, includeAwaitingApproval: false, includeOutstanding: false },
    });
    expect(
      filtered.data?.careCertificateReport.data.map((r: { user: { name: string } }) => r.user.name),
    ).toEqual(['Ann', 'Eve']);
    const standards = await gql(
      'manager',
      `query { careCertificateStandardReport(filter: { care_certificate_filter: in_progress }) { version_code number approved working_towards } }`,
    );
    expect(standards.errors).toBeUndefined();
    expect(standards.data?.careCertificateStandardReport[0]).toMatchObject({
      version_code: '2015',
      number: 1,
      approved: 1,
      working_towards: 1,
    });
    expect(codes(await gql(null, REPORT))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await gql('none', REPORT))).toEqual(['FORBIDDEN']);
    expect(codes(await gql('outsider', REPORT, { filter: { entities: [site.id] } }))).toEqual(['NOT_FOUND']);
    expect(codes(await gql('manager', REPORT, { first: 0 }))).toEqual(['BAD_USER_INPUT']);
  });

  it('the widgets', async () => {
    const learner = await gql(
      'ann',
      'query { learnerCareCertificateWidget { certificate { uuid user { name } } next { standard_number code } } }',
    );
    expect(learner.errors).toBeUndefined();
    expect(learner.data?.learnerCareCertificateWidget.certificate.uuid).toBe(annUuid);
    expect(learner.data?.learnerCareCertificateWidget.next).toHaveLength(5);
    const TEAM =
      'query { managerCareCertificateWidget { working_towards awaiting_approval overdue complete overdue_people { uuid } } }';
    const team = await gql('viewer', TEAM);
    expect(team.data?.managerCareCertificateWidget).toMatchObject({
      working_towards: 2,
      awaiting_approval: 1,
      overdue: 1,
      complete: 1,
      overdue_people: [{ uuid: annUuid }],
    });
    expect(codes(await gql('none', TEAM))).toEqual(['FORBIDDEN']);
    expect(codes(await gql(null, TEAM))).toEqual(['UNAUTHENTICATED']);
  });
});

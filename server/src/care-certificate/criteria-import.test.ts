import { CareCertificateMessages as M } from '@cc/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { as, assign, certificateWorld, upload, versionId } from './certificate-fixtures';

/**
 * Issue 32 §2: a super admin imports a version's criteria from CSV or XLSX: preview (added / changed / unchanged,
 * nothing written), refusal of rows that do not fit the version (422, row-level errors), apply in one
 * transaction, and the standards being global (another organisation's certificate sees them). Everyone else: 403.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

let n = 0;
const code = () => `I${Date.now() % 100000}${n++}`;
const csv = (rows: string[][]) =>
  Buffer.from(
    rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n'),
  );
const HEADER = ['code', 'outcome', 'wording', 'kind'];

/** A copy of a built-in version, so imports here never change the data other tests read. */
async function copyOf(adminId: number, from: '2015' | '2025') {
  const res = await (await as(h, adminId))('POST', '/api/care-certificate-versions', {
    code: code(),
    title: `Copy of ${from}`,
    copy_from_id: await versionId(h.db, from),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; code: string; criteria_count: number };
}

const post = (userId: number, id: number, file: Buffer, filename = 'criteria.csv', apply = false) =>
  upload(h, userId, `/api/care-certificate-versions/${id}/criteria-import${apply ? '' : '/preview'}`, [], {
    filename,
    bytes: file,
  });

async function criterion(version: number, criterionCode: string) {
  return h.db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .innerJoin('care_certificate_outcomes as o', 'o.id', 'k.outcome_id')
    .select([
      'k.text',
      'k.requires_observation',
      'k.position',
      'o.code as outcome',
      'o.title as outcome_title',
    ])
    .where('s.version_id', '=', version)
    .where('k.code', '=', criterionCode)
    .executeTakeFirst();
}

describe('criteria import', () => {
  it('previews added, changed and unchanged rows without writing; the import applies them in one go', async () => {
    const w = await certificateWorld(h);
    const v = await copyOf(w.admin.id, '2015');
    const held = await criterion(v.id, '1.2a');
    expect(held).toBeDefined();
    const file = csv([
      HEADER,
      ['1.2a', '1.2', held?.text ?? '', held?.requires_observation ? 'observed' : 'knowledge'],
      ['1.2b', '1.2', 'Wording of 1.2b as the official document gives it', 'knowledge'],
      ['1.1a', '1.1', 'A new wording of 1.1a', 'Observed'],
      ['12.1a', '12.1 Assess an emergency situation', 'Wording of 12.1a', 'observed'],
    ]);
    const preview = await post(w.admin.id, v.id, file);
    expect(preview.statusCode, preview.body).toBe(200);
    const p = preview.json().data;
    expect(p).toMatchObject({ applied: false, added: 2, changed: 1, unchanged: 1, outcomes_added: ['12.1'] });
    expect(p.rows.map((r: { code: string; change: string }) => [r.code, r.change])).toEqual([
      ['1.2a', 'unchanged'],
      ['1.2b', 'added'],
      ['1.1a', 'changed'],
      ['12.1a', 'added'],
    ]);
    expect(p.rows[2].before).toMatchObject({ kind: 'knowledge' });
    expect(p.gaps.standards_without_criteria).toContain(12);
    expect(await criterion(v.id, '1.2b')).toBeUndefined();

    const applied = await post(w.admin.id, v.id, file, 'criteria.csv', true);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json().message).toBe(M.criteriaImported);
    expect(applied.json().data).toMatchObject({ applied: true, added: 2, changed: 1, unchanged: 1 });
    expect(applied.json().data.gaps.standards_without_criteria).not.toContain(12);
    expect(await criterion(v.id, '1.1a')).toMatchObject({
      text: 'A new wording of 1.1a',
      requires_observation: true,
    });
    expect(await criterion(v.id, '12.1a')).toMatchObject({
      outcome: '12.1',
      outcome_title: 'Assess an emergency situation',
      requires_observation: true,
      position: 0,
    });
    const b = await criterion(v.id, '1.2b');
    const a = await criterion(v.id, '1.2a');
    expect(b?.position).toBe((a?.position ?? 0) + 1);
    const again = await post(w.admin.id, v.id, file);
    expect(again.json().data).toMatchObject({ added: 0, changed: 0, unchanged: 4 });
  });

  it('reads an Excel workbook the same way', async () => {
    const w = await certificateWorld(h);
    const v = await copyOf(w.admin.id, '2025');
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Criteria');
    sheet.addRow(['Code', 'Outcome', 'Wording', 'Kind']);
    sheet.addRow(['16.1a', '16.1', 'Wording of 16.1a', 'knowledge']);
    sheet.addRow(['16.1b', '16.1', { richText: [{ text: 'Demonstrate ' }, { text: '16.1b' }] }, 'observed']);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await post(w.admin.id, v.id, bytes, 'criteria.xlsx', true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ added: 2, outcomes_added: ['16.1'] });
    expect(await criterion(v.id, '16.1b')).toMatchObject({
      text: 'Demonstrate 16.1b',
      requires_observation: true,
    });
    expect(res.json().data.gaps.standards_without_criteria).not.toContain(16);
  });

  it('refuses the whole file with row-level errors: codes of another version, outside their outcome, bad kinds', async () => {
    const w = await certificateWorld(h);
    const v = await copyOf(w.admin.id, '2015');
    const before = (await (await as(h, w.admin.id))('GET', `/api/care-certificate-versions/${v.id}`)).json()
      .data.criteria_count;
    const file = csv([
      [...HEADER, 'version'],
      ['1.2b', '1.2', 'Fine on its own', 'knowledge', ''],
      ['16.1a', '16.1', 'A 2025 criterion', 'knowledge', ''],
      ['1.3c', '1.4', 'Wrong outcome', 'knowledge', ''],
      ['1.3d', '1.3', 'Bad kind', 'both', ''],
      ['1.2b', '1.2', 'Twice', 'knowledge', ''],
      ['x1', '1.2', 'Not a code', 'knowledge', ''],
      ['1.3e', '1.3', '=HYPERLINK("http://x")', 'knowledge', ''],
      ['1.3f', '1.3', 'Another version', 'knowledge', '2025'],
      ['1.3g', '1.3', '', 'knowledge', ''],
    ]);
    for (const apply of [false, true]) {
      const res = await post(w.admin.id, v.id, file, 'criteria.csv', apply);
      expect(res.statusCode).toBe(422);
      const errors = res.json().errors as Record<string, string[]>;
      expect(Object.keys(errors).sort()).toEqual(
        [
          'rows.3.code',
          'rows.4.outcome',
          'rows.5.kind',
          'rows.6.code',
          'rows.7.code',
          'rows.8.wording',
          'rows.9.version',
          'rows.10.wording',
        ].sort(),
      );
      expect(errors['rows.3.code']?.[0]).toMatch(
        new RegExp(`^Row 3: version ${v.code} has no Standard 16 \\(16\\.1a is a code of version 2025`),
      );
      expect(errors['rows.6.code']?.[0]).toBe('Row 6: 1.2b is already on row 2.');
      expect(res.json().message).toBe(errors['rows.3.code']?.[0]);
    }
    const after = (await (await as(h, w.admin.id))('GET', `/api/care-certificate-versions/${v.id}`)).json()
      .data;
    expect(after.criteria_count).toBe(before);

    const headerless = await post(
      w.admin.id,
      v.id,
      csv([
        ['code', 'text'],
        ['1.2b', 'x'],
      ]),
    );
    expect(headerless.statusCode).toBe(422);
    expect(Object.keys(headerless.json().errors)).toEqual(['file']);
    const none = await upload(
      h,
      w.admin.id,
      `/api/care-certificate-versions/${v.id}/criteria-import/preview`,
      [],
    );
    expect(none.json().errors).toEqual({ file: [M.criteriaFileRequired] });
    const missing = await post(w.admin.id, 999999, csv([HEADER, ['1.1a', '1.1', 'x', 'knowledge']]));
    expect(missing.statusCode).toBe(404);
  });

  it('only a super admin imports (403 for anyone else, 401 signed out); every signed-in user reads the gaps', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db, '2025');
    const file = csv([HEADER, ['16.1a', '16.1', 'Wording', 'knowledge']]);
    for (const userId of [w.outsider.id, w.manager.id, w.learner.id]) {
      for (const apply of [false, true]) {
        const res = await post(userId, v, file, 'criteria.csv', apply);
        expect(res.statusCode, `${userId} ${apply}`).toBe(403);
      }
    }
    const anon = await h.app.inject({
      method: 'POST',
      url: `/api/care-certificate-versions/${v}/criteria-import`,
    });
    expect(anon.statusCode).toBe(401);
    const gaps = await (await as(h, w.learner.id))('GET', `/api/care-certificate-versions/${v}/gaps`);
    expect(gaps.statusCode).toBe(200);
    const g = gaps.json().data;
    expect(g.complete).toBe(false);
    expect(g.standards_without_criteria).toEqual(expect.arrayContaining([4, 11, 12, 16]));
    expect(g.sources[0].url).toContain('skillsforcare.org.uk');
    const s1 = g.standards.find((s: { number: number }) => s.number === 1);
    expect(s1.missing).toEqual(expect.arrayContaining(['1.1a', '1.1b', '1.1c']));
    expect(await criterion(v, '16.1a')).toBeUndefined();
  });

  it('once imported, the criteria reach every organisation’s certificates on that version', async () => {
    const w = await certificateWorld(h);
    const v = await copyOf(w.admin.id, '2025');
    const uuid = await assign(h, w.manager.id, w.learner.id, v.id);
    const other = await buildUser(h.db, { entityId: w.other.id });
    const theirs = await assign(h, w.outsider.id, other.id, v.id);
    const file = csv([HEADER, ['16.1a', '16.1', 'Wording of 16.1a', 'knowledge']]);
    expect((await post(w.admin.id, v.id, file, 'c.csv', true)).statusCode).toBe(200);
    for (const [userId, id] of [
      [w.manager.id, uuid],
      [w.outsider.id, theirs],
    ] as const) {
      const view = await h.app.inject({
        method: 'GET',
        url: `/api/care-certificates/${id}`,
        headers: await bearer(h.db, userId),
      });
      expect(view.statusCode, view.body).toBe(200);
      const s16 = view.json().data.standards.find((s: { number: number }) => s.number === 16);
      expect(s16.criteria_total).toBe(1);
    }
  });

  it('over GraphQL: the same preview, refusal and 403', async () => {
    const w = await certificateWorld(h);
    const v = await copyOf(w.admin.id, '2015');
    const gql = async (userId: number, file: Buffer) => {
      const operations = JSON.stringify({
        query:
          'mutation($v: ID!, $f: Upload!) { previewCareCertificateCriteriaImport(version_id: $v, file: $f) { added changed unchanged rows { code change } } }',
        variables: { v: String(v.id), f: null },
      });
      const boundary = `----cc${Math.random().toString(16).slice(2)}`;
      const part = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const payload = Buffer.concat([
        Buffer.from(part('operations', operations) + part('map', JSON.stringify({ 0: ['variables.f'] }))),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n`,
        ),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await h.app.inject({
        method: 'POST',
        url: '/graphql',
        payload,
        headers: {
          ...(await bearer(h.db, userId)),
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'x-graphql-csrf': '1',
          'apollo-require-preflight': 'true',
        },
      });
      return res.json() as {
        // biome-ignore lint/suspicious/noExplicitAny: read by the query sent
        data?: any;
        errors?: { extensions?: { status?: number; validation?: Record<string, string[]> } }[];
      };
    };
    const ok = await gql(w.admin.id, csv([HEADER, ['1.2b', '1.2', 'Wording', 'knowledge']]));
    expect(ok.errors).toBeUndefined();
    expect(ok.data.previewCareCertificateCriteriaImport).toMatchObject({
      added: 1,
      rows: [{ code: '1.2b', change: 'added' }],
    });
    const bad = await gql(w.admin.id, csv([HEADER, ['16.1a', '16.1', 'Wording', 'knowledge']]));
    expect(bad.errors?.[0]?.extensions?.status).toBe(422);
    expect(Object.keys(bad.errors?.[0]?.extensions?.validation ?? {})).toEqual(['rows.2.code']);
    const denied = await gql(w.manager.id, csv([HEADER, ['1.2b', '1.2', 'Wording', 'knowledge']]));
    expect(denied.errors?.[0]?.extensions?.status).toBe(403);
  });
});

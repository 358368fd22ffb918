import type { PatchFixture, Row, World } from '../../test/patch-fixtures';

/**
 * The Care Certificate core part's rows in test/patch-fixtures.ts (issue 16): versions, standards, outcomes,
 * criteria and the settings, each created with every field off its default and read back through the API.
 */

const uid = () => Math.random().toString(36).slice(2, 8);

async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}
const get = async (w: World, url: string) => dataOf(await w.admin('GET', url));
const post = async (w: World, url: string, body: unknown) => dataOf(await w.admin('POST', url, body));
const patch = async (w: World, url: string, body: unknown) => dataOf(await w.admin('PATCH', url, body));

interface TreeStandard {
  id: number;
  number: number;
  title: string;
  outcomes: { id: number; code: string; title: string | null; position: number; criteria: Row[] }[];
}

async function newVersion(w: World, isDefault = false) {
  return post(w, '/api/care-certificate-versions', {
    code: `V${uid()}`,
    title: 'Test standards',
    effective_from: '2030-04-01',
    is_default: isDefault,
  });
}

async function treeOf(w: World, versionId: number) {
  return (await get(w, `/api/care-certificate-versions/${versionId}`)).standards as TreeStandard[];
}

const version: PatchFixture<{ id: number }> = {
  async create(w) {
    return { id: (await newVersion(w, true)).id as number };
  },
  url: (s) => `/api/care-certificate-versions/${s.id}`,
  values: () => ({ code: `V${uid()}`, title: 'Renamed', effective_from: '2031-01-01', is_default: false }),
  read: (s, w) => get(w, `/api/care-certificate-versions/${s.id}`),
};

const standard: PatchFixture<{ versionId: number; id: number }> = {
  async create(w) {
    const v = await newVersion(w);
    const tree = await post(w, `/api/care-certificate-versions/${v.id}/standards`, {
      number: 3,
      title: 'Duty',
    });
    return { versionId: v.id as number, id: (tree.standards as TreeStandard[])[0].id };
  },
  url: (s) => `/api/care-certificate-standards/${s.id}`,
  values: () => ({ number: 4, title: 'Duty of care' }),
  async read(s, w) {
    const found = (await treeOf(w, s.versionId)).find((x) => x.id === s.id);
    return { id: found?.id, number: found?.number, title: found?.title };
  },
};

const outcome: PatchFixture<{ versionId: number; id: number }> = {
  async create(w) {
    const v = await newVersion(w);
    const tree = await post(w, `/api/care-certificate-versions/${v.id}/standards`, {
      number: 1,
      title: 'Role',
    });
    const standardId = (tree.standards as TreeStandard[])[0].id;
    const withOutcome = await post(w, `/api/care-certificate-standards/${standardId}/outcomes`, {
      code: '1.1',
      title: 'Understand your role',
      position: 5,
    });
    return { versionId: v.id as number, id: (withOutcome.standards as TreeStandard[])[0].outcomes[0].id };
  },
  url: (s) => `/api/care-certificate-outcomes/${s.id}`,
  values: () => ({ code: '1.2', title: 'Work in partnership', position: 6 }),
  async read(s, w) {
    const found = (await treeOf(w, s.versionId)).flatMap((x) => x.outcomes).find((o) => o.id === s.id);
    return { id: found?.id, code: found?.code, title: found?.title, position: found?.position };
  },
};

const criterion: PatchFixture<{ versionId: number; id: number }> = {
  async create(w) {
    const v = await newVersion(w);
    const tree = await post(w, `/api/care-certificate-versions/${v.id}/standards`, {
      number: 1,
      title: 'Role',
    });
    const standardId = (tree.standards as TreeStandard[])[0].id;
    const withOutcome = await post(w, `/api/care-certificate-standards/${standardId}/outcomes`, {
      code: '1.1',
      title: null,
    });
    const outcomeId = (withOutcome.standards as TreeStandard[])[0].outcomes[0].id;
    const withCriterion = await post(w, `/api/care-certificate-outcomes/${outcomeId}/criteria`, {
      code: '1.1a',
      text: 'Demonstrate it',
      requires_observation: true,
      position: 3,
    });
    const id = (withCriterion.standards as TreeStandard[])[0].outcomes[0].criteria[0].id as number;
    return { versionId: v.id as number, id };
  },
  url: (s) => `/api/care-certificate-criteria/${s.id}`,
  values: () => ({ code: '1.1b', text: 'Describe it', requires_observation: false, position: 4 }),
  async read(s, w) {
    const found = (await treeOf(w, s.versionId))
      .flatMap((x) => x.outcomes)
      .flatMap((o) => o.criteria)
      .find((k) => k.id === s.id);
    return found ?? {};
  },
};

/** The super admin's own organisation's settings (GraphQL sends no acting-as), every field off its default. */
const settings: PatchFixture<{ v2015: number; v2025: number }> = {
  async create(w) {
    const versions = (await w.admin('GET', '/api/care-certificate-versions')).json().data as {
      id: number;
      code: string;
    }[];
    const idOf = (code: string) => versions.find((v) => v.code === code)?.id as number;
    const s = { v2015: idOf('2015'), v2025: idOf('2025') };
    await patch(w, '/api/care-certificate-settings', { expected_weeks: 30, default_version_id: s.v2015 });
    return s;
  },
  url: () => '/api/care-certificate-settings',
  values: (s) => ({ expected_weeks: 40, default_version_id: s.v2025 }),
  read: (_s, w) => get(w, '/api/care-certificate-settings'),
};

export const CORE_PATCH_FIXTURES: Record<string, PatchFixture> = {
  'PATCH /api/care-certificate-versions/{id}': version,
  'PATCH /api/care-certificate-standards/{id}': standard,
  'PATCH /api/care-certificate-outcomes/{id}': outcome,
  'PATCH /api/care-certificate-criteria/{id}': criterion,
  'PATCH /api/care-certificate-settings': settings,
};

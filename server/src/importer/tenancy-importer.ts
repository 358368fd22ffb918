import type { Db } from '../db/connect';

/**
 * The importer's rows in server/test/tenancy.test.ts (issue 18): a planned import of the target's home with a row to
 * create and an unresolved error row, so every route naming an import (read, apply, undo, resolve) has something to
 * reach. Outsider (every permission): the same 404 as a missing import, nothing changes; insider without 99/100: 403.
 * The upload (POST /importer/imports) always imports into the caller's own organisation: tenancy.test.ts checks that
 * a file naming the target's person plans an error, not a change.
 */
export interface ImporterFixture {
  uuid: string;
  errorId: number;
  fileName: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  importer: ImporterFixture;
}

export async function importerFixture(
  db: Db,
  o: { siteId: number; victimId: number; canary: string },
): Promise<ImporterFixture> {
  const fileName = `${o.canary} staff.csv`;
  const headers = ['name', 'email'];
  const imp = await db
    .insertInto('imports')
    .values({
      entity_id: o.siteId,
      created_by: o.victimId,
      kind: 'users',
      file_name: fileName,
      headers: JSON.stringify(headers),
      storage_key: null,
      status: 'planned',
      failure: null,
      total_rows: 2,
      create_count: 1,
      error_count: 1,
      task_id: null,
      plan_ms: 5,
      apply_ms: null,
      applied_by: null,
      undone_by: null,
      planned_at: new Date(),
      applied_at: null,
      undone_at: null,
    })
    .returning(['id', 'uuid'])
    .executeTakeFirstOrThrow();
  const values = { name: `${o.canary} Newstarter`, email: `${o.canary.toLowerCase()}-new@example.test` };
  await db
    .insertInto('import_rows')
    .values({
      import_id: imp.id,
      row_number: 2,
      action: 'create',
      target_id: null,
      data: JSON.stringify({ label: `${values.name} <${values.email}>`, values }),
      changes: null,
      before: null,
    })
    .execute();
  const error = await db
    .insertInto('import_errors')
    .values({
      import_id: imp.id,
      row_number: 3,
      column_name: 'email',
      message: '"nobody" is not an e-mail address.',
      row_values: JSON.stringify({ name: `${o.canary} Broken`, email: 'nobody' }),
      resolved_at: null,
      resolved_by: null,
      resolution_note: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { uuid: imp.uuid, errorId: error.id, fileName };
}

export function importerCases() {
  const scoped = (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown) => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped' as const,
  });
  const imp = (f: F) => `/api/importer/imports/${f.importer.uuid}`;
  return [
    scoped('GET', '/api/importer/imports/:uuid', imp),
    scoped('GET', '/api/importer/imports/:uuid/rows', (f) => `${imp(f)}/rows`),
    scoped('GET', '/api/importer/imports/:uuid/errors', (f) => `${imp(f)}/errors`),
    scoped('GET', '/api/importer/imports/:uuid/errors.csv', (f) => `${imp(f)}/errors.csv`),
    scoped('POST', '/api/importer/imports/:uuid/apply', (f) => `${imp(f)}/apply`),
    scoped('POST', '/api/importer/imports/:uuid/undo', (f) => `${imp(f)}/undo`),
    scoped(
      'POST',
      '/api/importer/imports/:uuid/errors/:id/resolve',
      (f) => `${imp(f)}/errors/${f.importer.errorId}/resolve`,
      () => ({ note: 'Taken over' }),
    ),
  ];
}

/** The runs list shows no other organisation's imports; a template is the same for everyone holding 99. */
export const importerLists = () => [
  {
    method: 'GET' as const,
    route: '/api/importer/imports',
    url: () => '/api/importer/imports?per_page=100',
    secrets: (f: F) => [f.importer.uuid, f.importer.fileName],
    insider: 403 as const,
  },
  {
    method: 'GET' as const,
    route: '/api/importer/templates/:kind',
    url: () => '/api/importer/templates/users',
    secrets: (f: F) => [f.importer.fileName],
    insider: 403 as const,
  },
];

export const IMPORTER_TABLES = ['imports', 'import_rows', 'import_errors'] as const;

export const IMPORTER_EXEMPT: Record<string, string> = {
  'POST /api/importer/imports':
    "imports into the caller's own organisation only; a row naming another organisation's person is an error (tested below)",
};

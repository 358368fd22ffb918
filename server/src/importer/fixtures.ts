import { PERMISSIONS } from '@cc/contracts';
import { buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import type { Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { upload } from '../care-certificate/certificate-fixtures';
import { runDueJobs } from '../jobs/queue';
import { registerImporterJobs } from './jobs';

/** Everything an importer test needs: a group with a home, a role, a type, a course with a rule, an importer. */
export const ALL = PERMISSIONS.map((p) => p.id);

export async function importerWorld(h: Harness, o: { permissions?: number[] } = {}) {
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { parentId: group.id, name: `Rose House ${group.slug}` });
  const role = await buildRole(h.db, group.id, { name: 'Care Assistant' });
  const carerType = await buildType(h.db, group.id, { name: 'Carer', permissions: [104] });
  const bossType = await buildType(h.db, group.id, { name: 'Boss', permissions: ALL });
  const course = await buildCourse(h.db, group.id, { title: `Fire Safety ${group.slug}` });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: group.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  // 99 and 100 (the importer), 3/18/4/5 (people), 26 (records); not everything, so a type can be "above" them.
  const importer = await buildUser(h.db, {
    entityId: group.id,
    permissions: o.permissions ?? [99, 100, 3, 18, 4, 5, 21, 26, 104],
  });
  return { group, home, role, carerType, bossType, course, importer };
}
export type ImporterWorld = Awaited<ReturnType<typeof importerWorld>>;

export const csv = (rows: string[][]) => Buffer.from(`${rows.map((r) => r.join(',')).join('\n')}\n`);

export async function planCsv(
  h: Harness,
  userId: number,
  kind: string,
  bytes: Buffer,
  filename = 'people.csv',
) {
  return upload(h, userId, '/api/importer/imports', [['kind', kind]], { filename, bytes, type: 'text/csv' });
}

export const as = (h: Harness, userId: number) => clientFor(h.app, h.db, userId);

/** Runs the importer's due jobs as the worker would, at `now` (a test's own clock), by default the real time. */
export async function runJobs(h: Harness, now = new Date()) {
  registerImporterJobs();
  await runDueJobs(h.deps, now);
}

export { buildUser };

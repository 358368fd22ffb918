import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { pdfText } from '../../test/pdf-text';
import { insertCertificate, observe, setState, versionId } from '../care-certificate/report-fixtures';
import { runDueJobs } from '../jobs/queue';

/**
 * The inspection pack shows each new starter's Care Certificate status (issue 16): version, standards approved of the
 * total, the workforce data set value, expected by and overdue, under the organisation's white-label name for it.
 */
let h: Harness;
let home: { id: number; slug: string };
let manager: { id: number };
beforeAll(async () => {
  h = await createHarness();
  const org = await buildEntity(h.db, {
    level: 'A',
    name: 'Starter Group',
    settings: { whitelabel: JSON.stringify({ certificateGroupMenuName: 'Induction Standards' }) },
  });
  home = await buildEntity(h.db, { parentId: org.id, name: 'Starter Home' });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { title: 'Fire safety' });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: org.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  const recent = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const starter = (name: string) =>
    buildUser(h.db, { entityId: home.id, roleId: role.id, name, startDate: recent });
  const nia = await starter('Nia Newstart');
  await starter('Omar Notyet');
  // Someone who started long ago is not a new starter: their certificate is not listed.
  const old = await buildUser(h.db, {
    entityId: home.id,
    roleId: role.id,
    name: 'Pat Longserving',
    startDate: '2015-01-01',
  });
  const v2015 = await versionId(h.db, '2015');
  const cert = await insertCertificate(h.db, { userId: nia.id, versionId: v2015, expectedBy: '2026-01-01' });
  await observe(h.db, cert.id, cert.standards[0].id);
  await setState(h.db, cert.id, cert.standards[0].id, 'approved');
  await insertCertificate(h.db, { userId: old.id, versionId: v2015, expectedBy: '2099-01-01' });
  manager = await buildUser(h.db, { entityId: org.id, permissions: [13] });
});
afterAll(async () => h?.close());

describe('inspection pack: new starters and the Care Certificate', () => {
  it("lists each new starter's certificate status under the organisation's name for it", async () => {
    const as = await clientFor(h.app, h.db, manager.id);
    const queued = (await as('POST', `/api/entities/${home.slug}/inspection-pack`)).json().data;
    await runDueJobs(h.deps, new Date());
    const status = (await as('GET', `/api/inspection-packs/${queued.id}`)).json().data;
    expect(status.status, JSON.stringify(status)).toBe('done');
    const text = (await pdfText((await as('GET', status.pdf_url)).rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Induction Standards: new starters');
    expect(text).toContain('Standards approved');
    expect(text).toMatch(/Nia Newstart 2015 1 of 15 In progress or partially completed 01\/01\/2026 Overdue/);
    expect(text).toMatch(/Omar Notyet Not assigned Not started/);
    expect(text.split('Induction Standards: new starters')[1]).not.toContain('Pat Longserving 2015');
  });
});

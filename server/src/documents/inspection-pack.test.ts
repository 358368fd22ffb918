import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { runDueJobs } from '../jobs/queue';
import { as, documentsWorld, open, requiredDocument } from './fixtures';

/** The inspection pack's policy receipts (issue 17): who acknowledged which version and when, and who has not. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe('inspection pack: policy receipts', () => {
  it('lists each required document with who acknowledged which version, and who has not', async () => {
    const w = await documentsWorld(h);
    const { doc } = await requiredDocument(h, w);
    await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id, name: 'Nora Notread' });
    await open(h, w.learner.id, doc.id);
    const ack = await (await as(h, w.learner.id))('POST', `/api/documents/${doc.id}/acknowledge`, {
      typed_name: 'Lee Learner',
      version: 1,
    });
    expect(ack.statusCode).toBe(201);
    const inspector = await buildUser(h.db, { entityId: w.group.id, permissions: [13] });
    const client = await clientFor(h.app, h.db, inspector.id);
    const queued = (await client('POST', `/api/entities/${w.home.slug}/inspection-pack`)).json().data;
    await runDueJobs(h.deps, new Date());
    const status = (await client('GET', `/api/inspection-packs/${queued.id}`)).json().data;
    expect(status.status, JSON.stringify(status)).toBe('done');
    const text = (await pdfText((await client('GET', status.pdf_url)).rawPayload)).replace(/\s+/g, ' ');
    // The section itself: the CQC summary page (page 2) names it first, with its page.
    const receipts = text.split('Policy receipts').at(-1) ?? '';
    expect(receipts).toMatch(
      /Safeguarding policy \(version 1\) Nora Notread Care assistant Not acknowledged/,
    );
    expect(receipts).toMatch(
      /Safeguarding policy \(version 1\) Lee Learner Care assistant Version 1 \d\d\/\d\d\/\d{4} Acknowledged/,
    );
  });
});

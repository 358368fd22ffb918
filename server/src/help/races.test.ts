import { HELP_CONTACTS_PER_HOUR } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/** "Contact support" in parallel (issue 10 §3) on PostgreSQL: the hourly budget holds under concurrent requests. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const session = {
  app_release: '0.1.0',
  environment: 'test',
  mode: 'web',
  connection: 'good',
  api_release: '1.0.0',
};

describeRaces('help contact requests in parallel', () => {
  it(`${HELP_CONTACTS_PER_HOUR + 6} parallel requests of one user: exactly ${HELP_CONTACTS_PER_HOUR} pass`, async () => {
    const user = await buildUser(h.db);
    const me = await clientFor(h.app, h.db, user.id);
    const responses = await parallel(HELP_CONTACTS_PER_HOUR + 6, (i) =>
      me('POST', '/api/help/contact', { question: `Question ${i}`, session }),
    );
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([...Array(HELP_CONTACTS_PER_HOUR).fill(200), ...Array(6).fill(429)]);
    const rows = await h.db.selectFrom('help_contacts').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(HELP_CONTACTS_PER_HOUR);
    const jobs = await h.db.selectFrom('jobs').select('id').where('name', '=', 'help-contact').execute();
    expect(jobs).toHaveLength(HELP_CONTACTS_PER_HOUR);
  });
});

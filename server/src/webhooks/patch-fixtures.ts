import { CreateWebhookBody } from '@cc/contracts';
import type { PatchFixture, Row } from '../../test/patch-fixtures';

/**
 * The webhook endpoint in test/patch-fixtures.ts (issue 18): created with every field off its default and read back
 * through the API. Public IP literals: saved without a DNS lookup, and never called (nothing is sent on PATCH).
 */
const uid = () => Math.random().toString(36).slice(2, 8);

async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}

const endpoint: PatchFixture<{ id: number }> = {
  async create(w) {
    const row = await dataOf(
      await w.admin('POST', '/api/webhooks', {
        entity: w.org.slug,
        url: `https://93.184.216.34/hooks/${uid()}`,
        description: 'Payroll',
        event_types: ['booking.changed', 'user.created'],
        enabled: false,
      }),
    );
    return { id: row.id as number };
  },
  url: (s) => `/api/webhooks/${s.id}`,
  values: () => ({
    url: `https://93.184.216.35/other/${uid()}`,
    description: 'Rota system',
    event_types: ['result.recorded'],
    enabled: true,
  }),
  async read(s, w) {
    const row = await dataOf(await w.admin('GET', `/api/webhooks/${s.id}`));
    return { url: row.url, description: row.description, event_types: row.event_types, enabled: row.enabled };
  },
  createSchema: CreateWebhookBody,
};

export const WEBHOOKS_PATCH_FIXTURES = { 'PATCH /api/webhooks/{id}': endpoint };

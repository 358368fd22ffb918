import { type Kysely, sql } from 'kysely';

/**
 * 047_sealed_webhook_secrets (issue 29 §14): webhook signing secrets are no longer kept in clear. They must still be
 * read back (each delivery is signed with them), so they are sealed with AES-256-GCM under the server key
 * (SECRETS_KEY; security/sealing.ts) rather than hashed.
 *
 * The key is not the database's to know, so this migration cannot do the sealing itself: a migration sees the
 * database only (they also run for `npm run restore`, where no key is needed), and a key kept in the database would
 * protect nothing. It adds the sealed columns and lets the clear ones be empty; the webhooks capability, which holds
 * the key, then seals every clear secret at each start right after the migrations (webhooks/secrets.ts
 * sealClearWebhookSecrets, called by openDeps) and empties the clear columns in the same statement, one row at a
 * time, guarded so that several processes starting at once seal each row once. A clear column left by an older
 * process during an upgrade is sealed by the next delivery of that endpoint or the next start. The clear columns
 * stay (empty) so that a database restored from an older backup can still be sealed.
 *
 * - secret_sealed / previous_secret_sealed: `v1.<key id>.<iv>.<ciphertext>.<tag>`, bound to the endpoint's uuid.
 * - Every endpoint keeps one signing secret, in one form or the other.
 */
const statements = [
  `ALTER TABLE webhook_endpoints
     ADD COLUMN secret_sealed text,
     ADD COLUMN previous_secret_sealed text,
     ALTER COLUMN secret DROP NOT NULL`,
  `ALTER TABLE webhook_endpoints
     ADD CONSTRAINT webhook_endpoints_secret_present CHECK (secret IS NOT NULL OR secret_sealed IS NOT NULL)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

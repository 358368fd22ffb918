import { type Kysely, sql } from 'kysely';

/**
 * 038_personal_access_tokens (issue 18): a personal access token always has an expiry (the organisation's maximum
 * bounds it) and a visible prefix (how its owner and a scanner's report match it); device logins' tokens keep theirs
 * optional.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE personal_access_tokens ADD CONSTRAINT personal_access_tokens_personal_check
    CHECK (kind <> 'personal' OR (expires_at IS NOT NULL AND token_prefix IS NOT NULL))`.execute(db);
}

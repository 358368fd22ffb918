import type { Kysely } from 'kysely';

/** 039_offline_attempts (issue 19): reserved; its helper writes it. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

import type { Kysely } from 'kysely';

/** 040_push_devices (issue 19): reserved; its helper writes it. */
export async function up(_db: Kysely<unknown>): Promise<void> {}

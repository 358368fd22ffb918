import { Perm } from '@cc/contracts';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/connect';
import { authorize, type Ctx } from '../http/context';
import { invalid } from '../http/errors';
import { builder } from './builder';
import { parseInput } from './input';

/**
 * GraphQL `preferences` and `updatePreferences` (spec 2 §7: "preferences" among the queries, "users and preferences"
 * among the mutations): the signed-in user's user_preferences (spec 1 §3 auth user), a JSON object of settings the
 * screens keep (a table's page size, a chosen chart). The mutation merges the keys sent (PATCH: keys left out stay
 * as they are; a key sent as null is removed), in one statement so two tabs saving at once both keep their keys.
 */
export const PREFERENCES_LIMITS = { keys: 100, keyLength: 64, bytes: 16_384 } as const;
const TOO_BIG = `The preferences may not be larger than ${PREFERENCES_LIMITS.bytes / 1024} kilobytes.`;

export const PreferencesPatch = z
  .record(
    z
      .string()
      .min(1)
      .max(
        PREFERENCES_LIMITS.keyLength,
        `A preference name may not be longer than ${PREFERENCES_LIMITS.keyLength} characters.`,
      )
      .regex(/^[A-Za-z0-9_.:-]+$/, 'A preference name may hold letters, digits and _ . : - only.'),
    z.unknown(),
  )
  .refine((v) => Object.keys(v).length <= PREFERENCES_LIMITS.keys, {
    message: `At most ${PREFERENCES_LIMITS.keys} preferences may be sent at once.`,
  })
  .refine((v) => JSON.stringify(v).length <= PREFERENCES_LIMITS.bytes, { message: TOO_BIG });

/** Reads the stored object defensively (anything but an object reads as none). */
const asObject = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

async function readPreferences(db: Db, userId: number) {
  const row = await db
    .selectFrom('users')
    .select('user_preferences')
    .where('id', '=', userId)
    .executeTakeFirst();
  return asObject(row?.user_preferences);
}

/**
 * One UPDATE: (stored || set) - removed, written only when the result stays within the size limit. No row back
 * means the merged object would be too large.
 */
async function mergePreferences(
  db: Db,
  userId: number,
  set: Record<string, unknown>,
  removed: string[],
  now: Date,
) {
  const merged = sql`(coalesce(user_preferences, '{}'::jsonb) || ${JSON.stringify(set)}::jsonb) - ${removed}::text[]`;
  const row = await db
    .updateTable('users')
    .set({ user_preferences: merged, updated_at: now } as never)
    .where('id', '=', userId)
    .where(sql<boolean>`length((${merged})::text) <= ${PREFERENCES_LIMITS.bytes}`)
    .returning('user_preferences')
    .executeTakeFirst();
  return row ? asObject(row.user_preferences) : null;
}

/** The same permission the REST route asks of a user changing their own preferences (127, or 18). */
const actorFor = (ctx: Ctx) => authorize(ctx, [Perm.selfUpdate, Perm.updateUser], 'any');

builder.queryField('preferences', (t) =>
  t.field({
    type: 'JSON',
    description: "The signed-in user's preferences (user_preferences): a JSON object, {} when none are kept.",
    resolve: async (_root, _args, ctx) => readPreferences(ctx.db, actorFor(ctx).userId),
  }),
);

builder.mutationField('updatePreferences', (t) =>
  t.field({
    type: 'JSON',
    description:
      "Merges the keys sent into the signed-in user's preferences and returns them all: keys left out stay as they " +
      `are, a key sent as null is removed. At most ${PREFERENCES_LIMITS.keys} keys at once, ${PREFERENCES_LIMITS.bytes / 1024} KB in all.`,
    args: { preferences: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_root, args, ctx) => {
      const actor = actorFor(ctx);
      const patch = parseInput(PreferencesPatch, args.preferences);
      const removed = Object.keys(patch).filter((k) => patch[k] === null);
      const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== null));
      const saved = await mergePreferences(ctx.db, actor.userId, set, removed, ctx.clock());
      if (!saved) throw invalid({ preferences: [TOO_BIG] });
      return saved;
    },
  }),
);

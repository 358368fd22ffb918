import { z } from 'zod';

/**
 * Data protection (issue 35 §4; server/src/data-protection, docs/data-protection.md): a person's subject access export
 * (JSON and PDF), the leaving date, erasure of a leaver's personal details and the organisation's retention period of
 * a leaver's training record.
 */

/** Who may do it over another person: "update users" (18), the person in scope (404 outside), holding all they hold. */
export const DataProtectionPerm = { manage: 18, organisation: 2 } as const;

/** Years a leaver's training record is kept after leaving, unless the organisation sets another period. */
export const DEFAULT_RETENTION_YEARS = 6;
export const MAX_RETENTION_YEARS = 75;

export const DataProtectionMessages = {
  leavingDateSaved: 'The leaving date has been saved.',
  erased: 'Their personal details have been erased. Their training record is kept for the retention period.',
  retentionSaved: 'The retention period has been saved.',
  /** 422 on erasure of someone still working here. */
  noLeavingDate: 'Set the date this person left before erasing their personal details.',
  leavingDateFuture:
    'Their personal details can be erased once they have left: the leaving date is in the future.',
  alreadyErased: 'This person’s personal details have already been erased.',
  notYourself: 'You cannot erase your own personal details. Ask your manager.',
  confirmName: 'Type the person’s name exactly as shown to confirm.',
  erasedLocked: 'This person’s personal details have been erased; their leaving date cannot change.',
} as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be in the format YYYY-MM-DD.');

/** PUT /users/{id}/leaving-date: the day they left, or null (they have not left after all). */
export const LeavingDateBody = z.object({ left_on: day.nullable() });
export type LeavingDateBody = z.infer<typeof LeavingDateBody>;

/** POST /users/{id}/erase: the person's name as shown, typed to confirm (the web app asks for it). */
export const EraseBody = z.object({
  confirm_name: z.string().trim().min(1, DataProtectionMessages.confirmName).max(255),
});
export type EraseBody = z.infer<typeof EraseBody>;

/** PUT /entities/{id}/data-protection. */
export const RetentionBody = z.object({
  retention_years: z
    .number({ message: 'The retention period must be a whole number of years.' })
    .int('The retention period must be a whole number of years.')
    .min(1, 'The retention period must be at least 1 year.')
    .max(MAX_RETENTION_YEARS, `The retention period must be at most ${MAX_RETENTION_YEARS} years.`),
});
export type RetentionBody = z.infer<typeof RetentionBody>;

export const EntityDataProtection = z.object({ retention_years: z.number() });
export type EntityDataProtection = z.infer<typeof EntityDataProtection>;

/** GET /users/{id}/data-protection: the state the person's page shows, and what the caller may do. */
export const UserDataProtection = z.object({
  left_on: z.string().nullable(),
  erased_at: z.string().nullable(),
  retention_years: z.number(),
  /** The day the training record is removed (left_on + retention), null while no leaving date. */
  records_removed_on: z.string().nullable(),
  may_export: z.boolean(),
  may_set_leaving_date: z.boolean(),
  may_erase: z.boolean(),
});
export type UserDataProtection = z.infer<typeof UserDataProtection>;

/** The subject access export: one section per kind of record (each a list of rows as stored, secrets left out). */
export const PersonalDataExport = z.object({
  generated_at: z.string(),
  person: z.record(z.string(), z.unknown()),
  sections: z.record(z.string(), z.array(z.record(z.string(), z.unknown()))),
});
export type PersonalDataExport = z.infer<typeof PersonalDataExport>;

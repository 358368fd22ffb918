import { z } from 'zod';
import { AuthUser } from './auth';
import { EntityRef, PersonRef } from './bookings';
import { PageQuery } from './common';
import { PASSWORD_MAX_LENGTH, PasswordRequirements } from './entities';

/**
 * Sign-up links for new starters (issue 18; spec 1 §2 route /signUpOnMonday, no login).
 *
 * - A manager holding `manage` (3, add user) for a home (a level B organisation in their scope) makes a link with a
 *   job role, optionally a user type (never one whose permissions the manager does not hold), a start date, an
 *   expiry (default 14 days, at most 90), an optional limit of uses, and optionally a Care Certificate version to
 *   assign at sign-up or on approval (the manager then needs 86, assign certificates, too). The address is
 *   /signUpOnMonday?token=…; the token is shown once and stored hashed.
 * - The new starter opens it, chooses a password under the home's rules, and is signed in at once, their account
 *   **pending approval**: they can learn (their role's Mandatory and Required courses apply as for anyone), a banner
 *   says a manager will approve it, and the manager sees them under "Waiting for approval" on the Sign-up links page.
 *   Pending blocks nothing else: the account is a normal learner account from the start, so what they do counts.
 * - Approve: the sign-up is done (and the certificate assigned, when the link says "on approval"). Reject: the
 *   account is removed when it has no learning records (attempts or results), else kept for those records and
 *   deactivated (password removed, every session and token ended).
 * - An address that already has an account gets the same answer the registration form gives (202 "check your
 *   e-mail"), and its owner an e-mail saying how to sign in or reset; nothing is created.
 */
export const SignupLinkPerm = { manage: 3, assignCertificate: 86 } as const;

export const SIGNUP_LINK_DEFAULT_DAYS = 14;
export const SIGNUP_LINK_MAX_DAYS = 90;
export const SIGNUP_LINK_MAX_USES = 1000;
/** The public page's address; the token follows as ?token=. */
export const SIGNUP_LINK_PATH = '/signUpOnMonday';

export const SIGNUP_LINK_STATUSES = ['active', 'expired', 'revoked', 'used_up'] as const;
export type SignupLinkStatus = (typeof SIGNUP_LINK_STATUSES)[number];
export const SIGNUP_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SignupStatus = (typeof SIGNUP_STATUSES)[number];
export const CERTIFICATE_WHEN = ['signup', 'approval'] as const;

export const SignupLinkMessages = {
  created: 'Sign-up link created. Copy it now: it will not be shown again.',
  revoked: 'Sign-up link revoked.',
  approved: 'Sign-up approved.',
  rejectedRemoved: 'Sign-up rejected. The account was removed.',
  rejectedDeactivated:
    'Sign-up rejected. The account has training records, so it was kept but can no longer sign in.',
  signedUp: 'Welcome! Your account has been created.',
  checkEmail: 'Please check your e-mail to finish signing up.',
  // Refusals.
  invalidLink: 'This sign-up link has expired or is no longer valid. Ask your manager for a new one.',
  alreadyDecided: 'This sign-up has already been approved or rejected.',
  alreadyRevoked: 'This sign-up link has already been revoked.',
  notHome: 'Choose a home: sign-up links are made for one home at a time.',
  tooMany: 'Too many sign-ups. Please try again in :seconds seconds.',
  passwordsDiffer: 'The passwords do not match.',
  chooseWhen: 'Choose when the certificate is assigned.',
} as const;

const id = z.number().int().positive().max(2147483647);
const isoDate = z.string({ error: 'Enter a date.' }).regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date.');

export const SignupLinkParams = z.object({ id: z.coerce.number().int().positive().max(2147483647) });

/** POST /signup-links (3; 86 too with a certificate). */
export const CreateSignupLinkBody = z
  .object({
    entity_id: id.describe('The home (a level B organisation in scope).'),
    role_id: z.number({ error: 'Choose a job role.' }).int().positive().max(2147483647),
    type_id: id.nullish(),
    start_date: isoDate,
    expires_in_days: z
      .number({ error: 'Enter a number of days.' })
      .int('Enter a whole number of days.')
      .min(1, 'A link lasts at least 1 day.')
      .max(SIGNUP_LINK_MAX_DAYS, `A link lasts at most ${SIGNUP_LINK_MAX_DAYS} days.`)
      .default(SIGNUP_LINK_DEFAULT_DAYS),
    max_uses: z
      .number({ error: 'Enter a number.' })
      .int('Enter a whole number.')
      .min(1, 'Allow at least 1 sign-up, or leave it empty for no limit.')
      .max(SIGNUP_LINK_MAX_USES, `At most ${SIGNUP_LINK_MAX_USES} sign-ups.`)
      .nullish(),
    care_certificate_version_id: id.nullish(),
    care_certificate_when: z.enum(CERTIFICATE_WHEN).nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.care_certificate_version_id && !b.care_certificate_when)
      ctx.addIssue({
        code: 'custom',
        path: ['care_certificate_when'],
        message: SignupLinkMessages.chooseWhen,
      });
  });
export type CreateSignupLinkBody = z.input<typeof CreateSignupLinkBody>;

export const SignupLinkListQuery = PageQuery.extend({
  entity_id: z.coerce.number().int().positive().max(2147483647).optional(),
  /** active: links that still work; all: every link (expired, revoked and used up too). */
  show: z.enum(['active', 'all']).default('active'),
});

export const SignupLinkView = z.object({
  id: z.number(),
  uuid: z.string(),
  entity: EntityRef,
  role: z.object({ id: z.number(), name: z.string() }),
  type: z.object({ id: z.number(), name: z.string() }).nullable(),
  start_date: z.string(),
  expires_at: z.string(),
  max_uses: z.number().nullable(),
  uses: z.number(),
  /** Sign-ups through this link waiting for approval. */
  pending: z.number(),
  status: z.enum(SIGNUP_LINK_STATUSES),
  care_certificate: z
    .object({
      version: z.object({ id: z.number(), code: z.string(), title: z.string() }),
      when: z.enum(CERTIFICATE_WHEN),
    })
    .nullable(),
  created_by: PersonRef.nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type SignupLinkView = z.infer<typeof SignupLinkView>;

/** The answer to POST /signup-links: the only time the address (with its token) is shown. */
export const CreatedSignupLink = SignupLinkView.extend({ url: z.string(), token: z.string() });
export type CreatedSignupLink = z.infer<typeof CreatedSignupLink>;

export const SignupListQuery = PageQuery.extend({
  status: z.enum(SIGNUP_STATUSES).default('pending'),
  link_id: z.coerce.number().int().positive().max(2147483647).optional(),
});

export const SignupView = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(SIGNUP_STATUSES),
  /** After a rejection: whether the account was removed or kept and deactivated. */
  account: z.enum(['removed', 'deactivated']).nullable(),
  /** The account (null once removed). */
  user: z.object({ id: z.number(), uuid: z.string() }).nullable(),
  link: z.object({
    id: z.number(),
    entity: EntityRef,
    role: z.object({ id: z.number(), name: z.string() }),
    start_date: z.string(),
  }),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: PersonRef.nullable(),
});
export type SignupView = z.infer<typeof SignupView>;

// --- The public page (no login) --------------------------------------------------------------------------------

const token = z
  .string({ error: SignupLinkMessages.invalidLink })
  .min(1, SignupLinkMessages.invalidLink)
  .max(200, SignupLinkMessages.invalidLink);

/** POST /signup-links/open: what the page shows before the form. A token that does not work: 404 invalidLink. */
export const OpenSignupLinkBody = z.object({ token });
export const PublicSignupLink = z.object({
  organisation: z.object({ name: z.string(), slug: z.string() }),
  role: z.string(),
  start_date: z.string(),
  password_requirements: PasswordRequirements,
});
export type PublicSignupLink = z.infer<typeof PublicSignupLink>;

/** POST /signup-links/sign-up. */
export const SignUpBody = z
  .object({
    token,
    name: z.string().trim().min(1, 'Enter your full name.').max(120, 'Your name is too long.'),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(254, 'The e-mail address is too long.')
      .email('Enter a valid e-mail address.'),
    password: z.string().min(1, 'Choose a password.').max(PASSWORD_MAX_LENGTH, 'The password is too long.'),
    password_confirmation: z.string(),
  })
  .superRefine((b, ctx) => {
    if (b.password !== b.password_confirmation)
      ctx.addIssue({
        code: 'custom',
        path: ['password_confirmation'],
        message: SignupLinkMessages.passwordsDiffer,
      });
  });
export type SignUpBody = z.input<typeof SignUpBody>;
/**
 * POST /signup-links/sign-up answers 202 with checkEmail whether or not the address has an account (issue 29 §5); a
 * new address is mailed a link to the sign-up page with ?confirm=<token>, which sends it here.
 */
export const ConfirmSignupBody = z.object({ token });
export const SIGNUP_CONFIRM_PARAM = 'confirm';
/** POST /signup-links/confirm, 201: signed in (session cookie set), the learner's auth user. */
export const SignedUp = z.object({ user: AuthUser, pending: z.literal(true) });

/** GET /signup-links/mine: the caller's own sign-up, for the dashboard banner (null when not signed up by link). */
export const MySignup = z
  .object({ status: z.enum(SIGNUP_STATUSES), organisation: z.string(), start_date: z.string() })
  .nullable();
export type MySignup = z.infer<typeof MySignup>;

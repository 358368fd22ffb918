import { z } from 'zod';

export const LoginBody = z.object({
  email: z.string().trim().toLowerCase().email('The email must be a valid email address.'),
  password: z.string().min(1, 'The password field is required.').max(200),
  remember: z.boolean().optional(),
});
export const MobileLoginBody = LoginBody.extend({
  device_name: z.string().trim().min(1, 'The device name field is required.').max(255),
  /** The device_token an earlier login of this app answered: a known device is not held back by the throttle. */
  device_token: z.string().max(100).optional(),
});

const password = z.string().min(1, 'The password field is required.').max(200);
const confirmed = <T extends z.ZodObject<{ password: z.ZodString; password_confirmation: z.ZodString }>>(
  s: T,
) =>
  s.refine((v) => v.password === v.password_confirmation, {
    message: 'The password confirmation does not match.',
    path: ['password_confirmation'],
  });

export const RegisterBody = confirmed(
  z.object({
    name: z.string().trim().min(1, 'The name field is required.').max(255),
    email: z.string().trim().toLowerCase().email('The email must be a valid email address.'),
    organisation: z.string().trim().min(1, 'The organisation field is required.').max(255),
    password,
    password_confirmation: z.string(),
  }),
);
export const RegisterParams = z.object({ plan: z.enum(['free', 'standard', 'enterprise']) });

export const ForgotPasswordBody = z.object({
  email: z.string().trim().toLowerCase().email('The email must be a valid email address.'),
});
export const ResetPasswordBody = confirmed(
  z.object({
    token: z.string().min(1, 'The token field is required.').max(200),
    email: z.string().trim().toLowerCase().email('The email must be a valid email address.'),
    password,
    password_confirmation: z.string(),
  }),
);
export const UpdatePasswordBody = confirmed(
  z.object({
    current_password: z.string().min(1, 'The current password field is required.').max(200),
    password,
    password_confirmation: z.string(),
  }),
);
export const VerifyEmailBody = z.object({
  token: z.string().min(1, 'The token field is required.').max(200),
});
/** POST /auth/unlock-sign-in (issue 29 §8): the one-time link mailed while failed sign-ins hold the account back. */
export const UnlockSignInBody = z.object({
  token: z.string().min(1, 'The token field is required.').max(200),
});
/**
 * /auth/{uuid}/verification-send (spec 1 §7's path): POST sends a new verify link; GET only reads whether the address
 * is verified and how long until a link may be sent again (issue 29 §13: a GET must not send mail).
 */
export const VerificationSendParams = z.object({ uuid: z.uuid('The user id must be a valid uuid.') });
export const VerificationStatus = z.object({
  email_verified: z.boolean(),
  /** Seconds until another link may be sent (0: now; always 0 once verified). */
  send_in_seconds: z.number().int().min(0),
});
export type VerificationStatus = z.infer<typeof VerificationStatus>;

/**
 * Issue 29 §6: listing or ending one's sessions and devices needs the password given on this session or device
 * within this many minutes (at sign-in, or POST /auth/confirm-password); otherwise the answer is 423.
 */
export const PASSWORD_CONFIRM_MINUTES = 15;
export const ConfirmPasswordBody = z.object({
  password: z.string().min(1, 'The password field is required.').max(200),
});

export const UpdateEmailBody = z.object({
  email: z.string().trim().toLowerCase().email('The email must be a valid email address.'),
  password: z.string().min(1, 'The password field is required.').max(200),
});

export const PermissionCheckBody = z.object({
  permission_ids: z
    .array(z.coerce.number().int().positive())
    .min(1, 'Give at least one permission id.')
    .max(200),
  mode: z.enum(['all', 'any']).default('all'),
});

export const AEntityFlags = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  can_view_internal_bookings: z.boolean(),
  can_view_external_bookings: z.boolean(),
  can_manage_bookings: z.boolean(),
  can_see_new_dashboards: z.boolean(),
});

/** Auth user of spec 1 §3. */
export const AuthUser = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  super_admin: z.boolean(),
  is_trainer: z.boolean(),
  primary_entity: z.object({ id: z.number(), slug: z.string(), name: z.string(), level: z.enum(['A', 'B']) }),
  a_entity: AEntityFlags,
  user_preferences: z.record(z.string(), z.unknown()),
  role: z.object({ id: z.number(), name: z.string() }).nullable(),
  type: z.object({ id: z.number(), name: z.string() }).nullable(),
  permissions: z.array(z.object({ id: z.number(), slug: z.string() })),
  password_change_required: z.boolean(),
});
export type AuthUser = z.infer<typeof AuthUser>;

export const VersionResponse = z.object({ major: z.number(), minor: z.number(), patch: z.number() });

/**
 * One of the caller's sign-ins (issue 11 §10, GET /api/auth/sessions): a browser session or a device token from the
 * mobile login. `id` ends it with POST /api/auth/logout/{id}; `current` is the one making the call.
 */
export const OwnSession = z.object({
  id: z.string(),
  kind: z.enum(['session', 'token']),
  /** The browser's user agent, or the device name given at mobile login. */
  name: z.string(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_active_at: z.string().nullable(),
  /** When it ends at the latest (an unused browser session ends sooner, at its idle lifetime). */
  expires_at: z.string().nullable(),
  current: z.boolean(),
});
export type OwnSession = z.infer<typeof OwnSession>;

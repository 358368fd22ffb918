import { z } from 'zod';
import { DATE_FORMATS } from './dates';

const colour = z
  .string()
  .trim()
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'The colour must be a hex colour such as #04b5e3.');
const label = z.string().trim().min(1).max(60);
const margin = z.coerce.number().int().min(0).max(100);

/** The white-label settings form (spec 2 §3); multipart fields arrive as strings. */
export const WhitelabelBody = z
  .object({
    primaryColour: colour,
    secondaryColour: colour,
    accentPrimaryColour: colour,
    accentSecondaryColour: colour,
    successPrimaryColour: colour,
    successSecondaryColour: colour,
    warningPrimaryColour: colour,
    warningSecondaryColour: colour,
    dangerPrimaryColour: colour,
    dangerSecondaryColour: colour,
    trafficLightOk: colour,
    trafficLightWarning: colour,
    trafficLightDanger: colour,
    entityAltName: label,
    entitiesAltName: label,
    companyName: z.string().trim().max(120),
    certificateGroupMenuName: label,
    logoRedirectUrl: z
      .string()
      .trim()
      .url('The logo redirect URL must be a valid URL.')
      .max(500)
      .or(z.literal('')),
    primaryComplianceAltName: label,
    secondaryComplianceAltName: label,
    greenScoreBandLowerMargin: margin,
    amberScoreBandLowerMargin: margin,
    faviconUrl: z.string().trim().url().max(500).or(z.literal('')),
    /** Ours (issue 13): how dates read on pages, PDFs and XLSX; '' follows the parent organisation again. */
    dateFormat: z
      .enum(DATE_FORMATS, { message: 'The date format must be DD/MM/YYYY, MM/DD/YYYY or YYYY-MM-DD.' })
      .or(z.literal('')),
    removeLogo: z.enum(['0', '1']),
    removeLoginLogo: z.enum(['0', '1']),
    removeFavicon: z.enum(['0', '1']),
    _method: z.string(),
  })
  .partial()
  .refine(
    (v) =>
      v.greenScoreBandLowerMargin === undefined ||
      v.amberScoreBandLowerMargin === undefined ||
      v.amberScoreBandLowerMargin < v.greenScoreBandLowerMargin,
    { message: 'The amber margin must be below the green margin.', path: ['amberScoreBandLowerMargin'] },
  );
export type WhitelabelBody = z.infer<typeof WhitelabelBody>;

/** What GET /whitelabel returns: the names the client reads (spec 2 §3). */
export const Whitelabel = z.object({
  entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }).nullable(),
  logo: z.string().nullable(),
  loginLogo: z.string().nullable(),
  favicon: z.string().nullable(),
  primary: z.string(),
  secondary: z.string(),
  accent: z.string(),
  danger: z.string(),
  warning: z.string(),
  success: z.string(),
  entityAltName: z.string(),
  entitiesAltName: z.string(),
  companyName: z.string(),
  certificateGroupMenuName: z.string(),
  logoRedirectUrl: z.string().nullable(),
  primaryComplianceAltName: z.string(),
  secondaryComplianceAltName: z.string(),
  greenScoreBandLowerMargin: z.number(),
  amberScoreBandLowerMargin: z.number(),
  trafficLightOk: z.string(),
  trafficLightWarning: z.string(),
  trafficLightDanger: z.string(),
  /** The settings form's secondary shades (spec 2 §3 accentSecondaryColour etc.); null when never set. */
  accentSecondary: z.string().nullable(),
  successSecondary: z.string().nullable(),
  warningSecondary: z.string().nullable(),
  dangerSecondary: z.string().nullable(),
  /** Ours (issue 13): the organisation's date format (its own, else its level A parent's, else DD/MM/YYYY). */
  dateFormat: z.enum(DATE_FORMATS),
});
export type Whitelabel = z.infer<typeof Whitelabel>;
export const WhitelabelQuery = z.object({
  subdomain: z.string().max(63).optional(),
  slug: z.string().max(120).optional(),
});
export const ALLOWED_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
] as const;
/** Upload fields of POST /entities/{slug}/whitelabel. */
export const WHITELABEL_FILE_FIELDS = ['logo', 'loginLogo', 'favicon'] as const;
export type WhitelabelFileField = (typeof WHITELABEL_FILE_FIELDS)[number];
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

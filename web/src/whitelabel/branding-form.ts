import { type Whitelabel, WhitelabelBody, type WhitelabelFileField } from '@cc/contracts';
import { parseHex, themeVariables } from '../app/theme';
import { type FieldErrors, zodFieldErrors } from '../entities/shared';

/**
 * The white-label settings form of spec 2 §3 (primaryColour … dangerSecondaryColour, labels, score band
 * margins, traffic lights) and its mapping to the multipart fields of POST /entities/{slug}/whitelabel
 * (`_method=PATCH`, spec 2 §7), plus the live preview's theme variables.
 */
export const COLOUR_FIELDS = [
  'primaryColour',
  'secondaryColour',
  'accentPrimaryColour',
  'accentSecondaryColour',
  'successPrimaryColour',
  'successSecondaryColour',
  'warningPrimaryColour',
  'warningSecondaryColour',
  'dangerPrimaryColour',
  'dangerSecondaryColour',
] as const;
export const TRAFFIC_FIELDS = ['trafficLightOk', 'trafficLightWarning', 'trafficLightDanger'] as const;
export const LABEL_FIELDS = [
  'companyName',
  'entityAltName',
  'entitiesAltName',
  'certificateGroupMenuName',
  'primaryComplianceAltName',
  'secondaryComplianceAltName',
] as const;

type ColourField = (typeof COLOUR_FIELDS)[number] | (typeof TRAFFIC_FIELDS)[number];
type LabelField = (typeof LABEL_FIELDS)[number];

export type BrandingText = Record<ColourField | LabelField, string> & {
  logoRedirectUrl: string;
  /** DD/MM/YYYY, MM/DD/YYYY or YYYY-MM-DD (issue 13): how dates read on pages, PDFs and XLSX. */
  dateFormat: string;
  greenScoreBandLowerMargin: string;
  amberScoreBandLowerMargin: string;
};

export interface BrandingForm extends BrandingText {
  /** A newly chosen image, or null. */
  files: Record<WhitelabelFileField, File | null>;
  /** Remove the stored image (ignored when a new file is chosen). */
  remove: Record<WhitelabelFileField, boolean>;
}

export function whitelabelToForm(wl: Whitelabel): BrandingForm {
  return {
    primaryColour: wl.primary,
    secondaryColour: wl.secondary,
    accentPrimaryColour: wl.accent,
    accentSecondaryColour: wl.accentSecondary ?? wl.accent,
    successPrimaryColour: wl.success,
    successSecondaryColour: wl.successSecondary ?? wl.success,
    warningPrimaryColour: wl.warning,
    warningSecondaryColour: wl.warningSecondary ?? wl.warning,
    dangerPrimaryColour: wl.danger,
    dangerSecondaryColour: wl.dangerSecondary ?? wl.danger,
    trafficLightOk: wl.trafficLightOk,
    trafficLightWarning: wl.trafficLightWarning,
    trafficLightDanger: wl.trafficLightDanger,
    companyName: wl.companyName ?? '',
    entityAltName: wl.entityAltName,
    entitiesAltName: wl.entitiesAltName,
    certificateGroupMenuName: wl.certificateGroupMenuName,
    primaryComplianceAltName: wl.primaryComplianceAltName,
    secondaryComplianceAltName: wl.secondaryComplianceAltName,
    logoRedirectUrl: wl.logoRedirectUrl ?? '',
    dateFormat: wl.dateFormat,
    greenScoreBandLowerMargin: String(wl.greenScoreBandLowerMargin),
    amberScoreBandLowerMargin: String(wl.amberScoreBandLowerMargin),
    files: { logo: null, loginLogo: null, favicon: null },
    remove: { logo: false, loginLogo: false, favicon: false },
  };
}

const TEXT_KEYS = [
  ...COLOUR_FIELDS,
  ...TRAFFIC_FIELDS,
  ...LABEL_FIELDS,
  'logoRedirectUrl',
  'dateFormat',
  'greenScoreBandLowerMargin',
  'amberScoreBandLowerMargin',
] as const;

const REMOVE_FIELD: Record<WhitelabelFileField, 'removeLogo' | 'removeLoginLogo' | 'removeFavicon'> = {
  logo: 'removeLogo',
  loginLogo: 'removeLoginLogo',
  favicon: 'removeFavicon',
};

/** Client-side check of every text field with the contract's schema (both margins together). */
export function validateBranding(form: BrandingForm): FieldErrors {
  const raw = Object.fromEntries(TEXT_KEYS.map((k) => [k, form[k].trim()]));
  const parsed = WhitelabelBody.safeParse(raw);
  return parsed.success ? {} : zodFieldErrors(parsed.error);
}

/**
 * The multipart fields: `_method=PATCH`, the text fields that differ from what was loaded (so a colour never
 * set, e.g. a secondary shade, is not stored just because the form showed its fallback), each new file, and
 * remove flags for stored images the user removed.
 */
export function brandingFields(form: BrandingForm, original: BrandingForm): Record<string, string | File> {
  const out: Record<string, string | File> = { _method: 'PATCH' };
  for (const key of TEXT_KEYS) {
    const value = form[key].trim();
    if (value !== original[key].trim()) out[key] = value;
  }
  for (const field of Object.keys(REMOVE_FIELD) as WhitelabelFileField[]) {
    const file = form.files[field];
    if (file) out[field] = file;
    else if (form.remove[field]) out[REMOVE_FIELD[field]] = '1';
  }
  return out;
}

export function toFormData(fields: Record<string, string | File>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

export function isHex(value: string): boolean {
  try {
    parseHex(value);
    return /^#/.test(value.trim());
  } catch {
    return false;
  }
}

/** The theme variables of the edited colours (invalid ones fall back to the defaults), for the live preview. */
export function previewVariables(form: BrandingText): Record<string, string> {
  return themeVariables({
    primary: form.primaryColour,
    secondary: form.secondaryColour,
    accent: form.accentPrimaryColour,
    success: form.successPrimaryColour,
    warning: form.warningPrimaryColour,
    danger: form.dangerPrimaryColour,
  });
}

export type ScoreBand = 'green' | 'amber' | 'red';

/** Score bands (spec 2 §9): green from the green margin, amber from the amber margin, red below. */
export function scoreBand(score: number, greenLower: number, amberLower: number): ScoreBand {
  if (score >= greenLower) return 'green';
  if (score >= amberLower) return 'amber';
  return 'red';
}

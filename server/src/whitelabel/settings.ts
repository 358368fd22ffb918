import {
  type DateFormat,
  DEFAULT_DATE_FORMAT,
  DEFAULT_WHITELABEL,
  PRODUCT_NAME,
  type Whitelabel,
  type WhitelabelBody,
  type WhitelabelFileField,
} from '@cc/contracts';

/**
 * The stored form of a white-label (entities.whitelabel jsonb): the names the client reads (spec 2 §3 "White-label"),
 * plus the secondary shades, the favicon URL and the uploaded files as `files.uuid` values. Every key is optional:
 * what an entity does not set comes from its level A parent, then from the defaults (spec 2 §9).
 */
export type StoredWhitelabel = Partial<{
  primary: string;
  secondary: string;
  accent: string;
  accentSecondary: string;
  success: string;
  successSecondary: string;
  warning: string;
  warningSecondary: string;
  danger: string;
  dangerSecondary: string;
  trafficLightOk: string;
  trafficLightWarning: string;
  trafficLightDanger: string;
  entityAltName: string;
  entitiesAltName: string;
  companyName: string;
  certificateGroupMenuName: string;
  logoRedirectUrl: string;
  primaryComplianceAltName: string;
  secondaryComplianceAltName: string;
  greenScoreBandLowerMargin: number;
  amberScoreBandLowerMargin: number;
  faviconUrl: string;
  logo: string;
  loginLogo: string;
  favicon: string;
  /** Not in the jsonb: entities.date_format (migration 022), layered in by service.ts like the rest. */
  dateFormat: DateFormat;
}>;
type StoredKey = keyof StoredWhitelabel;

/** Settings-form names (spec 2 §3 "The settings form uses primaryColour, ...") to stored names. */
export const FORM_TO_STORED = {
  primaryColour: 'primary',
  secondaryColour: 'secondary',
  accentPrimaryColour: 'accent',
  accentSecondaryColour: 'accentSecondary',
  successPrimaryColour: 'success',
  successSecondaryColour: 'successSecondary',
  warningPrimaryColour: 'warning',
  warningSecondaryColour: 'warningSecondary',
  dangerPrimaryColour: 'danger',
  dangerSecondaryColour: 'dangerSecondary',
  trafficLightOk: 'trafficLightOk',
  trafficLightWarning: 'trafficLightWarning',
  trafficLightDanger: 'trafficLightDanger',
  entityAltName: 'entityAltName',
  entitiesAltName: 'entitiesAltName',
  companyName: 'companyName',
  certificateGroupMenuName: 'certificateGroupMenuName',
  logoRedirectUrl: 'logoRedirectUrl',
  primaryComplianceAltName: 'primaryComplianceAltName',
  secondaryComplianceAltName: 'secondaryComplianceAltName',
  greenScoreBandLowerMargin: 'greenScoreBandLowerMargin',
  amberScoreBandLowerMargin: 'amberScoreBandLowerMargin',
  faviconUrl: 'faviconUrl',
} as const satisfies Partial<Record<keyof WhitelabelBody, StoredKey>>;

const NUMBER_KEYS = new Set<StoredKey>(['greenScoreBandLowerMargin', 'amberScoreBandLowerMargin']);
const FILE_KEYS = new Set<StoredKey>(['logo', 'loginLogo', 'favicon']);
const STRING_KEYS = new Set<StoredKey>([
  ...Object.values(FORM_TO_STORED).filter((k) => !NUMBER_KEYS.has(k)),
  ...FILE_KEYS,
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** File field to `files.purpose`. */
export const FILE_PURPOSE: Record<WhitelabelFileField, 'logo' | 'login_logo' | 'favicon'> = {
  logo: 'logo',
  loginLogo: 'login_logo',
  favicon: 'favicon',
};
export const REMOVE_FLAG: Record<WhitelabelFileField, 'removeLogo' | 'removeLoginLogo' | 'removeFavicon'> = {
  logo: 'removeLogo',
  loginLogo: 'removeLoginLogo',
  favicon: 'removeFavicon',
};

/** Reads stored JSON defensively: unknown keys and values of the wrong type are dropped, never passed on. */
export function readStored(raw: unknown): StoredWhitelabel {
  const out: Record<string, unknown> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const k = key as StoredKey;
    if (NUMBER_KEYS.has(k) && typeof value === 'number' && Number.isFinite(value)) out[k] = value;
    else if (FILE_KEYS.has(k) && typeof value === 'string' && UUID.test(value)) out[k] = value;
    else if (STRING_KEYS.has(k) && !FILE_KEYS.has(k) && typeof value === 'string' && value !== '')
      out[k] = value;
  }
  return out as StoredWhitelabel;
}

/** Applies the validated form to the stored settings. An empty optional text ('' for a URL) removes the setting. */
export function applyForm(stored: StoredWhitelabel, form: WhitelabelBody): StoredWhitelabel {
  const next: Record<string, unknown> = { ...stored };
  for (const [formName, key] of Object.entries(FORM_TO_STORED)) {
    const value = form[formName as keyof WhitelabelBody];
    if (value === undefined) continue;
    if (value === '') delete next[key];
    else next[key] = value;
  }
  return next as StoredWhitelabel;
}

export const fileUrl = (uuid: string) => `/api/files/${uuid}`;

/**
 * Defaults, then the level A parent's settings, then the entity's own (a level B entity inherits what it does
 * not set). Files become URLs of the public file route.
 */
export function resolveWhitelabel(
  entity: { id: number; slug: string; name: string } | null,
  layers: StoredWhitelabel[],
): Whitelabel {
  const s: StoredWhitelabel = Object.assign({}, ...layers);
  return {
    entity: entity ? { id: entity.id, slug: entity.slug, name: entity.name } : null,
    logo: s.logo ? fileUrl(s.logo) : null,
    loginLogo: s.loginLogo ? fileUrl(s.loginLogo) : null,
    favicon: s.favicon ? fileUrl(s.favicon) : (s.faviconUrl ?? null),
    primary: s.primary ?? DEFAULT_WHITELABEL.primary,
    secondary: s.secondary ?? DEFAULT_WHITELABEL.secondary,
    accent: s.accent ?? DEFAULT_WHITELABEL.accent,
    danger: s.danger ?? DEFAULT_WHITELABEL.danger,
    warning: s.warning ?? DEFAULT_WHITELABEL.warning,
    success: s.success ?? DEFAULT_WHITELABEL.success,
    entityAltName: s.entityAltName ?? DEFAULT_WHITELABEL.entityAltName,
    entitiesAltName: s.entitiesAltName ?? DEFAULT_WHITELABEL.entitiesAltName,
    // Ours: the spec gives no default company name; the product name reads right on the login page.
    companyName: s.companyName ?? PRODUCT_NAME,
    certificateGroupMenuName: s.certificateGroupMenuName ?? DEFAULT_WHITELABEL.certificateGroupMenuName,
    logoRedirectUrl: s.logoRedirectUrl ?? null,
    primaryComplianceAltName: s.primaryComplianceAltName ?? DEFAULT_WHITELABEL.primaryComplianceAltName,
    secondaryComplianceAltName: s.secondaryComplianceAltName ?? DEFAULT_WHITELABEL.secondaryComplianceAltName,
    greenScoreBandLowerMargin: s.greenScoreBandLowerMargin ?? DEFAULT_WHITELABEL.greenScoreBandLowerMargin,
    amberScoreBandLowerMargin: s.amberScoreBandLowerMargin ?? DEFAULT_WHITELABEL.amberScoreBandLowerMargin,
    trafficLightOk: s.trafficLightOk ?? DEFAULT_WHITELABEL.trafficLightOk,
    trafficLightWarning: s.trafficLightWarning ?? DEFAULT_WHITELABEL.trafficLightWarning,
    trafficLightDanger: s.trafficLightDanger ?? DEFAULT_WHITELABEL.trafficLightDanger,
    accentSecondary: s.accentSecondary ?? null,
    successSecondary: s.successSecondary ?? null,
    warningSecondary: s.warningSecondary ?? null,
    dangerSecondary: s.dangerSecondary ?? null,
    dateFormat: s.dateFormat ?? DEFAULT_DATE_FORMAT,
  };
}

/**
 * The sub-domain named by a Host header: the first label of a name with at least three labels
 * (meadowbrook.example.com) or of a *.localhost name (meadowbrook.localhost). An IP address or a bare domain
 * names none. Ours: the spec says only "GET /whitelabel by subdomain or slug".
 */
export function subdomainFromHost(host: string | undefined): string | null {
  if (!host) return null;
  const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!name || /^[\d.]+$/.test(name) || name.startsWith('[')) return null;
  const labels = name.split('.');
  const first = labels[0] ?? '';
  if (labels.length >= 3 || (labels.length === 2 && labels[1] === 'localhost')) {
    return /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(first) && first !== 'www' ? first : null;
  }
  return null;
}

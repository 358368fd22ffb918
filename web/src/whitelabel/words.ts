import type { Whitelabel } from '@cc/contracts';

/**
 * The product's words for what the data model calls "level A/B" (spec 1: an entity of level A is a group at the top;
 * level B is one of its places, such as a care home). Users read these, never "Level A", "entity" or "slug".
 */
type Words = Pick<Whitelabel, 'entityAltName' | 'entitiesAltName'>;

/** True when the organisation chose its own name (the spec's default is "Entity", which users should not read). */
const named = (wl: Words) => wl.entityAltName.trim().toLowerCase() !== 'entity';

/** One place within a group: the white-label name ("Home") or "Site". */
export function siteWord(wl: Words): string {
  return named(wl) ? wl.entityAltName : 'Site';
}
/** Several places: "Homes" or "Sites". */
export function sitesWord(wl: Words): string {
  return named(wl) ? wl.entitiesAltName : 'Sites';
}

/** "Group" for level A, the site word for level B. */
export function levelLabel(level: 'A' | 'B', wl: Words): string {
  return level === 'A' ? 'Group' : siteWord(wl);
}

/** The longer form for choosing a level: what each one means. */
export function levelChoice(level: 'A' | 'B', wl: Words): string {
  return level === 'A'
    ? 'Group (the top level: it holds its own sites)'
    : `${siteWord(wl)} (one place within a group)`;
}

/** The label for the address part of an organisation (its slug). */
export const WEB_ADDRESS_LABEL = 'Web address';
/** The label for an organisation's own sign-in address prefix (its sub-domain). */
export const SIGN_IN_ADDRESS_LABEL = 'Sign-in address';

/** What the web shows for the API's permission failure (spec 2 §8 keeps "This action is unauthorized." in the API). */
export const PERMISSION_DENIED_TEXT = "You don't have permission to do this. Ask your administrator.";
const API_FORBIDDEN = 'This action is unauthorized.';

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A server message as users should read it: the permission failure in plain words, "entity"/"entities" in the
 * organisation's own words (the white-label alt names: "Entity has been created." → "Home has been created."), and
 * "slug" as "web address". The spec's texts keep their meaning; only the words change, at display time.
 */
export function userWords(text: string, wl: Words): string {
  if (text.trim() === API_FORBIDDEN) return PERMISSION_DENIED_TEXT;
  const one = wl.entityAltName.trim() || 'Entity';
  const many = wl.entitiesAltName.trim() || 'Entities';
  return text
    .replace(/\bEntities\b/g, capital(many))
    .replace(/\bentities\b/g, many.toLowerCase())
    .replace(/\bEntity\b/g, capital(one))
    .replace(/\bentity\b/g, one.toLowerCase())
    .replace(/\bSlug\b/g, 'Web address')
    .replace(/\bslug\b/g, 'web address');
}

/** The same for a 422's field errors. */
export function userFieldWords(
  errors: Record<string, string[]> | undefined,
  wl: Words,
): Record<string, string[]> | undefined {
  if (!errors) return errors;
  return Object.fromEntries(
    Object.entries(errors).map(([k, v]) => [
      k,
      (Array.isArray(v) ? v : [String(v)]).map((m) => userWords(m, wl)),
    ]),
  );
}

/** One organisation in the organisation's own word ("Home"), or "Organisation" while the spec's default "Entity" is set. */
export function organisationWord(wl: Words): string {
  return named(wl) ? wl.entityAltName : 'Organisation';
}
/** The label of a person's own (primary) organisation: "Main home", or "Main organisation" for the default. */
export function mainOrganisationLabel(wl: Words): string {
  return `Main ${organisationWord(wl).toLowerCase()}`;
}

/** Several: "Homes", or "Organisations" for the default. */
export function organisationsWord(wl: Words): string {
  return named(wl) ? wl.entitiesAltName : 'Organisations';
}

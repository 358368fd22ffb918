/**
 * A summary and a tag for an operation nobody wrote one for, from its method and path: "GET /api/pathways" reads
 * "List pathways", "POST /api/delegates/{id}/approve" reads "Approve a delegate". Hand-written summaries
 * (examples.ts) win; these keep a route added tomorrow from appearing nameless in Swagger UI.
 */

const words = (segment: string) => segment.replace(/\.[a-z]+$/, '').replace(/[-_]+/g, ' ');

export function singular(noun: string): string {
  if (/ies$/.test(noun)) return noun.replace(/ies$/, 'y');
  if (/zzes$/.test(noun)) return noun.replace(/zes$/, '');
  if (/(ss|us|is)$/.test(noun)) return noun;
  if (/(ches|shes|sses|xes)$/.test(noun)) return noun.replace(/es$/, '');
  if (/s$/.test(noun)) return noun.slice(0, -1);
  return noun;
}

const isPlural = (noun: string) => /s$/.test(noun) && !/(ss|us|is)$/.test(noun);
// "a user", "a unit", "an update": a u that sounds like "you" takes "a".
const article = (noun: string) =>
  /^[aeiou]/i.test(noun) && !/^(us|uni|eu)/i.test(noun) ? `an ${noun}` : `a ${noun}`;
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const isParam = (segment: string) => segment.startsWith('{');
/** Action segments ("approve", "sign-off") read as a verb on the record; anything else is a thing "for" it. */
const VERBS =
  /^(accept|acknowledge|allocate|apply|approve|book|cancel|check|claim|complete|decline|incomplete|message|preview|publish|reject|resend|resolve|restore|retake|revoke|rotate|run|send|sign|submit|suppress|test|undo|withdraw)\b/;

/** "/api/users/{id}/permissions" → ["users", "{id}", "permissions"] (the /api prefix is no part of the name). */
export function segmentsOf(path: string): string[] {
  return path
    .replace(/^\/api(?=\/|$)/, '')
    .split('/')
    .filter(Boolean);
}

/** The tag of a route that declares none: the capability's first path segment, in words. */
export function tagFromPath(path: string): string {
  const first = segmentsOf(path).find((s) => !isParam(s));
  return first ? words(first) : 'api';
}

export function summaryFor(method: string, path: string): string {
  const segs = segmentsOf(path);
  const last = segs.at(-1);
  if (!last) return `${capital(method.toLowerCase())} the API root`;
  const m = method.toUpperCase();
  if (isParam(last)) {
    const owner = segs.at(-2);
    const noun = owner && !isParam(owner) ? singular(words(owner)) : 'record';
    if (m === 'GET') return `Get one ${noun}`;
    if (m === 'PATCH' || m === 'PUT') return `Update ${article(noun)}`;
    if (m === 'DELETE') return `Delete ${article(noun)}`;
    return capital(`${words(owner ?? noun)} by ${last.slice(1, -1)}`);
  }
  const resource = words(last);
  const before = segs.at(-2);
  if (before && isParam(before)) {
    const ownerSeg = segs.at(-3);
    const owner = ownerSeg && !isParam(ownerSeg) ? singular(words(ownerSeg)) : 'record';
    if (m === 'GET') return capital(`${resource} of ${article(owner)}`);
    if (m === 'PATCH' || m === 'PUT') return `Update the ${resource} of ${article(owner)}`;
    if (m === 'DELETE') return `Remove the ${resource} of ${article(owner)}`;
    if (isPlural(resource)) return `Add ${resource} to ${article(owner)}`;
    if (/^send\b/.test(resource)) return capital(`${resource} to ${article(owner)}`);
    return capital(
      VERBS.test(resource) ? `${resource} ${article(owner)}` : `${resource} for ${article(owner)}`,
    );
  }
  if (m === 'GET') return isPlural(resource) ? `List ${resource}` : capital(`${segs.map(words).join(': ')}`);
  if (m === 'POST' && isPlural(resource) && segs.length === 1) return `Create ${article(singular(resource))}`;
  if (m === 'PATCH' || m === 'PUT')
    return `Update ${segs
      .filter((s) => !isParam(s))
      .map(words)
      .join(' ')}`;
  if (m === 'DELETE')
    return `Delete ${segs
      .filter((s) => !isParam(s))
      .map(words)
      .join(' ')}`;
  return capital(
    segs
      .filter((s) => !isParam(s))
      .map(words)
      .join(': '),
  );
}

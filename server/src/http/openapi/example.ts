/**
 * A deterministic example for a JSON Schema (OpenAPI 3.0 flavour, as fastify-type-provider-zod writes it): the same
 * schema always gives the same value, so the served document never changes between starts and a test can check the
 * value against its schema. Field names pick care-sector values ("Moving and handling", a care home, a made-up
 * learner) where the schema leaves the choice open; every candidate is checked against the schema's own limits
 * before it is used. Invented names and example.org addresses only: never anyone's real data.
 */

export type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  [key: string]: unknown;
};

/** Words for a `name` field by the operation's tag: a course is not named like a care home. */
const NAME_BY_TAG: Record<string, string> = {
  users: 'Amara Okafor',
  auth: 'Amara Okafor',
  entities: 'Rosewood Care Home',
  roles: 'Care assistant',
  types: 'Staff',
  tags: 'Night team',
  pathways: 'Care assistant induction',
  documents: 'Safeguarding adults policy',
  bookings: 'Moving and handling (practical)',
  messaging: 'Rota changes',
  help: 'How do I add a historical result?',
  reports: 'Monthly compliance',
  'personal access tokens': 'Payroll sync',
  tokens: 'Payroll sync',
  webhooks: 'HR system',
};

const DATE = '2026-03-02';
const DATE_TIME = '2026-03-02T09:30:00.000Z';
const UUID = '3f2c9a1e-7b4d-4c8e-9a21-5d6e7f809a1b';
const EMAIL = 'amara.okafor@example.org';

/** A value suggested by the field's name, before the generic candidates. */
function hintFor(key: string, tag: string): string[] {
  const k = key.toLowerCase();
  if (k.includes('email')) return [EMAIL];
  if (k === 'first_name' || k === 'firstname') return ['Amara'];
  if (k === 'last_name' || k === 'lastname' || k === 'surname') return ['Okafor'];
  if (k === 'name') return [NAME_BY_TAG[tag] ?? 'Moving and handling'];
  if (k === 'title' || k.endsWith('_title') || k === 'course' || k === 'course_name')
    return ['Moving and handling'];
  if (k.endsWith('entity_name') || k === 'entity' || k === 'home') return ['Rosewood Care Home'];
  if (k === 'role' || k === 'role_name') return ['Care assistant'];
  if (k === 'slug' || k.endsWith('_slug') || k === 'actingas') return ['rosewood-care-home'];
  if (k === 'uuid' || k.endsWith('_uuid')) return [UUID];
  if (k.includes('password')) return ['Correct-Horse-Battery-9'];
  if (k === 'search' || k === 'q') return ['moving'];
  if (k.includes('phone') || k.includes('mobile')) return ['01632 960123'];
  if (k.includes('postcode')) return ['AB1 2CD'];
  if (k.includes('colour') || k.includes('color')) return ['#1f6feb'];
  if (k.includes('url') || k.includes('link') || k === 'href' || k === 'website')
    return ['https://example.org/hooks/care'];
  if (k.endsWith('_at') || k.endsWith('_on')) return [DATE_TIME, DATE];
  if (k.includes('date') || k === 'from' || k === 'to' || k === 'since' || k === 'until')
    return [DATE, DATE_TIME];
  if (k.includes('time')) return ['09:30', DATE_TIME];
  if (k === 'message' || k === 'body' || k === 'content')
    return ['Please complete your Moving and handling refresher by Friday.'];
  if (
    k.includes('note') ||
    k.includes('description') ||
    k.includes('comment') ||
    k === 'reason' ||
    k === 'summary'
  )
    return ['Refresher booked for the night team.'];
  if (k.includes('token')) return ['cct_3kP9wQ2rT7yU1iO5pA8sD4fG'];
  if (k.includes('filename') || k === 'file') return ['certificate.pdf'];
  if (k === 'ids' || k.endsWith('_ids')) return ['12,14'];
  return [];
}

const GENERIC_STRINGS = [
  'example',
  DATE,
  DATE_TIME,
  '09:30',
  UUID,
  EMAIL,
  'rosewood-care-home',
  '12,14',
  '12',
  '#1f6feb',
  'https://example.org',
  'A',
];

function byFormat(format: string | undefined): string | undefined {
  switch (format) {
    case 'email':
      return EMAIL;
    case 'date':
      return DATE;
    case 'date-time':
      return DATE_TIME;
    case 'uuid':
      return UUID;
    case 'uri':
    case 'url':
      return 'https://example.org/hooks/care';
    case 'binary':
      return 'certificate.pdf';
    case 'time':
      return '09:30:00';
    default:
      return undefined;
  }
}

function fitsString(s: JsonSchema, value: string): boolean {
  if (s.minLength !== undefined && value.length < s.minLength) return false;
  if (s.maxLength !== undefined && value.length > s.maxLength) return false;
  if (s.pattern) {
    try {
      if (!new RegExp(s.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function exampleString(s: JsonSchema, key: string, tag: string): string {
  const formatted = byFormat(s.format);
  const candidates = formatted
    ? [formatted, ...hintFor(key, tag)]
    : [...hintFor(key, tag), ...GENERIC_STRINGS];
  for (const c of candidates) if (fitsString(s, c)) return c;
  // Only length limits left to satisfy (a pattern no candidate met falls through to the test, which names it).
  const length = Math.max(s.minLength ?? 1, 1);
  const wanted = s.maxLength !== undefined ? Math.min(length, s.maxLength) : length;
  return 'Moving and handling refresher for the night team. '.repeat(Math.ceil(wanted / 50)).slice(0, wanted);
}

function exampleNumber(s: JsonSchema, key: string, integer: boolean): number {
  const k = key.toLowerCase();
  let value = k === 'score' || k.endsWith('percentage') ? 85 : k.endsWith('id') || k.endsWith('_id') ? 12 : 1;
  if (k === 'page') value = 1;
  if (k.includes('month')) value = 12;
  const min =
    typeof s.exclusiveMinimum === 'number'
      ? s.exclusiveMinimum + (integer ? 1 : 0.5)
      : s.exclusiveMinimum === true && s.minimum !== undefined
        ? s.minimum + (integer ? 1 : 0.5)
        : s.minimum;
  const max =
    typeof s.exclusiveMaximum === 'number'
      ? s.exclusiveMaximum - (integer ? 1 : 0.5)
      : s.exclusiveMaximum === true && s.maximum !== undefined
        ? s.maximum - (integer ? 1 : 0.5)
        : s.maximum;
  if (min !== undefined && value < min) value = integer ? Math.ceil(min) : min;
  if (max !== undefined && value > max) value = integer ? Math.floor(max) : max;
  return value;
}

interface Walk {
  root: JsonSchema;
  tag: string;
  depth: number;
}

function resolveRef(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  const m = /^#\/(\$defs|definitions|components\/schemas)\/(.+)$/.exec(ref);
  if (!m) return undefined;
  const bag = m[1] === '$defs' ? root.$defs : m[1] === 'definitions' ? root.definitions : undefined;
  return bag?.[decodeURIComponent(m[2] ?? '')];
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
/** `{type: 'null'}` (3.1), or `{nullable: true, enum: [null]}`, zod's null under the OpenAPI 3.0 target. */
const isNullOnly = (s: JsonSchema) =>
  (typesOf(s).length === 1 && typesOf(s)[0] === 'null') || (s.enum?.length === 1 && s.enum[0] === null);

function generate(s: JsonSchema, key: string, w: Walk): unknown {
  if (s.$ref) {
    const target = resolveRef(s.$ref, w.root);
    return target && w.depth < 12 ? generate(target, key, { ...w, depth: w.depth + 1 }) : {};
  }
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum.find((v) => v !== null) ?? s.enum[0];
  if (s.allOf?.length) {
    const parts = s.allOf.map((part) => generate(part, key, w));
    return parts.every((p) => p && typeof p === 'object' && !Array.isArray(p))
      ? Object.assign({}, ...parts)
      : parts[0];
  }
  const union = s.oneOf ?? s.anyOf;
  if (union?.length) {
    // The first branch that is not only null: "string or null" shows the string.
    const branch = union.find((b) => !isNullOnly(b)) ?? union[0];
    return branch ? generate(branch, key, w) : null;
  }
  const types = typesOf(s).filter((t) => t !== 'null');
  const type = types[0] ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  switch (type) {
    case 'string':
      return exampleString(s, key, w.tag);
    case 'integer':
      return exampleNumber(s, key, true);
    case 'number':
      return exampleNumber(s, key, false);
    case 'boolean':
      return true;
    case 'array': {
      if (s.maxItems === 0 || !s.items || w.depth > 10) return [];
      const item = generate(s.items, singularKey(key), { ...w, depth: w.depth + 1 });
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => item);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      if (w.depth > 10) return out;
      for (const [name, prop] of Object.entries(s.properties ?? {}))
        out[name] = generate(prop, name, { ...w, depth: w.depth + 1 });
      return out;
    }
    case 'null':
      return null;
    default:
      // An open schema (z.unknown()): an empty object is a value that says "anything".
      return typesOf(s).includes('null') ? null : {};
  }
}

const singularKey = (key: string) => (key.endsWith('ids') ? key.slice(0, -1) : key);

/** The example of `schema`; `tag` is the operation's tag, for the words of `name` fields. */
export function exampleOf(schema: JsonSchema, tag = ''): unknown {
  return generate(schema, '', { root: schema, tag, depth: 0 });
}

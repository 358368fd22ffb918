import { PageLinks, PageMeta } from '@cc/contracts';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { exampleOf, type JsonSchema } from './example';
import { FILE_ANSWERS, MULTIPART_BODIES } from './media';
import { OPERATIONS } from './operations';
import { REALTIME_DESCRIPTION } from './realtime';
import { summaryFor, tagFromPath } from './summary';
import { TAG_DESCRIPTIONS } from './tags';

/**
 * The OpenAPI document's per-route transform and whole-document pass (issue 18: every REST route with a summary,
 * a tag, its security, and examples). Both run once, when @fastify/swagger first builds the document, which it then
 * caches; nothing here runs per request. Only the document changes: validation and serialisation of the routes are
 * fastify-type-provider-zod's as before.
 */

type Transform = SwaggerTransform;
type TransformInput = Parameters<Transform>[0];
type TransformObject = SwaggerTransformObject;
type Schema = Record<string, unknown>;

/** ":id" and ":id(^\\d+)" → "{id}", the form the document (and the registries) use. */
export const openApiPath = (url: string) => url.replace(/:(\w+)(\([^)]*\))?/g, '{$1}');

/** Every signed-in route accepts the session cookie (browsers, with X-XSRF-TOKEN on writes) or a bearer token. */
const SIGNED_IN = [{ session: [] }, { bearer: [] }];

const GenericOne = z.object({
  data: z.unknown(),
  message: z.string().meta({ example: 'The change has been saved.' }).optional(),
});
const GenericDone = z.object({
  message: z.string().meta({ example: 'The record has been deleted.' }),
  data: z.unknown().optional(),
});
const GenericPage = z.object({
  data: z.array(z.record(z.string(), z.unknown())),
  meta: PageMeta,
  links: PageLinks,
});
const BINARY = { type: 'string', format: 'binary' };

export function createOpenApiTransform(): Transform {
  return (input) => {
    const route = input.route as TransformInput['route'] & { method: string | string[] };
    const method = [route.method].flat().find((m) => m !== 'HEAD') ?? 'GET';
    const path = openApiPath(input.url);
    const key = `${method} ${path}`;
    const doc = OPERATIONS[key];
    const given = (input.schema ?? {}) as Schema;
    // A hand-written response schema is documented for a route that declares none (it never serialises).
    const schema =
      doc?.response && !given.response
        ? { ...given, response: { [doc.status ?? 200]: doc.response } }
        : given;
    const out = jsonSchemaTransform({ ...input, schema } as Parameters<typeof jsonSchemaTransform>[0]);
    const s = out.schema as Schema;
    if (s.hide) return out;

    const json = (zod: z.ZodType, io: 'input' | 'output') => converted(input, zod, io);

    if (!s.tags) s.tags = [tagFromPath(path)];
    s.summary ??= doc?.summary ?? summaryFor(method, path);
    if (doc?.description && !s.description) s.description = doc.description;
    s.security = route.config?.auth === false ? [] : SIGNED_IN;

    const multipart = MULTIPART_BODIES[key];
    if (multipart && !s.body) {
      const fields = json(multipart.fields, 'input');
      const form: JsonSchema = {
        ...fields,
        type: 'object',
        properties: {
          ...(fields.properties ?? {}),
          ...Object.fromEntries(
            Object.entries(multipart.files).map(([n, d]) => [n, { ...BINARY, description: d }]),
          ),
        },
      };
      const content: Schema = { 'multipart/form-data': { schema: form } };
      if (multipart.json) content['application/json'] = { schema: json(multipart.json, 'input') };
      s.body = { content };
    }

    const responses = (s.response ?? {}) as Schema;
    const hasSuccess = Object.keys(responses).some((code) => /^2/.test(code));
    const files = FILE_ANSWERS[key];
    if (!hasSuccess) {
      const isList = method === 'GET' && hasPageQuery(s.querystring);
      const generic = isList ? GenericPage : method === 'DELETE' ? GenericDone : GenericOne;
      // Without a declared schema the document cannot know 200 from 201 for a POST; it says so instead of guessing.
      const code = method === 'POST' && !files ? '2XX' : '200';
      responses[code] = files
        ? fileResponse(files.files, files.alsoJson ? json(generic, 'output') : null, files.alsoJson)
        : {
            ...json(generic, 'output'),
            description: code === '2XX' ? 'Success (200 OK, or 201 Created for a new record)' : 'Success',
          };
    } else if (files) {
      const code = Object.keys(responses).find((c) => /^2/.test(c)) ?? '200';
      responses[code] = fileResponse(
        files.files,
        files.alsoJson ? (responses[code] as JsonSchema) : null,
        files.alsoJson,
      );
    }
    for (const [code, answer] of Object.entries(responses))
      if (/^2/.test(code) && answer && typeof answer === 'object' && !('description' in answer))
        (answer as Schema).description = 'Success';
    s.response = responses;
    return { schema: s, url: out.url };
  };
}

const conversions = {
  input: new WeakMap<z.ZodType, JsonSchema>(),
  output: new WeakMap<z.ZodType, JsonSchema>(),
};

/**
 * A zod schema in the JSON form the rest of the document has (the same converter, so the same dialect). The generic
 * envelopes are the same for hundreds of routes: converted once, and each route gets its own copy, since
 * @fastify/swagger edits the schemas it is given.
 */
function converted(input: TransformInput, zod: z.ZodType, io: 'input' | 'output'): JsonSchema {
  let schema = conversions[io].get(zod);
  if (!schema) {
    const out = jsonSchemaTransform({
      ...input,
      schema: io === 'input' ? { body: zod } : { response: { 200: zod } },
    } as Parameters<typeof jsonSchemaTransform>[0]).schema as Schema;
    schema = (io === 'input' ? out.body : (out.response as Schema)[200]) as JsonSchema;
    conversions[io].set(zod, schema);
  }
  return structuredClone(schema);
}

function hasPageQuery(query: unknown): boolean {
  const props = (query as JsonSchema | undefined)?.properties;
  return !!props && 'page' in props && 'per_page' in props;
}

function fileResponse(
  files: Record<string, string>,
  jsonAnswer: JsonSchema | null,
  jsonWhen?: string,
): Schema {
  const content: Schema = {};
  if (jsonAnswer) content['application/json'] = { schema: jsonAnswer };
  for (const type of Object.keys(files)) content[type] = { schema: { ...BINARY } };
  const lines = Object.entries(files).map(([type, what]) => `${type}: ${what}`);
  if (jsonWhen) lines.unshift(`application/json: ${jsonWhen}`);
  return { description: lines.join('\n\n'), content };
}

interface Operation {
  tags?: string[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema; example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema; example?: unknown }> }>;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** The whole-document pass: an example on every JSON body and success answer, and the tags described. */
export function createOpenApiTransformObject(): TransformObject {
  return (input) => {
    const document = ('openapiObject' in input ? input.openapiObject : input.swaggerObject) as {
      info?: { description?: string };
      paths?: Record<string, Record<string, Operation>>;
      tags?: { name: string; description?: string }[];
    };
    const used = new Set<string>();
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.has(method)) continue;
        const doc = OPERATIONS[`${method.toUpperCase()} ${path}`];
        const tag = op.tags?.[0] ?? '';
        for (const t of op.tags ?? []) used.add(t);
        const body = op.requestBody?.content?.['application/json'];
        if (body?.schema && body.example === undefined)
          body.example = doc?.bodyExample ?? exampleOf(body.schema, tag);
        const success = Object.keys(op.responses ?? {}).find((code) => /^2/.test(code));
        const answer = success ? op.responses?.[success]?.content?.['application/json'] : undefined;
        if (answer?.schema && answer.example === undefined)
          answer.example = doc?.responseExample ?? exampleOf(answer.schema, tag);
      }
    }
    document.tags = [...used].sort().map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? `Routes under /api/${name.replace(/ /g, '-')}.`,
    }));
    document.info = { ...document.info, description: document.info?.description ?? API_DESCRIPTION };
    return document as ReturnType<TransformObject>;
  };
}

const API_DESCRIPTION = [
  'Every answer is the envelope `{data, message, error, errors}`; a refused input is 422 with `errors` per field.',
  '',
  '**Authentication.** Integrations send a personal access token: `Authorization: Bearer <token>` (create one on',
  'the Personal access tokens page; it can do only what its abilities allow). Browsers use the session cookie from',
  'POST /login, after GET /sanctum/csrf-cookie, and send the XSRF-TOKEN cookie back as X-XSRF-TOKEN on writes.',
  '',
  "Ids in paths are numeric unless the path says {uuid} or {slug}; another organisation's id answers 404.",
  '',
  REALTIME_DESCRIPTION,
].join('\n');

/**
 * PATCH changes only what it is sent (issue 10 §2, ARCHITECTURE "Writes that stay right"), proved over every PATCH
 * operation of the OpenAPI document the server serves (/api/docs/json). For each operation and each field of its
 * request body: create the resource with a non-default value in every field, send a PATCH with that one field,
 * read the resource back and assert that every other field is unchanged (and that the field did change).
 * How to create and read each resource is in test/patch-fixtures.ts; an operation without a fixture fails here,
 * so a new PATCH route cannot be added untested.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness } from '../../test/harness';
import {
  buildWorld,
  changedWhatItShould,
  changesOf,
  otherChanges,
  PATCH_FIXTURES,
  type PatchFixture,
  type Row,
} from '../../test/patch-fixtures';

interface Operation {
  key: string;
  /** The request body's top-level properties, with the JSON schema of each. */
  properties: Record<string, { default?: unknown }> | null;
}

const h = await createHarness();
afterAll(async () => h.close());
const world = await buildWorld(h);

/** Every PATCH operation of the served OpenAPI document. */
async function patchOperations(): Promise<Operation[]> {
  const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = res.json() as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: object }> } }>
    >;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => method === 'patch')
      .map(([, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema as
          | { properties?: Operation['properties'] }
          | undefined;
        return { key: `PATCH ${path}`, properties: schema?.properties ?? null };
      }),
  );
}
const operations = await patchOperations();

/** The fields of an operation: the document's, else (a route that also takes multipart) the fixture's schema. */
function fieldsOf(op: Operation, fixture: PatchFixture): string[] {
  if (op.properties) return Object.keys(op.properties);
  return fixture.bodySchema ? Object.keys(fixture.bodySchema.shape) : [];
}

/** The defaults a create schema would fill in, by field. */
function defaultsOf(schema: z.ZodObject): Row {
  return Object.fromEntries(
    Object.entries(schema.shape)
      .filter(([, field]) => field instanceof z.ZodDefault)
      .map(([key, field]) => [key, (field as z.ZodType).parse(undefined)]),
  );
}

describe('the PATCH fixture table', () => {
  it('covers every PATCH operation of the OpenAPI document, and nothing else', () => {
    const keys = operations.map((o) => o.key).sort();
    expect(keys.length).toBeGreaterThan(20);
    expect(
      keys.filter((k) => !PATCH_FIXTURES[k]),
      'PATCH operations without a fixture',
    ).toEqual([]);
    expect(
      Object.keys(PATCH_FIXTURES).filter((k) => !keys.includes(k)),
      'fixtures of operations the document does not have',
    ).toEqual([]);
  });

  it('gives no PATCH body a default (a default is a value the client did not send)', () => {
    const withDefaults = operations.flatMap((op) =>
      Object.entries(op.properties ?? {})
        .filter(([, schema]) => schema && 'default' in schema)
        .map(([field]) => `${op.key} ${field}`),
    );
    expect(withDefaults).toEqual([]);
  });
});

for (const op of operations) {
  const fixture = PATCH_FIXTURES[op.key];
  if (!fixture) continue; // reported by the coverage test above
  const fields = fieldsOf(op, fixture);

  describe(op.key, () => {
    it('has a new value for every field of its body, and creates with no default', async () => {
      expect(fields.length, 'a body without fields: give the fixture its bodySchema').toBeGreaterThan(0);
      const state = await fixture.create(world);
      const sent = { ...fixture.values(state, world), ...(await fixture.always?.(state, world)) };
      expect(fields.filter((f) => !(f in sent))).toEqual([]);
      if (!fixture.createSchema) return;
      const stored = await fixture.read(state, world);
      const defaults = Object.entries(defaultsOf(fixture.createSchema)).filter(
        ([key, value]) => key in stored && isDeepStrictEqual(stored[key], value),
      );
      expect(defaults, 'fields created with their default value (make them non-default)').toEqual([]);
    });

    for (const field of fields) {
      it(`changes only ${field}`, async () => {
        const state = await fixture.create(world);
        const before = await fixture.read(state, world);
        const always = (await fixture.always?.(state, world)) ?? {};
        const values = fixture.values(state, world);
        const body = field in values ? { ...always, [field]: values[field] } : always;
        const client = fixture.client?.(state) ?? world.admin;
        const res = await client('PATCH', fixture.url(state, world), body);
        expect(res.statusCode, res.body).toBeLessThan(300);
        const after = await fixture.read(state, world);

        expect(otherChanges(fixture, field, before, after), `PATCH {${field}} changed other fields`).toEqual(
          [],
        );
        expect(
          changedWhatItShould(fixture, field, before, after),
          `PATCH {${field}} changed none of ${changesOf(fixture, field).join(', ')}`,
        ).toBe(true);
      });
    }
  });
}

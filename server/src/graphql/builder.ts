import SchemaBuilder from '@pothos/core';
import { GraphQLError } from 'graphql';
import type { Ctx } from '../http/context';

/** What graphql-yoga gives a resolver for an Upload: a WHATWG File (its own ponyfill, so no instanceof check). */
export interface UploadedBlob {
  name: string;
  type: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

const isUploadedBlob = (value: unknown): value is UploadedBlob =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as UploadedBlob).arrayBuffer === 'function' &&
  typeof (value as UploadedBlob).size === 'number' &&
  typeof (value as UploadedBlob).name === 'string';

/**
 * The code-first schema builder (ARCHITECTURE "graphql/"). The context is the same `Ctx` the REST routes get from
 * the authentication plugin, so resolvers call the services with it and hold no rules of their own.
 * Fields are non-null unless marked `nullable: true`.
 */
export const builder = new SchemaBuilder<{
  Context: Ctx;
  DefaultFieldNullability: false;
  Scalars: {
    ID: { Input: string; Output: string | number };
    JSON: { Input: unknown; Output: unknown };
    Upload: { Input: UploadedBlob; Output: never };
  };
}>({ defaultFieldNullability: false });

builder.queryType({});
builder.mutationType({});

builder.scalarType('JSON', {
  description: 'Any JSON value (settings objects, preferences).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('Upload', {
  description: 'A file sent with the GraphQL multipart request spec (operations + map).',
  serialize: () => {
    throw new Error('Upload is an input-only scalar.');
  },
  parseValue: (value) => {
    if (isUploadedBlob(value)) return value;
    throw new GraphQLError('Upload must be a file sent as multipart form data.', {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  },
});

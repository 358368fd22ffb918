import type { z } from 'zod';
import { fieldErrorsFromZod, invalid } from '../http/errors';

/** Parses resolver input with a contract schema; failures become the same 422 the REST routes answer. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

/** GraphQL leaves absent arguments out; drop `undefined` anyway so zod sees exactly what the client sent. */
export const defined = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

/** A filter argument is never meant as null: GraphQL's null for an absent optional filter is dropped too. */
export const nullless = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

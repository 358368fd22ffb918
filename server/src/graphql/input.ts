/** Resolver input is parsed exactly as the REST routes parse it (http/errors.ts). */
export { parseInput } from '../http/errors';

/** GraphQL leaves absent arguments out; drop `undefined` anyway so zod sees exactly what the client sent. */
export const defined = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

/** A filter argument is never meant as null: GraphQL's null for an absent optional filter is dropped too. */
export const nullless = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));

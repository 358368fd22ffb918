import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from './constants';

/** Query-string booleans arrive as '0'/'1'/'true'/'false' (spec 1 §7: is_trainer as 0/1). */
export const queryBool = z
  .union([z.boolean(), z.enum(['0', '1', 'true', 'false'])])
  .transform((v) => v === true || v === '1' || v === 'true');

export const idParam = z.coerce.number().int().positive();
export const IdParams = z.object({ id: idParam });
export const SlugParams = z.object({ slug: z.string().min(1).max(120) });

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  search: z.string().trim().max(200).optional(),
  actingAs: z.string().max(120).optional(),
  deep: queryBool.optional(),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const PageMeta = z.object({
  current_page: z.number(),
  last_page: z.number(),
  per_page: z.number(),
  total: z.number(),
  from: z.number().nullable(),
  to: z.number().nullable(),
});
export const PageLinks = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});
export const paged = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), meta: PageMeta, links: PageLinks });
export type Paged<T> = { data: T[]; meta: z.infer<typeof PageMeta>; links: z.infer<typeof PageLinks> };

/** The spec's envelope (spec 1 §7): responses are read as data, message, error and errors. */
export const envelope = <T extends z.ZodTypeAny>(data: T) =>
  z.object({ data, message: z.string().optional() });
export const ErrorEnvelope = z.object({
  message: z.string(),
  error: z.string().optional(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
export const MessageEnvelope = z.object({ message: z.string(), data: z.unknown().optional() });

// --- Update schemas ------------------------------------------------------------------------------------------

/** A field as sent: its `.default()` / `.prefault()` (and any `.optional()` around them) taken off. */
type AsSent<T> =
  T extends z.ZodOptional<infer I>
    ? AsSent<I>
    : T extends z.ZodDefault<infer I>
      ? AsSent<I>
      : T extends z.ZodPrefault<infer I>
        ? AsSent<I>
        : T;
export type UpdateShape<S extends z.ZodRawShape> = { [K in keyof S]: z.ZodOptional<AsSent<S[K]>> };

function asSent(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodOptional || field instanceof z.ZodDefault || field instanceof z.ZodPrefault)
    return asSent(field.unwrap() as z.ZodType);
  return field;
}

/**
 * THE way to build a PATCH body (ARCHITECTURE "Writes that stay right"): the create schema's fields, each optional
 * and without its default. zod 4 fills a default even inside `.partial()` (`{a: z.boolean().default(false)}
 * .partial().parse({})` is `{a: false}`), so a partial create schema turned `PATCH {title}` into "and reset
 * published, pass mark and questions too". Here a field absent from the request stays absent from the parsed body,
 * and services write only the columns present. Object-level refinements of the create schema are not carried
 * over: an update is checked against the stored row it merges with (e.g. presets' recurrenceErrors).
 */
export function updateSchemaOf<S extends z.ZodRawShape>(create: z.ZodObject<S>): z.ZodObject<UpdateShape<S>> {
  const shape = Object.fromEntries(
    Object.entries(create.shape).map(([key, field]) => [key, asSent(field as z.ZodType).optional()]),
  );
  return z.object(shape) as unknown as z.ZodObject<UpdateShape<S>>;
}

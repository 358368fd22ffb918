import { Messages } from '@cc/contracts';
import type { ZodError, z } from 'zod';

export type FieldErrors = Record<string, string[]>;

/** An error the client is meant to see: status, message and optional field errors (spec envelope). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const unauthenticated = () => new HttpError(401, Messages.unauthenticated);
export const forbidden = (message: string = Messages.forbidden) => new HttpError(403, message);
export const notFound = (message: string = Messages.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const csrfMismatch = () => new HttpError(419, Messages.csrfMismatch);
export const sessionExpired = () => new HttpError(419, Messages.sessionExpired);
export const tooManyRequests = (message: string) => new HttpError(429, message);

/** 422 with field errors; the message is the first error, as Laravel clients expect to show it. */
export function invalid(errors: FieldErrors): HttpError {
  const first = Object.values(errors).flat()[0] ?? Messages.validationFailed;
  return new HttpError(422, first, errors);
}
export const invalidField = (field: string, message: string) => invalid({ [field]: [message] });

export function fieldErrorsFromZod(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

/** Parses input with a contract schema; a failure is the 422 with field errors every route and resolver answers. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error));
  return parsed.data;
}

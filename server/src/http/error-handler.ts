import { Messages } from '@cc/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { reportServerError } from '../system/error-reporting';
import { type FieldErrors, fieldErrorsFromZod, HttpError, invalid } from './errors';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  419: 'Page Expired',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Server Error',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return invalid(fieldErrorsFromZod(error));
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldErrors = {};
    for (const issue of error.validation) {
      const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      errors[key] = [...(errors[key] ?? []), issue.message ?? Messages.validationFailed];
    }
    return invalid(errors);
  }
  const fe = error as FastifyError;
  // PostgreSQL's disk_full (53100) or a file write's ENOSPC: nothing was saved, reads still work (issue 12 §1).
  if (fe?.code === '53100' || fe?.code === 'ENOSPC')
    return new HttpError(
      507,
      "The server's disk is full, so nothing was saved. Please tell your administrator.",
    );
  if (fe?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new HttpError(415, 'Unsupported content type.');
  if (
    fe?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    fe?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    (fe?.statusCode === 400 && fe.message?.includes('JSON'))
  ) {
    return invalid({ _: ['The request body is not valid JSON.'] });
  }
  if (fe?.code === 'FST_REQ_FILE_TOO_LARGE' || fe?.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new HttpError(413, 'The upload is too large.');
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500)
    return new HttpError(fe.statusCode, fe.message);
  return new HttpError(500, 'Server error. Please try again or contact support.');
}

/** Every failure leaves in the spec's envelope: {message, error, errors}. Unknown errors are logged, never leaked. */
export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const http = toHttpError(error);
  if (http.status >= 500) {
    request.log.error({ err: error }, 'request failed');
    // Off unless SENTRY_DSN is set; 5xx only (system/error-reporting.ts).
    reportServerError(error, request, http.status);
  }
  const body: Record<string, unknown> = { message: http.message, error: STATUS_TEXT[http.status] ?? 'Error' };
  if (http.errors) body.errors = http.errors;
  if (http.data !== undefined) body.data = http.data;
  return reply.status(http.status).send(body);
}

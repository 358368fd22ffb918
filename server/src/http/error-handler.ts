import { Messages } from '@cc/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { isDiskFull, isLostConnection } from '../db/connection-errors';
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

/** A failure the client may simply try again after `retryAfterSeconds` (sent as Retry-After). */
class RetryableError extends HttpError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(503, message);
  }
}

/** GET and HEAD change nothing: their failures never say that something was not saved (issue 30 §9). */
const isRead = (method: string) => method === 'GET' || method === 'HEAD';

function toHttpError(error: unknown, method: string): HttpError {
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
  // PostgreSQL's disk_full (53100), a file write's ENOSPC, or a connection lost while the embedded PostgreSQL is
  // stopped by a full disk (issue 30 §2): nothing was saved, reads still work (issue 12 §1). A read that needed the
  // disk (a sort spilling to a temporary file) saved nothing either way: it answers 503.
  if (isDiskFull(error))
    return isRead(method)
      ? new HttpError(
          503,
          "The server's disk is full, so this cannot be shown now. Please tell your administrator.",
        )
      : new HttpError(
          507,
          "The server's disk is full, so nothing was saved. Please tell your administrator.",
        );
  // Issue 30 §1: the database connection this request used was lost (a restart, a failover, a killed backend) or
  // cannot be made yet. Only this request failed; the pool makes a new connection, so trying again is right.
  if (isLostConnection(error))
    return new RetryableError('The connection to the database was lost. Please try again.', 1);
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

/** Reports a 5xx (system/error-reporting.ts reportServerError): given at the top (app.ts), http imports no capability. */
export type ServerErrorReport = (error: unknown, request: FastifyRequest, status: number) => void;

/**
 * Every failure leaves in the spec's envelope: {message, error, errors}. Unknown errors are logged, never leaked, and
 * handed to `report`.
 */
export function errorHandlerReportingTo(report: ServerErrorReport) {
  return function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply) {
    const http = toHttpError(error, request.method);
    if (http instanceof RetryableError) {
      // The lost connection itself is reported once by db/connect.ts; each request it failed is a line, no stack.
      request.log.warn(`request failed: ${error instanceof Error ? error.message : String(error)}`);
    } else if (http.status >= 500) {
      request.log.error({ err: error }, 'request failed');
      // Off unless SENTRY_DSN is set; 5xx only (system/error-reporting.ts).
      report(error, request, http.status);
    }
    const body: Record<string, unknown> = {
      message: http.message,
      error: STATUS_TEXT[http.status] ?? 'Error',
    };
    if (http.errors) body.errors = http.errors;
    if (http.data !== undefined) body.data = http.data;
    if (http instanceof RetryableError) reply.header('retry-after', String(http.retryAfterSeconds));
    return reply.status(http.status).send(body);
  };
}

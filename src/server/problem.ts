// The one place that turns errors into responses: every failure (library, HTTP layer, Fastify
// itself) becomes an application/problem+json document with a stable code, the offending field and
// the request id. Server faults never show their message or stack; they are logged instead.

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { ConflictError, EngramError, type EngramErrorCode, type ValidationIssue } from '../index.js';
import { HttpError, type ServerErrorCode } from './http-error.js';

/** Every code a problem document can carry. */
export type ProblemCode = EngramErrorCode | ServerErrorCode;

/** The HTTP status of each code. */
export const PROBLEM_STATUS: Readonly<Record<ProblemCode, number>> = {
  VALIDATION_FAILED: 400,
  CONFIG_INVALID: 400,
  INVALID_JSON: 400,
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  REQUEST_TIMEOUT: 408,
  STATE_VERSION_CONFLICT: 409,
  DUPLICATE_TURN: 409,
  RECORD_CONFLICT: 409,
  RUN_STOPPED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  MISDIRECTED_REQUEST: 421,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  SCHEMA_VIOLATION: 500,
  APPEND_ONLY_VIOLATION: 500,
  INTERNAL: 500,
  STORAGE_FAILED: 503,
  OVERLOADED: 503,
  TIMEOUT: 503,
};

const TITLES: Readonly<Record<ProblemCode, string>> = {
  VALIDATION_FAILED: 'The request broke a rule of its schema',
  CONFIG_INVALID: 'The configuration or request is not usable',
  INVALID_JSON: 'The body is not valid JSON',
  BAD_REQUEST: 'The HTTP request is malformed',
  UNAUTHENTICATED: 'A valid API key is required',
  FORBIDDEN: 'This key may not do that',
  NOT_FOUND: 'No such record for this tenant',
  ROUTE_NOT_FOUND: 'No such route',
  REQUEST_TIMEOUT: 'The request was not received in time',
  STATE_VERSION_CONFLICT: 'Another writer got there first',
  DUPLICATE_TURN: 'The turn was already recorded',
  RECORD_CONFLICT: 'The store holds this record with other content',
  RUN_STOPPED: 'The run is stopped until it is resumed',
  PAYLOAD_TOO_LARGE: 'The body is larger than the limit',
  UNSUPPORTED_MEDIA_TYPE: 'Send the body as application/json',
  MISDIRECTED_REQUEST: 'The Host header does not name this server',
  RATE_LIMITED: 'Too many requests',
  HEADERS_TOO_LARGE: 'The request headers are too large',
  SCHEMA_VIOLATION: 'Engram produced an invalid result',
  APPEND_ONLY_VIOLATION: 'An append-only record was changed',
  INTERNAL: 'Internal server error',
  STORAGE_FAILED: 'The store is unavailable',
  OVERLOADED: 'The server is busy',
  TIMEOUT: 'The request took too long',
};

/** The body of every error response (RFC 9457, with Engram's code, field and request id). */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  code: ProblemCode;
  field: string | null;
  detail: string;
  issues?: ValidationIssue[];
  /** On a conflict: true when the same request may succeed if sent again (another writer got there first). */
  retryable?: boolean;
  request_id: string;
}

/** The Fastify errors the server answers with its own codes. */
const FRAMEWORK_CODES: Readonly<Record<string, ServerErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_HANDLER_TIMEOUT: 'TIMEOUT',
};

interface Classified {
  code: ProblemCode;
  field: string | null;
  message: string;
  issues?: ValidationIssue[];
  retryable?: boolean;
}

function classify(error: unknown): Classified {
  if (EngramError.isInstance(error)) {
    const issues = error.details['issues'];
    return {
      code: error.code,
      field: error.field ?? null,
      message: error.message,
      ...(Array.isArray(issues) ? { issues: issues as ValidationIssue[] } : {}),
      ...(ConflictError.isInstance(error) ? { retryable: error.isRetryable } : {}),
    };
  }
  if (HttpError.isInstance(error)) return { code: error.code, field: error.field, message: error.message };
  const framework = error as Partial<FastifyError>;
  const known = typeof framework.code === 'string' ? FRAMEWORK_CODES[framework.code] : undefined;
  if (known !== undefined) return { code: known, field: null, message: framework.message ?? TITLES[known] };
  const status = framework.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { code: 'BAD_REQUEST', field: null, message: framework.message ?? TITLES.BAD_REQUEST };
  return { code: 'INTERNAL', field: null, message: 'unexpected error' };
}

/**
 * The problem document for an error. Server faults (5xx) say only what kind of fault it was and
 * point at the log by request id; the message stays in the log.
 *
 * @example
 * problemOf(new NotFoundError('event_id', 'evt_…'), 'req-1').status // 404
 */
export function problemOf(error: unknown, requestId: string): ProblemDocument {
  const { code, field, message, issues, retryable } = classify(error);
  const status = PROBLEM_STATUS[code];
  const fault = status >= 500 && code !== 'TIMEOUT';
  return {
    type: `urn:engram:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title: TITLES[code],
    status,
    code,
    field: fault ? null : field,
    detail: fault ? `${TITLES[code]}; the server log has the details under request id ${requestId}` : message,
    ...(issues === undefined ? {} : { issues }),
    ...(retryable === undefined ? {} : { retryable }),
    request_id: requestId,
  };
}

/**
 * Sends a problem document.
 *
 * @example
 * sendProblem(reply, problemOf(error, request.id));
 */
export function sendProblem(reply: FastifyReply, problem: ProblemDocument): FastifyReply {
  if (problem.code === 'UNAUTHENTICATED') reply.header('www-authenticate', 'Bearer');
  return reply.code(problem.status).type('application/problem+json; charset=utf-8').send(JSON.stringify(problem));
}

function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const problem = problemOf(error, request.id);
  if (problem.status >= 500) request.log.error({ err: error, code: problem.code }, 'request failed');
  else request.log.info({ code: problem.code, field: problem.field }, 'request refused');
  return sendProblem(reply, problem);
}

/**
 * Installs the error handler and the not-found handler: every failure leaves as a problem document.
 *
 * @example
 * installProblemHandling(app);
 */
export function installProblemHandling(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) =>
    handleError(
      new HttpError('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`),
      request,
      reply,
    ),
  );
}

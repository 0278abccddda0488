// The HTTP layer's own failures (authentication, roles, limits, malformed requests): one error
// type with a stable code, beside the library's EngramError codes. problem.ts turns both into
// responses.

const marker = Symbol.for('engram.http-error');

/** Codes the server adds to the library's EngramErrorCode (documented in docs/http.md). */
export type ServerErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'ROUTE_NOT_FOUND'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'TIMEOUT'
  | 'INVALID_JSON'
  /** A request HTTP itself finds malformed (a bad Content-Length, a bad chunk, a bad URL). */
  | 'BAD_REQUEST'
  /** The Host header names another server (DNS rebinding): 421. */
  | 'MISDIRECTED_REQUEST'
  /** The request headers are larger than Node's limit: 431. */
  | 'HEADERS_TOO_LARGE'
  /** The request was not received completely in time: 408. */
  | 'REQUEST_TIMEOUT';

/**
 * A failure of the HTTP layer, with a stable code and the offending field when there is one.
 *
 * @example
 * throw new HttpError('FORBIDDEN', 'scope.tenant_id: a key may only name its own tenant', 'scope.tenant_id');
 */
export class HttpError extends Error {
  readonly [marker] = true;
  readonly code: ServerErrorCode;
  readonly field: string | null;

  constructor(code: ServerErrorCode, message: string, field: string | null = null) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.field = field;
  }

  /** True for any HttpError, also one made by another copy of the package. */
  static isInstance(error: unknown): error is HttpError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

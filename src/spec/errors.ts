// The one error hierarchy of Engram. Every failure a caller can act on is an EngramError with a
// stable `code`, the offending `field` when there is one, and the underlying `cause`. Transports
// (CLI, HTTP, MCP) map these to their own shapes in one place each.

/** Stable, documented error codes. Never rename one: callers switch on them. */
export type EngramErrorCode =
  | 'VALIDATION_FAILED'
  | 'STATE_VERSION_CONFLICT'
  | 'NOT_FOUND'
  | 'DUPLICATE_TURN'
  /** A record whose id (or other key) the store already holds with other content: an import never overwrites. */
  | 'RECORD_CONFLICT'
  | 'APPEND_ONLY_VIOLATION'
  | 'STORAGE_FAILED'
  | 'CONFIG_INVALID'
  | 'SCHEMA_VIOLATION'
  /** The run stopped (a compaction failed its validation twice) until it is resumed explicitly. */
  | 'RUN_STOPPED'
  /** A bounded queue (the local embedding model's) stayed full past its deadline: retry later. */
  | 'OVERLOADED'
  | 'INTERNAL';

/** One broken rule: the field (dotted path, `[i]` for array items) and the rule it broke. */
export interface ValidationIssue {
  field: string;
  rule: string;
  message: string;
}

export interface EngramErrorOptions {
  field?: string;
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** The marker of one error class, shared by every copy of the package (Symbol.for). */
const markerOf = (name: string) => Symbol.for(`engram.error.${name}`);
const marker = Symbol.for('engram.error');
const validationMarker = markerOf('ValidationError');
const conflictMarker = markerOf('ConflictError');
const notFoundMarker = markerOf('NotFoundError');
const storageMarker = markerOf('StorageError');

/**
 * Base class of every error Engram throws on purpose. Each subclass carries a marker of its own,
 * so `isInstance` holds for an error thrown by another copy of the package, where `instanceof`
 * would not.
 *
 * @example
 * try { await engram.commitTurn(turn); }
 * catch (error) { if (EngramError.isInstance(error) && error.code === 'STATE_VERSION_CONFLICT') refetch(); }
 */
export class EngramError extends Error {
  readonly [marker] = true;
  readonly code: EngramErrorCode;
  readonly field: string | undefined;
  readonly details: Record<string, unknown>;

  constructor(code: EngramErrorCode, message: string, options: EngramErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngramError';
    this.code = code;
    this.field = options.field;
    this.details = options.details ?? {};
  }

  /** True for any EngramError, also one thrown by another copy of the package. */
  static isInstance(error: unknown): error is EngramError {
    return EngramError.hasMarker(error, marker);
  }

  /** True when `error` carries `symbol` (the check behind every class's `isInstance`). */
  protected static hasMarker(error: unknown, symbol: symbol): boolean {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[symbol] === true;
  }

  /** A plain object for logs and transports; never includes the cause's stack. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, code: this.code, message: this.message, field: this.field, ...this.details };
  }
}

/**
 * Input broke a rule of its schema. `field` and `rule` name the first issue; `issues` lists all.
 *
 * @example
 * new ValidationError([{ field: 'scope.user_id', rule: 'required', message: 'is required' }])
 */
export class ValidationError extends EngramError {
  readonly [validationMarker] = true;
  readonly rule: string;
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], options: { cause?: unknown; subject?: string } = {}) {
    const first = issues[0] ?? { field: '', rule: 'unknown', message: 'invalid input' };
    const where = first.field === '' ? (options.subject ?? 'input') : first.field;
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super('VALIDATION_FAILED', `${where}: ${first.message} [rule: ${first.rule}]${more}`, {
      field: first.field,
      cause: options.cause,
      details: { rule: first.rule, issues },
    });
    this.name = 'ValidationError';
    this.rule = first.rule;
    this.issues = issues;
  }

  /** True for a ValidationError, also one thrown by another copy of the package. */
  static override isInstance(error: unknown): error is ValidationError {
    return EngramError.hasMarker(error, validationMarker);
  }

  /** Shorthand for a single broken rule. */
  static of(field: string, rule: string, message: string): ValidationError {
    return new ValidationError([{ field, rule, message }]);
  }
}

/**
 * Who a conflict is for. `caller`: what the caller sent disagrees with what is stored (a stale
 * expected version, a record held with other content); sending it again fails the same way.
 * `concurrent`: another writer changed what this call had read while it ran; the call may be made
 * again as it is.
 */
export type ConflictOrigin = 'caller' | 'concurrent';

/** What a conflict names: the field, its origin, and optionally its code (default STATE_VERSION_CONFLICT). */
export interface ConflictErrorOptions {
  field: string;
  origin: ConflictOrigin;
  code?: 'STATE_VERSION_CONFLICT' | 'RECORD_CONFLICT';
  cause?: unknown;
  details?: Record<string, unknown>;
}

/**
 * A write met a stored record other than the one it expected: a version, a status, a key. `origin`
 * tells whether the caller must change the request (`caller`) or may send it again (`concurrent`,
 * `isRetryable`).
 *
 * @example
 * const error = new ConflictError('item_id: itm_1 is superseded, not active', { field: 'item_id', origin: 'concurrent' });
 * if (ConflictError.isInstance(error) && error.isRetryable) retry();
 */
export class ConflictError extends EngramError {
  readonly [conflictMarker] = true;
  readonly origin: ConflictOrigin;
  /** True when sending the same request again may succeed: another writer got there first during the call. */
  readonly isRetryable: boolean;
  /** The version the write expected, for a version conflict. */
  readonly expected: number | undefined;
  /** The version stored, for a version conflict. */
  readonly actual: number | undefined;

  constructor(message: string, options: ConflictErrorOptions) {
    super(options.code ?? 'STATE_VERSION_CONFLICT', message, {
      field: options.field,
      cause: options.cause,
      details: options.details ?? {},
    });
    this.name = 'ConflictError';
    this.origin = options.origin;
    this.isRetryable = options.origin === 'concurrent';
    const { expected, actual } = this.details;
    this.expected = typeof expected === 'number' ? expected : undefined;
    this.actual = typeof actual === 'number' ? actual : undefined;
  }

  /**
   * A version check that failed: `field` expected version `expected`, the store holds `actual`.
   *
   * @example
   * ConflictError.ofVersion('state_patch.expected_version', 3, 4, 'caller').message
   * // 'state_patch.expected_version: expected version 3 but the stored version is 4'
   */
  static ofVersion(
    field: string,
    expected: number,
    actual: number,
    origin: ConflictOrigin,
    cause?: unknown,
  ): ConflictError {
    return new ConflictError(`${field}: expected version ${expected} but the stored version is ${actual}`, {
      field,
      origin,
      cause,
      details: { expected, actual },
    });
  }

  /** True for a ConflictError, also one thrown by another copy of the package. */
  static override isInstance(error: unknown): error is ConflictError {
    return EngramError.hasMarker(error, conflictMarker);
  }
}

/**
 * A named record does not exist (or is not visible in the caller's scope).
 *
 * @example
 * new NotFoundError('event_id', 'evt_01J…')
 */
export class NotFoundError extends EngramError {
  readonly [notFoundMarker] = true;

  constructor(field: string, id: string) {
    super('NOT_FOUND', `${field}: no record ${JSON.stringify(id)} in this scope`, { field, details: { id } });
    this.name = 'NotFoundError';
  }

  /** True for a NotFoundError, also one thrown by another copy of the package. */
  static override isInstance(error: unknown): error is NotFoundError {
    return EngramError.hasMarker(error, notFoundMarker);
  }
}

/**
 * The storage layer failed (I/O, corruption, a constraint the domain did not expect).
 *
 * @example
 * new StorageError('could not open the database file', { cause })
 */
export class StorageError extends EngramError {
  readonly [storageMarker] = true;

  constructor(message: string, options: EngramErrorOptions = {}) {
    super('STORAGE_FAILED', message, options);
    this.name = 'StorageError';
  }

  /** True for a StorageError, also one thrown by another copy of the package. */
  static override isInstance(error: unknown): error is StorageError {
    return EngramError.hasMarker(error, storageMarker);
  }
}

// The one error hierarchy of Engram. Every failure a caller can act on is an EngramError with a
// stable `code`, the offending `field` when there is one, and the underlying `cause`. Transports
// (CLI, HTTP, MCP) map these to their own shapes in one place each.

const marker = Symbol.for('engram.error');

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

/**
 * Base class of every error Engram throws on purpose.
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
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
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

  /** Shorthand for a single broken rule. */
  static of(field: string, rule: string, message: string): ValidationError {
    return new ValidationError([{ field, rule, message }]);
  }
}

/**
 * An optimistic-lock check failed: the caller's expected version is not the stored one.
 *
 * @example
 * new ConflictError('state_patch.expected_version', 3, 4)
 */
export class ConflictError extends EngramError {
  readonly expected: number;
  readonly actual: number;

  constructor(field: string, expected: number, actual: number, cause?: unknown) {
    super('STATE_VERSION_CONFLICT', `${field}: expected version ${expected} but the stored version is ${actual}`, {
      field,
      cause,
      details: { expected, actual },
    });
    this.name = 'ConflictError';
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A named record does not exist (or is not visible in the caller's scope).
 *
 * @example
 * new NotFoundError('event_id', 'evt_01J…')
 */
export class NotFoundError extends EngramError {
  constructor(field: string, id: string) {
    super('NOT_FOUND', `${field}: no record ${JSON.stringify(id)} in this scope`, { field, details: { id } });
    this.name = 'NotFoundError';
  }
}

/**
 * The storage layer failed (I/O, corruption, a constraint the domain did not expect).
 *
 * @example
 * new StorageError('could not open the database file', { cause })
 */
export class StorageError extends EngramError {
  constructor(message: string, options: EngramErrorOptions = {}) {
    super('STORAGE_FAILED', message, options);
    this.name = 'StorageError';
  }
}

/**
 * The same error with its fields renamed (a library request's field to the name a caller used for
 * it); errors without a field, and non-Engram errors, are returned as they are.
 *
 * @example
 * renameFields(error, (field) => field.replace(/^scope\./, ''))
 */
export function renameFields(error: unknown, rename: (field: string) => string): unknown {
  if (!EngramError.isInstance(error) || error.field === undefined) return error;
  const issues = error.details['issues'];
  if (error.code === 'VALIDATION_FAILED' && Array.isArray(issues)) {
    return new ValidationError((issues as ValidationIssue[]).map((issue) => ({ ...issue, field: rename(issue.field) })), { cause: error });
  }
  const field = rename(error.field);
  if (field === error.field) return error;
  if (error instanceof ConflictError) return new ConflictError(field, error.expected, error.actual, error);
  return new EngramError(error.code, error.message.replace(error.field, field), { field, cause: error, details: error.details });
}

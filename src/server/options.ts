// The options of the HTTP server, their defaults and their checks: a bad option is CONFIG_INVALID
// naming it, and auth 'none' is refused on anything but a loopback host.

import { DEFAULT_MAX_LINE_BYTES, EngramError } from '../index.js';
import { isLoopback, type AuthMode } from './auth.js';

/**
 * Options of `createServer`.
 *
 * @example
 * const options: ServerOptions = { auth: 'keys', host: '0.0.0.0', rateLimit: { max: 1200, timeWindowMs: 60_000 } };
 */
export interface ServerOptions {
  /** `keys`: every /v1 and /mcp request needs an API key. `none`: loopback only, default tenant, admin. */
  auth: AuthMode;
  /** The host the server will listen on (and `listen` uses by default); auth 'none' needs a loopback one. */
  host?: string;
  /** Largest request body in bytes (default 1 MiB); larger ones are 413 PAYLOAD_TOO_LARGE. */
  bodyLimit?: number;
  /** Longest a request may take in ms (default 30 s); slower ones are 503 TIMEOUT. */
  requestTimeoutMs?: number;
  /**
   * Longest line of a POST /v1/import body in bytes (default 16 MiB, up to 1 GiB); a longer line
   * stops the import with 400 naming it, and its bytes are never held past this size.
   */
  importMaxLineBytes?: number;
  /**
   * Requests per key per window (default 600 a minute); more are 429 RATE_LIMITED. Each JSON-RPC
   * message of an /mcp batch counts as one request. Counts are kept per process.
   */
  rateLimit?: { max?: number; timeWindowMs?: number };
  /** Failed authentications per client address per window (default 20 a minute); past it, 429 RATE_LIMITED. */
  authFailureLimit?: { max?: number; timeWindowMs?: number };
  /**
   * Host names (without port) that also name this server, e.g. behind a reverse proxy. Requests
   * whose Host or Origin names anything else are refused: always under auth 'none' or on a
   * loopback host, and on any host once this list is given.
   */
  allowedHosts?: readonly string[];
  /** Structured logs (pino): true (default), false, or pino options. Keys and bodies are never logged. */
  logger?: boolean | Record<string, unknown>;
  /** Require a key (any role) for /metrics (default false). */
  metricsAuth?: boolean;
  /** Serve the web inspector at /ui (default true); it uses the API like any client. */
  inspector?: boolean;
  /** The tool list /mcp shows: `lean` (default, each tool's common arguments) or `full` (every argument, output schemas). */
  mcpTools?: 'lean' | 'full';
}

/** Options with every default filled. */
export interface ResolvedServerOptions {
  auth: AuthMode;
  host: string | undefined;
  bodyLimit: number;
  requestTimeoutMs: number;
  importMaxLineBytes: number;
  rateLimit: { max: number; timeWindowMs: number };
  authFailureLimit: { max: number; timeWindowMs: number };
  allowedHosts: readonly string[];
  logger: boolean | Record<string, unknown>;
  metricsAuth: boolean;
  inspector: boolean;
  mcpTools: 'lean' | 'full';
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_RATE_LIMIT = { max: 600, timeWindowMs: 60_000 } as const;
export const DEFAULT_AUTH_FAILURE_LIMIT = { max: 20, timeWindowMs: 60_000 } as const;

/** A bare host name or address, as a Host header carries it without its port. */
const HOST_NAME =
  /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

function hostNames(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value))
    throw new EngramError('CONFIG_INVALID', 'allowedHosts: must be a list of host names', { field: 'allowedHosts' });
  return value.map((name: unknown, index) => {
    const lower = typeof name === 'string' ? name.toLowerCase() : '';
    const canonical =
      HOST_NAME.test(lower) && URL.canParse(`http://${lower}`) ? new URL(`http://${lower}`).hostname : null;
    if (canonical === null)
      throw new EngramError(
        'CONFIG_INVALID',
        `allowedHosts[${index}]: must be a host name or address without scheme or port`,
        { field: `allowedHosts[${index}]` },
      );
    // The form a Host header is compared in (IPv6 compressed, IPv4 dotted).
    return canonical;
  });
}

/** The largest import line cap: a line can be no longer than the largest import body (1 GiB). */
const MAX_IMPORT_LINE_BYTES = 1024 * 1024 * 1024;

function atMost(value: number, field: string, ceiling: number): number {
  if (value > ceiling) throw new EngramError('CONFIG_INVALID', `${field}: must be at most ${ceiling}`, { field });
  return value;
}

function positive(value: unknown, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new EngramError('CONFIG_INVALID', `${field}: must be a whole number of at least 1`, { field });
  return value;
}

/**
 * Checks the options and fills their defaults.
 *
 * @example
 * resolveServerOptions({ auth: 'none', host: '0.0.0.0' }) // throws CONFIG_INVALID (host)
 */
export function resolveServerOptions(options: ServerOptions): ResolvedServerOptions {
  if (typeof options !== 'object' || options === null)
    throw new EngramError('CONFIG_INVALID', 'options: must be an object', { field: 'options' });
  if (options.auth !== 'keys' && options.auth !== 'none')
    throw new EngramError('CONFIG_INVALID', "auth: must be 'keys' or 'none'", { field: 'auth' });
  if (options.host !== undefined && (typeof options.host !== 'string' || options.host === ''))
    throw new EngramError('CONFIG_INVALID', 'host: must be a host name or address', { field: 'host' });
  if (options.auth === 'none' && !isLoopback(options.host)) {
    throw new EngramError(
      'CONFIG_INVALID',
      "host: auth 'none' is allowed only on a loopback host (127.0.0.1, ::1, localhost)",
      { field: 'host' },
    );
  }
  if (options.mcpTools !== undefined && options.mcpTools !== 'lean' && options.mcpTools !== 'full') {
    throw new EngramError('CONFIG_INVALID', "mcpTools: must be 'lean' or 'full'", { field: 'mcpTools' });
  }
  const logger = options.logger ?? true;
  if (typeof logger !== 'boolean' && (typeof logger !== 'object' || logger === null))
    throw new EngramError('CONFIG_INVALID', 'logger: must be a boolean or pino options', { field: 'logger' });
  return {
    auth: options.auth,
    host: options.host,
    bodyLimit: positive(options.bodyLimit, 'bodyLimit', DEFAULT_BODY_LIMIT),
    requestTimeoutMs: positive(options.requestTimeoutMs, 'requestTimeoutMs', DEFAULT_REQUEST_TIMEOUT_MS),
    importMaxLineBytes: atMost(
      positive(options.importMaxLineBytes, 'importMaxLineBytes', DEFAULT_MAX_LINE_BYTES),
      'importMaxLineBytes',
      MAX_IMPORT_LINE_BYTES,
    ),
    rateLimit: {
      max: positive(options.rateLimit?.max, 'rateLimit.max', DEFAULT_RATE_LIMIT.max),
      timeWindowMs: positive(
        options.rateLimit?.timeWindowMs,
        'rateLimit.timeWindowMs',
        DEFAULT_RATE_LIMIT.timeWindowMs,
      ),
    },
    authFailureLimit: {
      max: positive(options.authFailureLimit?.max, 'authFailureLimit.max', DEFAULT_AUTH_FAILURE_LIMIT.max),
      timeWindowMs: positive(
        options.authFailureLimit?.timeWindowMs,
        'authFailureLimit.timeWindowMs',
        DEFAULT_AUTH_FAILURE_LIMIT.timeWindowMs,
      ),
    },
    allowedHosts: hostNames(options.allowedHosts),
    logger,
    metricsAuth: options.metricsAuth === true,
    inspector: options.inspector !== false,
    mcpTools: options.mcpTools ?? 'lean',
  };
}

/** Never in a log line: credentials. (Fastify does not log bodies or headers by default.) */
const REDACT = {
  paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'authorization'],
  censor: '[redacted]',
};

/**
 * Fastify's logger option: pino with credentials redacted, or off.
 *
 * @example
 * loggerOptions(true) // { redact: { paths: [...], censor: '[redacted]' } }
 */
export function loggerOptions(logger: boolean | Record<string, unknown>): false | Record<string, unknown> {
  if (logger === false) return false;
  const given = logger === true ? {} : logger;
  const redact = given['redact'];
  const paths =
    typeof redact === 'object' && redact !== null && !Array.isArray(redact)
      ? (redact as { paths?: unknown }).paths
      : redact;
  const extra = Array.isArray(paths) ? paths.filter((path): path is string => typeof path === 'string') : [];
  return { ...given, redact: { ...REDACT, paths: [...REDACT.paths, ...extra] } };
}

// The server's defence against DNS rebinding: a request must name this server in its Host header,
// and a browser's Origin must be this server's own. Without it, a page on attacker.example whose
// name was made to resolve to 127.0.0.1 reaches a loopback server through the visitor's browser.

import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

import { isLoopback, type AuthMode } from './auth.js';
import { HttpError } from './http-error.js';

/** What decides whether and how requests are checked. */
export interface HostPolicyOptions {
  auth: AuthMode;
  /** Host names (canonical, without port) that also name this server. */
  allowedHosts: readonly string[];
}

/** Allow lists in the form the MCP SDK's own DNS-rebinding check compares (whole header values). */
export interface RebindingAllowList {
  allowedHosts: string[];
  allowedOrigins: string[];
}

/** How a loopback server is named in a Host header. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'] as const;

/** Health probes carry no data, and orchestrators call them by pod address. */
const UNCHECKED = new Set(['/healthz', '/readyz']);

interface Authority {
  hostname: string;
  port: number;
  protocol: string;
}

/** The host name and port of a Host header (http) or an Origin; null when it is not one. */
function authorityOf(text: string, origin: boolean): Authority | null {
  // A Host header is a bare authority: no user info, path or spaces that URL parsing would skip.
  if (!origin && !/^[^\s/?#@\\]+$/.test(text)) return null;
  if (!URL.canParse(origin ? text : `http://${text}`)) return null;
  const url = new URL(origin ? text : `http://${text}`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return { hostname: url.hostname, port, protocol: url.protocol };
}

/** True when requests to this server are checked: no auth, an allow list, or a loopback listener. */
function enforced(request: FastifyRequest, options: HostPolicyOptions): boolean {
  if (options.auth === 'none' || options.allowedHosts.length > 0) return true;
  const address = request.server.server.address();
  return typeof address === 'object' && address !== null && isLoopback(address.address);
}

function names(authority: Authority, localPort: number, options: HostPolicyOptions): boolean {
  // Names the operator listed stand for the server on any port (a proxy may front it).
  if (options.allowedHosts.includes(authority.hostname)) return true;
  return isLoopback(authority.hostname) && authority.protocol === 'http:' && authority.port === localPort;
}

function refusal(
  field: 'host' | 'origin',
  value: string | undefined,
  localPort: number,
  options: HostPolicyOptions,
): HttpError {
  const known = [...LOOPBACK_NAMES.map((name) => `${name}:${localPort}`), ...options.allowedHosts].join(', ');
  if (field === 'host') {
    const given =
      value === undefined
        ? 'a request without a Host header does not name'
        : `Host ${JSON.stringify(value.slice(0, 200))} does not name`;
    return new HttpError(
      'MISDIRECTED_REQUEST',
      `host: ${given} this server (it answers to ${known}; add other names with allowedHosts)`,
      'host',
    );
  }
  return new HttpError(
    'FORBIDDEN',
    `origin: ${JSON.stringify((value ?? '').slice(0, 200))} is not this server's own origin (${known}); cross-origin requests are refused`,
    'origin',
  );
}

/**
 * An onRequest hook that refuses a request whose Host does not name this server (421
 * MISDIRECTED_REQUEST) or whose Origin is another site's (403 FORBIDDEN, field `origin`). It
 * checks under auth 'none', on a loopback listener, and everywhere once `allowedHosts` is given.
 *
 * @example
 * app.addHook('onRequest', checkHost({ auth: 'none', allowedHosts: [] }));
 */
export function checkHost(options: HostPolicyOptions): onRequestAsyncHookHandler {
  return async (request) => {
    const host = request.headers.host;
    if (host === undefined && request.raw.httpVersion !== '1.0')
      throw new HttpError('BAD_REQUEST', 'host: an HTTP/1.1 request must carry a Host header', 'host');
    if (UNCHECKED.has(request.url.split('?')[0]!) || !enforced(request, options)) return;
    const localPort = request.raw.socket.localPort ?? 0;
    const authority = host === undefined ? null : authorityOf(host, false);
    if (authority === null || !names(authority, localPort, options)) throw refusal('host', host, localPort, options);
    const origin = request.headers.origin;
    if (origin === undefined) return;
    // `Origin: null` (a sandboxed frame, a file) is never this server's own page.
    const from = authorityOf(origin, true);
    if (from === null || !names(from, localPort, options)) throw refusal('origin', origin, localPort, options);
  };
}

/**
 * The allow lists for the MCP SDK's DNS-rebinding check on this request, or null when the server
 * does not check this request: the loopback names on the listening port, the allowed names bare
 * and on that port, and the request's own Host and Origin when they carry an allowed name.
 *
 * @example
 * rebindingAllowList(request, { auth: 'none', allowedHosts: [] })
 * // { allowedHosts: ['127.0.0.1:8787', 'localhost:8787', '[::1]:8787'], allowedOrigins: ['http://127.0.0.1:8787', …] }
 */
export function rebindingAllowList(request: FastifyRequest, options: HostPolicyOptions): RebindingAllowList | null {
  if (!enforced(request, options)) return null;
  const port = request.raw.socket.localPort ?? 0;
  // On port 80 a client may leave the port out or spell it.
  const onPort = (name: string) => (port === 80 ? [name, `${name}:80`] : [`${name}:${port}`]);
  const allowedHosts = [
    ...LOOPBACK_NAMES.flatMap(onPort),
    ...options.allowedHosts.flatMap((name) => [name, `${name}:${port}`]),
  ];
  const allowedOrigins = [
    ...LOOPBACK_NAMES.flatMap((name) => onPort(name).map((authority) => `http://${authority}`)),
    ...options.allowedHosts.flatMap((name) =>
      ['http', 'https'].flatMap((scheme) => [`${scheme}://${name}`, `${scheme}://${name}:${port}`]),
    ),
  ];
  const { host, origin } = request.headers;
  const hostAuthority = host === undefined ? null : authorityOf(host, false);
  if (host !== undefined && hostAuthority !== null && options.allowedHosts.includes(hostAuthority.hostname))
    allowedHosts.push(host);
  const originAuthority = origin === undefined ? null : authorityOf(origin, true);
  if (origin !== undefined && originAuthority !== null && options.allowedHosts.includes(originAuthority.hostname))
    allowedOrigins.push(origin);
  return { allowedHosts, allowedOrigins };
}

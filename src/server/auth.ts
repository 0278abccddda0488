// Who a request speaks for: the bearer key's principal (tenant and role), checked against the
// route's role. With auth 'none' every request is the default tenant's admin, but only on loopback.

import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

import type { Engram, KeyPrincipal, KeyRole } from '../index.js';
import { HttpError } from './http-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified key's principal; null on routes without authentication. */
    principal: KeyPrincipal | null;
  }
  interface FastifyContextConfig {
    /** The least role a route needs (default read). */
    role?: KeyRole;
  }
}

/** How requests authenticate: API keys, or none (loopback only). */
export type AuthMode = 'keys' | 'none';

/** The principal of every request under auth 'none'. */
export const NO_AUTH_PRINCIPAL: Readonly<KeyPrincipal> = Object.freeze({ key_id: 'none', tenant_id: 'default', role: 'admin' });

const RANK: Readonly<Record<KeyRole, number>> = { read: 0, write: 1, admin: 2 };

/**
 * True for a loopback host name or address (127.0.0.0/8, ::1, localhost).
 *
 * @example
 * isLoopback('127.0.0.1') // true
 * isLoopback('0.0.0.0') // false
 */
export function isLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * The key of an `Authorization: Bearer <key>` header, or null.
 *
 * @example
 * bearerOf('Bearer egk_abc') // 'egk_abc'
 */
export function bearerOf(header: string | undefined): string | null {
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}

async function principalOf(engram: Engram, mode: AuthMode, request: FastifyRequest): Promise<KeyPrincipal> {
  if (mode === 'none') {
    // Defence in depth: even if the server was made to listen elsewhere, only loopback is served.
    if (!isLoopback(request.raw.socket.localAddress)) throw new HttpError('FORBIDDEN', "auth 'none' serves loopback connections only");
    return { ...NO_AUTH_PRINCIPAL };
  }
  const key = bearerOf(request.headers.authorization);
  if (key === null) throw new HttpError('UNAUTHENTICATED', 'send an API key as Authorization: Bearer <key>', 'authorization');
  const principal = await engram.keys.verify(key);
  if (principal === null) throw new HttpError('UNAUTHENTICATED', 'the API key is unknown or revoked', 'authorization');
  return principal;
}

/**
 * An onRequest hook that verifies the key and the route's role, and sets `request.principal`.
 *
 * @example
 * api.addHook('onRequest', authenticate(engram, 'keys'));
 */
export function authenticate(engram: Engram, mode: AuthMode): onRequestAsyncHookHandler {
  return async (request) => {
    const principal = await principalOf(engram, mode, request);
    request.principal = principal;
    const needed = request.routeOptions.config.role ?? 'read';
    if (RANK[principal.role] < RANK[needed]) {
      throw new HttpError('FORBIDDEN', `${request.method} ${request.routeOptions.url ?? request.url} needs a ${needed} key; this key is ${principal.role}`);
    }
  };
}

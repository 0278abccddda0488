// Who a request speaks for: the bearer key's principal (tenant and role), checked against the
// route's role; failed attempts are limited per address. With auth 'none' every request is the
// default tenant's admin, but only on loopback.

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';

import type { Engram, KeyPrincipal, KeyRole } from '../index.js';
import type { AuthFailures } from './auth-failures.js';
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
export const NO_AUTH_PRINCIPAL: Readonly<KeyPrincipal> = Object.freeze({
  key_id: 'none',
  tenant_id: 'default',
  role: 'admin',
});

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

async function verifiedKey(
  engram: Engram,
  request: FastifyRequest,
  reply: FastifyReply,
  failures: AuthFailures | undefined,
): Promise<KeyPrincipal> {
  const key = bearerOf(request.headers.authorization);
  // IPv6 clients are counted by /64, as the request rate limit counts them: one host has many addresses.
  const address = normalizeIP(request.ip);
  const wait = failures === undefined ? 0 : failures.retryAfter(address, key);
  if (failures !== undefined && wait > 0) {
    // Refused before the key is looked up: guessing keys from this address costs no store reads.
    reply.header('retry-after', String(wait));
    throw new HttpError(
      'RATE_LIMITED',
      `too many failed authentications from this address (${failures.allowance.max} per window); retry in ${wait} s`,
    );
  }
  if (key === null) {
    failures?.failed(address, null);
    throw new HttpError('UNAUTHENTICATED', 'send an API key as Authorization: Bearer <key>', 'authorization');
  }
  const principal = await engram.keys.verify(key);
  if (principal === null) {
    failures?.failed(address, key);
    throw new HttpError('UNAUTHENTICATED', 'the API key is unknown or revoked', 'authorization');
  }
  failures?.succeeded(key);
  return principal;
}

async function principalOf(
  engram: Engram,
  mode: AuthMode,
  request: FastifyRequest,
  reply: FastifyReply,
  failures: AuthFailures | undefined,
): Promise<KeyPrincipal> {
  if (mode === 'none') {
    // Defence in depth: even if the server was made to listen elsewhere, only loopback is served.
    if (!isLoopback(request.raw.socket.localAddress))
      throw new HttpError('FORBIDDEN', "auth 'none' serves loopback connections only");
    return { ...NO_AUTH_PRINCIPAL };
  }
  return verifiedKey(engram, request, reply, failures);
}

/**
 * An onRequest hook that verifies the key and the route's role, and sets `request.principal`.
 * With `failures`, an address past its allowance of failed authentications is 429 RATE_LIMITED.
 *
 * @example
 * api.addHook('onRequest', authenticate(engram, 'keys', new AuthFailures({ max: 20, timeWindowMs: 60_000 })));
 */
export function authenticate(engram: Engram, mode: AuthMode, failures?: AuthFailures): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const principal = await principalOf(engram, mode, request, reply, failures);
    request.principal = principal;
    const needed = request.routeOptions.config.role ?? 'read';
    if (RANK[principal.role] < RANK[needed]) {
      throw new HttpError(
        'FORBIDDEN',
        `${request.method} ${request.routeOptions.url ?? request.url} needs a ${needed} key; this key is ${principal.role}`,
      );
    }
  };
}

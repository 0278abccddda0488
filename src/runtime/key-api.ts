// API keys for the service: created with a random secret shown once, stored as its SHA-256, bound
// to one tenant and a role; verified by hash (the tenant comes from the key); revoked per tenant.

import { randomBytes } from 'node:crypto';

import { KEY_ROLES, type ApiKeyInfo, type ApiKeyRecord, type KeyPrincipal, type KeyRole } from '../spec/auth.js';
import { ConflictError, ValidationError } from '../spec/errors.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { newId, sha256 } from '../util/ids.js';
import { requireId, requireTenant, requireText, tenantOrDefault } from './arguments.js';

/** Every secret starts with this, so a leaked key is easy to recognise (and to scan for). */
export const KEY_PREFIX = 'egk_';
const SECRET_BYTES = 32;

export interface KeyApiContext {
  storage: StorageAdapter;
  now: () => string;
}

/** API keys (`engram.keys`). */
export interface Keys {
  /** A new key: `key` is the secret, shown this once (only its hash is stored). */
  create(request: { tenant_id?: string; role: KeyRole; label?: string }): Promise<{ info: ApiKeyInfo; key: string }>;
  /** A tenant's keys (every tenant's when `tenant_id` is omitted), without their hashes. */
  list(tenantId?: string): Promise<ApiKeyInfo[]>;
  /** Revokes a key of a tenant; requests with it fail from then on. */
  revoke(keyId: string, tenantId?: string): Promise<void>;
  /** Who a secret speaks for, or null when it is unknown, malformed or revoked. */
  verify(secret: string): Promise<KeyPrincipal | null>;
  /**
   * The first-start admin key of tenant `default`: created when the store has no key at all, else
   * null. Several servers starting at once on one empty store create it once (it has a fixed id, so
   * every other attempt finds it taken) and only the one that created it gets the secret.
   */
  bootstrap(): Promise<{ info: ApiKeyInfo; key: string } | null>;
}

/** The id of the first-start key (a valid key id, the smallest one). */
const FIRST_KEY_ID = `key_${'0'.repeat(26)}`;

function infoOf(record: ApiKeyRecord): ApiKeyInfo {
  const { hash: _hash, ...info } = record;
  return info;
}

/**
 * The key operations over a context (made fresh per call, so a closed Engram fails typed).
 *
 * @example
 * const { key } = await keysOf(() => context).create({ role: 'admin', label: 'first start' });
 */
export function keysOf(context: () => KeyApiContext): Keys {
  const store = async (id: string, tenantId: string, role: KeyRole, label: string | null) => {
    const ctx = context();
    const key = `${KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
    const record: ApiKeyRecord = {
      id,
      tenant_id: tenantId,
      role,
      label,
      hash: sha256(key),
      last4: key.slice(-4),
      created_at: ctx.now(),
      revoked_at: null,
    };
    await ctx.storage.write([{ op: 'put_api_key', api_key: record }]);
    return { info: infoOf(record), key };
  };
  return {
    create: async (request) => {
      const tenantId = request.tenant_id ?? DEFAULT_TENANT;
      requireTenant(tenantId);
      if (!KEY_ROLES.includes(request.role))
        throw ValidationError.of('role', 'enum', `must be one of ${KEY_ROLES.join(', ')}`);
      const label = request.label ?? null;
      if (label !== null && (typeof label !== 'string' || label.length > 200))
        throw ValidationError.of('label', 'maxLength', 'must be a string of at most 200 characters');
      if (label !== null) requireText(label, 'label');
      return store(newId('key'), tenantId, request.role, label);
    },
    bootstrap: async () => {
      if ((await context().storage.service.listApiKeys(undefined)).length > 0) return null;
      try {
        return await store(FIRST_KEY_ID, DEFAULT_TENANT, 'admin', 'created on first start');
      } catch (error) {
        // Another process created it between the check and the write.
        if (ConflictError.isInstance(error) && error.origin === 'concurrent') return null;
        throw error;
      }
    },
    list: async (tenantId) => {
      if (tenantId !== undefined) requireTenant(tenantId);
      return (await context().storage.service.listApiKeys(tenantId)).map(infoOf);
    },
    revoke: async (keyId, tenantId) => {
      requireId('key', keyId, 'key_id');
      const tenant = tenantOrDefault(tenantId);
      const ctx = context();
      await ctx.storage.write([{ op: 'revoke_api_key', tenant_id: tenant, key_id: keyId, revoked_at: ctx.now() }]);
    },
    verify: async (secret) => {
      if (typeof secret !== 'string' || !secret.startsWith(KEY_PREFIX) || secret.length > 200) return null;
      const record = await context().storage.service.findApiKey(sha256(secret));
      if (record === null || record.revoked_at !== null) return null;
      return { key_id: record.id, tenant_id: record.tenant_id, role: record.role };
    },
  };
}

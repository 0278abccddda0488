// API keys of the service (HTTP and MCP): each is bound to one tenant and a role, and stored only
// as a hash. The tenant of every request comes from its key, never from the request body.

/** What a key may do: `read` reads, `write` also writes memory, `admin` also manages keys. */
export type KeyRole = 'read' | 'write' | 'admin';

export const KEY_ROLES: readonly KeyRole[] = ['read', 'write', 'admin'];

/** A stored API key (the secret itself is never stored: `hash` is its SHA-256). */
export interface ApiKeyRecord {
  /** `key_…`: names the key for listing and revoking. */
  id: string;
  tenant_id: string;
  role: KeyRole;
  label: string | null;
  /** SHA-256 (hex) of the secret. */
  hash: string;
  /** The secret's last four characters, to tell keys apart in a list. */
  last4: string;
  created_at: string;
  revoked_at: string | null;
}

/** A key as listed: everything but its hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'hash'>;

/** Who a verified key speaks for. */
export interface KeyPrincipal {
  key_id: string;
  tenant_id: string;
  role: KeyRole;
}

/**
 * What a key is (GET /v1/whoami): who it speaks for and its label (its id when it has none).
 *
 * @example
 * const identity: KeyIdentity = { key_id: 'key_…', tenant_id: 'acme', role: 'write', label: 'ops' };
 */
export interface KeyIdentity extends KeyPrincipal {
  label: string;
}

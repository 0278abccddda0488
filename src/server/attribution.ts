// Who a write speaks for: a key's label (its id when it has none), shown by GET /v1/whoami and
// stamped into the provenance of writes that name the inspector (`rule: "inspector"` or
// `"inspector:…"` becomes `inspector:<label>`), so such a write cannot claim another key's name.

import type { Engram, KeyIdentity, KeyPrincipal } from '../index.js';
import { isObject } from './tenancy.js';

/**
 * The principal with its key's label (the key id when the key has none; `no-auth` without keys).
 *
 * @example
 * await identify(engram, principal) // { key_id: 'key_…', tenant_id: 'acme', role: 'write', label: 'ops' }
 */
export async function identify(engram: Engram, principal: KeyPrincipal): Promise<KeyIdentity> {
  if (principal.key_id === 'none') return { ...principal, label: 'no-auth' };
  const key = (await engram.keys.list(principal.tenant_id)).find((info) => info.id === principal.key_id);
  return { ...principal, label: key?.label ?? principal.key_id };
}

const INSPECTOR = /^inspector(:|$)/;

/**
 * A write's body with an inspector rule stamped with the key's label; other bodies as they came.
 *
 * @example
 * await attributed(engram, principal, { ...remember, rule: 'inspector' }) // rule 'inspector:ops'
 */
export async function attributed(engram: Engram, principal: KeyPrincipal, body: unknown): Promise<unknown> {
  if (!isObject(body) || typeof body['rule'] !== 'string' || !INSPECTOR.test(body['rule'])) return body;
  // A rule is at most 200 characters; a label may be as long.
  return { ...body, rule: `inspector:${(await identify(engram, principal)).label}`.slice(0, 200) };
}

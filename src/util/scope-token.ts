// Scope tokens: one opaque word per scope level, indexed beside an event's text so a full-text
// query can be restricted to a user, agent or session by the index itself.

import { createHash } from 'node:crypto';

// Writers index the same few scopes over and over; remember their tokens (bounded).
const cache = new Map<string, string>();
const CACHE_SIZE = 4096;

function token(prefix: string, parts: readonly string[]): string {
  // Length-prefixed parts, so ('ab','c') and ('a','bc') never share a token.
  const material = `${prefix}|${parts.map((part) => `${part.length}:${part}`).join('|')}`;
  let value = cache.get(material);
  if (value === undefined) {
    value = `${prefix}${createHash('sha256').update(material.slice(prefix.length + 1)).digest('hex').slice(0, 24)}`;
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(material, value);
  }
  return value;
}

export interface ScopeParts {
  tenant_id: string;
  user_id: string;
  agent_id?: string;
  session_id?: string;
}

/**
 * The scope tokens to index for an event of this scope (user, agent and session levels).
 *
 * @example
 * scopeTokensToIndex({ tenant_id: 't', user_id: 'u', agent_id: 'a', session_id: 's' }).length // 3
 */
export function scopeTokensToIndex(scope: Required<ScopeParts>): string[] {
  return [
    token('zu', [scope.tenant_id, scope.user_id]),
    token('za', [scope.tenant_id, scope.user_id, scope.agent_id]),
    token('zs', [scope.tenant_id, scope.user_id, scope.agent_id, scope.session_id]),
  ];
}

/**
 * The one token that selects the narrowest scope given (session if given, else agent, else user).
 *
 * @example
 * scopeTokenForQuery({ tenant_id: 't', user_id: 'u' })
 */
export function scopeTokenForQuery(scope: ScopeParts): string {
  if (scope.agent_id !== undefined && scope.session_id !== undefined) {
    return token('zs', [scope.tenant_id, scope.user_id, scope.agent_id, scope.session_id]);
  }
  if (scope.agent_id !== undefined) return token('za', [scope.tenant_id, scope.user_id, scope.agent_id]);
  return token('zu', [scope.tenant_id, scope.user_id]);
}

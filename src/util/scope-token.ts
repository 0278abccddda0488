// Scope prefixes for full-text indexing: every indexed word is stored as `<prefix>_<word>`, where
// the prefix names the (tenant, user, agent) it belongs to. A scoped query then reads only that
// scope's postings, so its cost follows the scope, never the size of the whole index.

import { createHash } from 'node:crypto';

import { LRUCache } from 'lru-cache';

export interface ScopeParts {
  tenant_id: string;
  user_id: string;
  agent_id: string;
}

// Writers index the same few scopes over and over; remember their prefixes (bounded).
const cache = new LRUCache<string, string>({ max: 4096 });

/**
 * The index prefix of a (tenant, user, agent) scope: `k` and 15 decimal digits of a hash.
 *
 * @example
 * scopePrefix({ tenant_id: 't', user_id: 'u', agent_id: 'a' }) // 'k069541920532125'
 */
export function scopePrefix(scope: ScopeParts): string {
  return prefixOf('k', [scope.tenant_id, scope.user_id, scope.agent_id]);
}

/**
 * The index prefix of an item owner (`u:<user>`, `a:<agent>` or `t`) in a tenant.
 *
 * @example
 * ownerPrefix('acme', 'u:mira') // 'j…'
 */
export function ownerPrefix(tenantId: string, owner: string): string {
  return prefixOf('j', [tenantId, owner]);
}

function prefixOf(letter: string, parts: readonly string[]): string {
  // Length-prefixed parts, so ('ab','c') and ('a','bc') never share a prefix.
  const material = `${letter}|${parts.map((part) => `${part.length}:${part}`).join('|')}`;
  let prefix = cache.get(material);
  if (prefix === undefined) {
    // Digits only: the Porter stemmer sees no vowels in the prefix, so it stems `<prefix>_<word>`
    // exactly as it stems the word alone.
    const digits = Number.parseInt(createHash('sha256').update(material.slice(2)).digest('hex').slice(0, 12), 16);
    prefix = `${letter}${digits.toString().padStart(15, '0')}`;
    cache.set(material, prefix);
  }
  return prefix;
}

/**
 * The index text of words in a scope.
 *
 * @example
 * scopedText('k069541920532125', 'i prefer tea') // 'k069541920532125_i k069541920532125_prefer k069541920532125_tea'
 */
export function scopedText(prefix: string, text: string): string {
  return text
    .split(' ')
    .filter((word) => word !== '')
    .map((word) => `${prefix}_${word}`)
    .join(' ');
}

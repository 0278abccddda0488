// How a LangGraph store item lives in Engram's long-term memory: namespace [user_id, ...rest] is
// the user's scope, and the rest with the item's key is encoded into a profile key,
// `profile:langgraph.<rest…>.<key>`, whose one fact is the stored value under the item's key.

import type { MemoryItem, RememberRequest } from '../../index.js';
import { ValidationError } from '../../index.js';

/** The tag every item the store writes carries, so listings tell them from other profile items. */
export const STORE_TAG = 'langgraph-store';

const MARKER = 'langgraph';
const SEGMENT_LIMIT = 200;
// What a key segment may not hold (colons, white space, control characters), the separator `.` and
// the escape `%` itself: each becomes %XX of its UTF-8 bytes.
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be escaped
const ESCAPED = /[%.:\s\u0000-\u001f\u007f]/gu;

function encodePart(part: string): string {
  return part.replace(ESCAPED, (char) => encodeURIComponent(char).replace(/[.]/gu, '%2E'));
}

/** The value of a store item as Engram keeps it: one profile fact named by the item's key. */
export interface StoredEntry {
  namespace: string[];
  key: string;
  value: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The profile key of a store item.
 *
 * @example
 * itemKeyOf(['mira', 'memories'], 'food') // 'profile:langgraph.memories.food'
 */
export function itemKeyOf(namespace: readonly string[], key: string): string {
  const segment = [MARKER, ...namespace.slice(1), key].map(encodePart).join('.');
  if (segment.length > SEGMENT_LIMIT) {
    throw ValidationError.of(
      'key',
      'key_rule',
      `namespace ${JSON.stringify(namespace)} with key ${JSON.stringify(key)} takes ${segment.length} characters once encoded; at most ${SEGMENT_LIMIT} fit in an item key`,
    );
  }
  return `profile:${segment}`;
}

/**
 * The namespace below the user and the item key an Engram key encodes; undefined for a key the
 * store did not write.
 *
 * @example
 * pathOfKey('profile:langgraph.memories.food') // { rest: ['memories'], key: 'food' }
 */
export function pathOfKey(itemKey: string): { rest: string[]; key: string } | undefined {
  if (!itemKey.startsWith(`profile:${MARKER}.`)) return undefined;
  try {
    const parts = itemKey.slice('profile:'.length).split('.').slice(1).map(decodeURIComponent);
    const key = parts.pop();
    return key === undefined ? undefined : { rest: parts, key };
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The remember request that writes a value: the namespace path is the profile's subject, and its
 * one fact holds the value under the item's key, `since` the first version's time.
 *
 * @example
 * rememberRequest({ user_id: 'mira', agent_id: 'assistant' }, ['mira', 'memories'], 'food', { likes: 'ramen' }, undefined)
 */
export function rememberRequest(
  scope: RememberRequest['scope'],
  namespace: readonly string[],
  key: string,
  value: Record<string, unknown>,
  since: string | undefined,
): RememberRequest {
  return {
    scope,
    type: 'profile',
    key: itemKeyOf(namespace, key),
    value: { subject: namespace.join('/'), facts: [{ k: key, v: value, ...(since === undefined ? {} : { since }) }] },
    tags: [STORE_TAG],
    rule: 'langgraph.store.put',
  };
}

/** The time the first version of an item's current value was written. */
export function createdAtOf(item: MemoryItem): string {
  const fact = isRecord(item.value) && Array.isArray(item.value['facts']) ? item.value['facts'][0] : undefined;
  return isRecord(fact) && typeof fact['since'] === 'string' ? fact['since'] : item.recorded_at;
}

/**
 * The store entry an Engram item holds, checked: undefined for an item of another writer (another
 * user's, another tag, another key or value shape).
 *
 * @example
 * const entry = entryOf(item, 'mira');
 */
export function entryOf(item: MemoryItem, userId: string): StoredEntry | undefined {
  if (
    item.type !== 'profile' ||
    item.scope_level !== 'user' ||
    item.user_id !== userId ||
    !item.tags.includes(STORE_TAG)
  )
    return undefined;
  const path = pathOfKey(item.key);
  const facts = isRecord(item.value) ? item.value['facts'] : undefined;
  if (path === undefined || !Array.isArray(facts) || facts.length !== 1) return undefined;
  const [fact] = facts as unknown[];
  if (!isRecord(fact) || fact['k'] !== path.key || !isRecord(fact['v'])) return undefined;
  return {
    namespace: [userId, ...path.rest],
    key: path.key,
    value: fact['v'],
    createdAt: new Date(createdAtOf(item)),
    updatedAt: new Date(item.recorded_at),
  };
}

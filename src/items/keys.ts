// Key rules of MemoryTypes v0.1 §3–4: one readable, stable key per fact, so the same fact always
// lands on the same key. A malformed key is a typed error naming the rule it broke.

import { ValidationError } from '../spec/errors.js';
import type { MemoryType } from '../spec/items.js';

interface KeyRule {
  prefix: string;
  /** Names of the segments after the prefix, for error messages. */
  segments: readonly string[];
  /** Allowed values of some segments. */
  allowed?: Readonly<Record<number, readonly string[]>>;
  /** Segments that must be a domain name: lower case letters (or letters of scripts without case), digits and underscores. */
  domainSegments?: readonly number[];
  /** A segment that must be a calendar date (YYYY-MM-DD). */
  dateSegment?: number;
}

export const KEY_RULES: Readonly<Record<MemoryType, KeyRule>> = {
  profile: { prefix: 'profile', segments: ['subject'] },
  // Any domain of preference (writing, coding, tools, ui, food, travel, music…), named as a domain.
  preferences: { prefix: 'pref', segments: ['scope', 'name'], domainSegments: [0] },
  goals: { prefix: 'goal', segments: ['project_or_topic', 'name'] },
  tasks: { prefix: 'task', segments: ['project', 'task_id'] },
  decisions: { prefix: 'decision', segments: ['project', 'topic'] },
  entities: {
    prefix: 'entity',
    segments: ['kind', 'canonical'],
    allowed: { 0: ['person', 'org', 'repo', 'file', 'url', 'topic', 'other'] },
  },
  events: { prefix: 'event', segments: ['project_or_scope', 'date', 'slug'], dateSegment: 1 },
  cases: { prefix: 'case', segments: ['domain', 'slug_or_id'] },
  patterns: { prefix: 'pattern', segments: ['domain', 'name'] },
  procedure: { prefix: 'procedure', segments: ['task_type', 'name'] },
};

// A segment: 1–200 characters, no colon, no white space, no control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what a key may not hold
const SEGMENT = /^[^\s:\u0000-\u001f\u007f]{1,200}$/u;
const DOMAIN = /^[\p{Ll}\p{Lo}\p{N}_]{1,64}$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Checks a key against its type's rule; throws ValidationError (field `key`, rule `key_rule`).
 *
 * @example
 * assertKey('preferences', 'pref:writing:tone') // ok
 * assertKey('preferences', 'pref:Food Diet:x')  // throws: scope must be a domain name
 */
export function assertKey(type: MemoryType, key: string, field = 'key'): void {
  const rule = KEY_RULES[type];
  const expected = `${rule.prefix}:${rule.segments.map((segment) => `<${segment}>`).join(':')}`;
  const fail = (message: string): never => {
    throw ValidationError.of(field, 'key_rule', `${JSON.stringify(key)} ${message} (a ${type} key is ${expected})`);
  };
  const parts = key.split(':');
  if (parts[0] !== rule.prefix) fail(`must start with "${rule.prefix}:"`);
  if (parts.length !== rule.segments.length + 1)
    fail(`must have ${rule.segments.length} part(s) after "${rule.prefix}:"`);
  parts.slice(1).forEach((part, index) => {
    const name = rule.segments[index]!;
    if (!SEGMENT.test(part)) fail(`has an empty or invalid ${name} (no spaces or colons, at most 200 characters)`);
    const allowed = rule.allowed?.[index];
    if (allowed !== undefined && !allowed.includes(part))
      fail(`has ${name} "${part}", which must be one of ${allowed.join(', ')}`);
    if (rule.domainSegments?.includes(index) === true && !DOMAIN.test(part)) {
      fail(
        `has ${name} "${part}", which must be a domain name: lower-case letters, digits and underscores, at most 64 (for example food or writing)`,
      );
    }
    if (rule.dateSegment === index && (!DATE.test(part) || Number.isNaN(Date.parse(part))))
      fail(`has ${name} "${part}", which must be a date YYYY-MM-DD`);
  });
}

/**
 * The type a key belongs to, from its prefix; undefined for an unknown prefix.
 *
 * @example
 * typeOfKey('decision:atlas:launch_date') // 'decisions'
 */
export function typeOfKey(key: string): MemoryType | undefined {
  const prefix = key.split(':', 1)[0];
  return (Object.keys(KEY_RULES) as MemoryType[]).find((type) => KEY_RULES[type].prefix === prefix);
}

/**
 * A key segment from free text: lower case, words joined by `_`, at most `max` characters.
 * Letters of any script are kept, so Chinese topics stay readable.
 *
 * @example
 * slug('Atlas 2.0 Launch!') // 'atlas_2_0_launch'
 * slug('发布计划') // '发布计划'
 */
export function slug(text: string, max = 60): string {
  const words = text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{M}\p{N}]+/gu);
  const joined = (words ?? []).join('_').slice(0, max).replace(/_+$/u, '');
  return joined === '' ? 'untitled' : joined;
}

/**
 * A key built from a type and its segment values (each passed through `slug` unless it is a date
 * or an allowed value), checked against the rule.
 *
 * @example
 * makeKey('decisions', ['Atlas', 'launch date']) // 'decision:atlas:launch_date'
 */
export function makeKey(type: MemoryType, segments: readonly string[]): string {
  const rule = KEY_RULES[type];
  const parts = segments.map((segment, index) => {
    if (rule.allowed?.[index]?.includes(segment) === true) return segment;
    if (rule.dateSegment === index) return segment;
    // Canonical entity names (repos, files, URLs) keep their separators; other segments are slugs.
    if (type === 'entities' && index === 1) return canonicalEntity(segment);
    return slug(segment);
  });
  const key = `${rule.prefix}:${parts.join(':')}`;
  assertKey(type, key);
  return key;
}

/** An entity's canonical name: lower case, no scheme, no colons or spaces. */
function canonicalEntity(name: string): string {
  const stripped = name
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//iu, '')
    .replace(/\/+$/u, '')
    .toLowerCase()
    .replace(/[\s:]+/gu, '_');
  return stripped.slice(0, 200) || 'untitled';
}

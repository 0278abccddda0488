// The value of each memory type (MemoryTypes v0.1 §3): its JSON Schema, how a new value merges into
// the current one, and the readable line a chunk, a search hit or a prompt shows for it.

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { stemmer } from 'stemmer';

import { ValidationError } from '../spec/errors.js';
import type { MemoryType } from '../spec/items.js';
import { issuesOf } from '../spec/schema-check.js';
import { words } from '../util/segment.js';
import { applyMergePatch } from '../working-memory/merge-patch.js';

const text = { type: 'string', minLength: 1, maxLength: 4000 };
const optionalText = { type: 'string', maxLength: 4000 };
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}' };

/** JSON Schemas of item values; extra properties are allowed, the listed ones are checked. */
export const VALUE_SCHEMAS: Readonly<Record<MemoryType, Record<string, unknown>>> = {
  profile: {
    type: 'object',
    required: ['subject', 'facts'],
    properties: {
      subject: text,
      facts: {
        type: 'array',
        maxItems: 200,
        items: { type: 'object', required: ['k', 'v'], properties: { k: text, v: {}, since: optionalText } },
      },
    },
  },
  preferences: {
    type: 'object',
    required: ['scope', 'name', 'value'],
    properties: { scope: text, name: text, value: {}, priority: { type: 'number', minimum: 0, maximum: 1 } },
  },
  goals: {
    type: 'object',
    required: ['name', 'description'],
    properties: { project: optionalText, name: text, description: text, status: optionalText },
  },
  tasks: {
    type: 'object',
    required: ['task_id', 'title', 'status'],
    properties: {
      project: optionalText,
      task_id: text,
      title: text,
      status: { enum: ['todo', 'doing', 'done', 'blocked'] },
      due: optionalText,
      notes: { type: 'array', items: { type: 'string' } },
    },
  },
  decisions: {
    type: 'object',
    required: ['topic', 'decision'],
    properties: { project: optionalText, topic: text, decision: text, rationale: optionalText, made_at: optionalText },
  },
  entities: {
    type: 'object',
    required: ['kind', 'canonical'],
    properties: {
      kind: text,
      canonical: text,
      aliases: { type: 'array', items: { type: 'string' } },
      attrs: { type: 'object' },
    },
  },
  events: {
    type: 'object',
    required: ['date', 'title'],
    properties: { scope: optionalText, date, title: text, impact: optionalText },
  },
  cases: {
    type: 'object',
    required: ['domain', 'problem', 'solution'],
    properties: { domain: text, problem: text, solution: text, outcome: optionalText, artifacts: { type: 'array' } },
  },
  patterns: {
    type: 'object',
    required: ['domain', 'name', 'rule'],
    properties: { domain: text, name: text, rule: text, confidence: { type: 'number', minimum: 0, maximum: 1 } },
  },
  procedure: {
    type: 'object',
    required: ['task_type', 'name', 'steps'],
    properties: {
      task_type: text,
      name: text,
      steps: { type: 'array', minItems: 1, items: { type: 'string' } },
      priority: { type: 'integer' },
    },
  },
};

let validators: Map<MemoryType, ValidateFunction> | undefined;

/**
 * Checks a value against its type's schema; throws ValidationError with fields under `value`.
 *
 * @example
 * assertValue('tasks', { task_id: 'ship', title: 'Ship it', status: 'todo' })
 */
export function assertValue(type: MemoryType, value: unknown, field = 'value'): void {
  if (validators === undefined) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    validators = new Map(
      (Object.keys(VALUE_SCHEMAS) as MemoryType[]).map((name) => [name, ajv.compile(VALUE_SCHEMAS[name])]),
    );
  }
  const validate = validators.get(type)!;
  if (validate(value)) return;
  throw new ValidationError(
    issuesOf(validate.errors).map((issue) => ({
      ...issue,
      field: issue.field === '' ? field : `${field}.${issue.field}`,
    })),
  );
}

/**
 * The value after a new one for the same key: a JSON Merge Patch of the new over the current, and
 * for profiles the facts merged by `k` (a new fact replaces the one with the same `k`). A fact whose
 * `v` is null ends what it names: the fact with its `k` ("we broke up" ends `family:partner`), or,
 * for a `k` of `*:<words>`, every fact whose `k` and `v` hold all the words of its `k` and `was`
 * ("I sold my Honda": `{ k: '*:honda', v: null, was: 'Honda', until: '2026-03-02' }`); one that also
 * carries `now` replaces its `was` with `now` in each fact it names, which keeps its `k` ("lunch moved
 * from Friday to Saturday": `{ k: '*:friday', v: null, was: 'Friday', now: 'Saturday' }`). The current
 * value holds only current facts; the version it supersedes keeps the ended one, and the new
 * version's provenance names the rule and the words that ended it.
 *
 * @example
 * mergeValue('tasks', { task_id: 't', title: 'Ship', status: 'todo' }, { status: 'done' }).status // 'done'
 * mergeValue('profile', { subject: 'user', facts: [{ k: 'possession:motorbike', v: 'old Honda motorbike' }] }, { facts: [{ k: '*:honda', v: null, was: 'Honda' }] }).facts // []
 */
export function mergeValue(
  type: MemoryType,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  if (type !== 'profile') return applyMergePatch(current, next) as Record<string, unknown>;
  const facts = new Map<string, Record<string, unknown>>();
  for (const fact of asFacts(current['facts'])) if (!isEnded(fact)) facts.set(String(fact['k']), fact);
  for (const fact of asFacts(next['facts'])) {
    const k = String(fact['k']);
    if (!isEnded(fact)) facts.set(k, fact);
    else if (k.startsWith(ANY_KIND)) for (const named of factsNamedBy(fact, facts)) replaceOrEnd(facts, named, fact);
    else facts.delete(k);
  }
  return {
    ...(applyMergePatch(current, { ...next, facts: null }) as Record<string, unknown>),
    facts: [...facts.values()],
  };
}

/**
 * The fact `k` after an ended fact named it: its `was` swapped for the `now` it carries, dated from
 * the change, or gone when it carries no `now` or the fact does not hold its `was` as written.
 */
function replaceOrEnd(facts: Map<string, Record<string, unknown>>, k: string, ended: Record<string, unknown>): void {
  const fact = facts.get(k)!;
  const { v: value } = fact;
  const was = show(ended['was']);
  const now = ended['now'];
  const at = typeof value === 'string' && was !== '' ? value.toLowerCase().indexOf(was.toLowerCase()) : -1;
  if (typeof value !== 'string' || typeof now !== 'string' || now === '' || at < 0) {
    facts.delete(k);
    return;
  }
  const replaced: Record<string, unknown> = {
    ...fact,
    v: `${value.slice(0, at)}${now}${value.slice(at + was.length)}`,
  };
  if (typeof ended['until'] === 'string') replaced['since'] = ended['until'];
  facts.set(k, replaced);
}

/** The kind of an ended fact that names its fact by words, not by `k`. */
export const ANY_KIND = '*:';

/**
 * True when a profile fact ends what it names rather than stating it (its `v` is null).
 *
 * @example
 * isEnded({ k: 'routine:run', v: null, was: 'run every morning', until: '2026-03-02' }) // true
 */
export function isEnded(fact: Record<string, unknown>): boolean {
  return fact['v'] === null;
}

// Words too common to tell one fact of a kind from another: articles, a taste's verdict, times of day.
const COMMON_WORDS = new Set(
  (
    'my our the a an of in at on to and or with for from by my old new little big small no not likes dislikes ' +
    'every each daily weekly day days morning mornings evening evenings night nights week weeks weekend weekends times ' +
    'once twice before after work am pm place thing stuff one company job firm beloved lovely first'
  ).split(' '),
);

// Chinese is split into its words ("土木工程" → 土木, 工程), so "土木拜拜" ends the study of 土木工程.
function wordsOf(text: string): string[] {
  return words(text.toLowerCase().replace(/_/gu, ' '))
    .filter((word) => (word.length > 1 || /\p{Script=Han}/u.test(word)) && !COMMON_WORDS.has(word))
    .map((word) => stemmer(word));
}

/** The `k` of current facts whose `k` and `v` hold every word an ended fact names (for Chinese, else a word starting with it). */
function factsNamedBy(ended: Record<string, unknown>, facts: ReadonlyMap<string, Record<string, unknown>>): string[] {
  const named = new Set(wordsOf(`${String(ended['k']).slice(ANY_KIND.length)} ${show(ended['was'])}`));
  if (named.size === 0) return [];
  const owns = [...facts].map(
    ([k, fact]) => [k, new Set(wordsOf(`${k.slice(k.indexOf(':') + 1)} ${show(fact['v'])}`))] as const,
  );
  const exact = owns.filter(([, own]) => [...named].every((word) => own.has(word))).map(([k]) => k);
  if (exact.length > 0) return exact;
  // Chinese words are told apart by a dictionary that keeps "土木工程" whole: failing an exact match,
  // a Chinese word names the facts with a word that starts with it ("土木拜拜" ends 土木工程).
  const han = (word: string) => /\p{Script=Han}/u.test(word);
  return owns
    .filter(([, own]) =>
      [...named].every((word) => own.has(word) || (han(word) && [...own].some((mine) => mine.startsWith(word)))),
    )
    .map(([k]) => k);
}

function asFacts(value: unknown): Array<Record<string, unknown>> {
  return Array.isArray(value)
    ? value.filter((fact): fact is Record<string, unknown> => typeof fact === 'object' && fact !== null)
    : [];
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(show).join(', ');
  return JSON.stringify(value);
}

/**
 * One readable line for an item value, as chunks, search results and prompts show it.
 *
 * @example
 * describeValue('preferences', { scope: 'writing', name: 'tone', value: 'concise' }) // 'Prefers concise (writing tone)'
 */
export function describeValue(type: MemoryType, value: Record<string, unknown>): string {
  const v = (name: string) => show(value[name]);
  switch (type) {
    case 'profile':
      return (
        asFacts(value['facts'])
          .filter((fact) => !isEnded(fact))
          .map((fact) => `${show(fact['k'])}: ${show(fact['v'])}`)
          .join('; ') || `profile of ${v('subject')}`
      );
    case 'preferences':
      return `Prefers ${v('value')} (${v('scope')} ${v('name')})`;
    case 'goals':
      return `Goal: ${v('description') || v('name')}${value['project'] ? ` (${v('project')})` : ''}`;
    case 'tasks':
      return `Task [${v('status')}]: ${v('title')}${value['due'] ? ` (due ${v('due')})` : ''}`;
    case 'decisions':
      return `Decision on ${v('topic')}: ${v('decision')}${value['rationale'] ? ` because ${v('rationale')}` : ''}`;
    case 'entities':
      return `${v('kind')} ${v('canonical')}${Array.isArray(value['aliases']) && value['aliases'].length > 0 ? ` (also ${v('aliases')})` : ''}`;
    case 'events':
      return `${v('date')}: ${v('title')}${value['impact'] ? ` (${v('impact')})` : ''}`;
    case 'cases':
      return `Case (${v('domain')}): ${v('problem')} → ${v('solution')}${value['outcome'] ? ` [${v('outcome')}]` : ''}`;
    case 'patterns':
      return `Pattern (${v('domain')}): ${v('rule')}`;
    case 'procedure':
      return `Procedure ${v('name')} for ${v('task_type')}: ${show(value['steps'])}`;
  }
}

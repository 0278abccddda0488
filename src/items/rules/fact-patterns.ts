// What every rule of personal facts shares: a fact and the pattern that states it, the phrase ends
// and names those patterns are built from, and the rule that runs a list of them on a sentence and
// puts what they find under profile:user (MemoryTypes v0.1 §3.1; the writer merges facts by `k`).

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { LiteralIndex } from './literals.js';
import { emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase } from './text.js';

export const PROFILE_KEY = makeKey('profile', ['user']);

/** One profile fact; `v: null` ends the fact it names, `was` and `until` say what and when, `now` what replaces it. */
export interface Fact {
  k: string;
  v: string | null;
  since?: string;
  was?: string;
  /** With `v: null`: what takes the place of `was` in the facts it names (values.ts, mergeValue). */
  now?: string;
  until?: string;
}

export interface FactPattern {
  k: string | ((value: string, found: RegExpExecArray) => string | undefined);
  pattern: RegExp;
  /** Checks or trims the captured value; undefined rejects the match. */
  accept?: (value: string, found: RegExpExecArray) => string | undefined;
  /** The group holding the value (default 1). */
  group?: number;
  withSince?: boolean;
  /** The fact ends what it names: `v` is null and the value goes to `was`. */
  ends?: boolean;
}

// A capitalised name of up to four words ("Lisbon", "New York", "Acme Labs", "São Paulo"); the
// pronoun "I" after it starts the next clause ("I live in Lisbon, I love it", "Google, I'm a…").
export const NAME = String.raw`(\p{Lu}[\p{L}\p{M}'’.&-]*(?:,?\s+(?:of\s+|de\s+|da\s+)?(?!I(?:['’](?:m|ve|d|ll))?(?![\p{L}\p{M}'’.&-]))\p{Lu}[\p{L}\p{M}'’.&-]*){0,3})`;
// The same name, not captured: a name a pattern passes over (the place a move starts from, the
// employer before the town worked in).
export const NAME_SKIP = `(?:${NAME.slice(1)}`;
// The end of a short object phrase: punctuation, a clause word, or the end.
export const PHRASE_END = String.raw`(?=\s*[,.;:!?)(—–]|\s*-(?=\s|$)|\s+-|\s+(?:so|and|but|or|which|too|either|anymore|any more|at all|as|because|since|for|though|btw|lol|right now|now|myself|these days|more than|so much|lately|tbh|honestly|pls|please|really|with|in|at|when|if|completely|altogether|entirely)\b|\s*$)`;

/**
 * A key part from a phrase: lower case, words joined by `_`.
 *
 * @example
 * slug('Texas BBQ') // 'texas_bbq'
 */
export function slug(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/gu, '')
    .slice(0, 40);
}

// Each list's prefilter, built on first use: most sentences hold a literal of few of its patterns.
const PREFILTERS = new WeakMap<readonly FactPattern[], LiteralIndex>();

function prefilterOf(patterns: readonly FactPattern[]): LiteralIndex {
  let prefilter = PREFILTERS.get(patterns);
  if (prefilter === undefined) {
    prefilter = new LiteralIndex(patterns.map((fact) => fact.pattern));
    PREFILTERS.set(patterns, prefilter);
  }
  return prefilter;
}

/**
 * The facts a sentence states by one list of patterns: the first fact of each `k` wins. A pattern
 * runs only when the sentence holds one of its literals (LiteralIndex).
 *
 * @example
 * factsBy([{ k: 'location', pattern: /I live in (\w+)/u }], { text: 'I live in Oslo', date: '2026-02-18' }) // [{ k: 'location', v: 'Oslo' }]
 */
export function factsBy(patterns: readonly FactPattern[], context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  const facts: Fact[] = [];
  const may = prefilterOf(patterns).scan(context.text.toLowerCase());
  for (let index = 0; index < patterns.length; index += 1) {
    if (!LiteralIndex.may(may, index)) continue;
    const fact = patterns[index]!;
    const found = fact.pattern.exec(context.text);
    const raw = found?.[fact.group ?? 1];
    if (found === null || raw === undefined) continue;
    const captured = cleanPhrase(raw);
    if (captured === '') continue;
    const value = fact.accept === undefined ? captured : fact.accept(captured, found);
    if (value === undefined || value === '') continue;
    const k = typeof fact.k === 'string' ? fact.k : fact.k(captured, found);
    if (k === undefined || facts.some((known) => known.k === k)) continue;
    if (fact.ends === true) facts.push({ k, v: null, was: value, until: context.date });
    else facts.push(fact.withSince === true ? { k, v: value, since: context.date } : { k, v: value });
  }
  return facts;
}

/**
 * The profile fact keys earlier rules already stated in this sentence, so a rule that reads the same
 * fact more loosely can leave it to them.
 *
 * @example
 * statedFacts(context).has('location') // true after "I live in Lisbon" was read
 */
export function statedFacts(context: Pick<SentenceContext, 'here'>): Set<string> {
  return new Set(
    context.here.flatMap((candidate) =>
      candidate.type === 'profile' && Array.isArray(candidate.value['facts'])
        ? (candidate.value['facts'] as Fact[]).map((fact) => fact.k)
        : [],
    ),
  );
}

/**
 * A rule whose facts go to profile:user, from the user's own statements only. Facts that end
 * something are kept only when a profile exists to end them in.
 *
 * @example
 * const rule = factRule('en.profile.possession', 'en', /bought/, (context) => factsBy(PATTERNS, context));
 */
export function factRule(
  name: string,
  language: Language,
  trigger: RegExp,
  facts: (context: SentenceContext) => Fact[],
): Rule {
  return {
    name,
    languages: [language],
    roles: USER_ONLY,
    type: 'profile',
    confidence: 0.85,
    gate: 'may',
    trigger,
    match: (context, rule): ItemCandidate[] => {
      const found = facts(context).filter((fact) => fact.v !== null || context.memory.exists(PROFILE_KEY));
      if (found.length === 0) return [];
      return [emit(context, rule, { key: PROFILE_KEY, value: { subject: 'user', facts: found } })];
    },
  };
}

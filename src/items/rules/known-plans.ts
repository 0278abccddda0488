// Which known plan a phrase names ("the Coimbra trip", "音乐节"): the events and goals already held,
// matched by the words of their keys, so that a change lands on the plan it speaks of.

import { stemmer } from 'stemmer';

import type { SentenceContext } from './rule.js';
import { hasHan, matchTokens } from './text.js';

// Words of a plan's key that name its kind, not which plan it is.
const KIND_WORDS: ReadonlySet<string> = new Set([
  'trip',
  'plan',
  'thing',
  'booking',
  'table',
  'visit',
  'party',
  'dinner',
  'event',
  'one',
  'the',
  '事',
  '那事',
  '这事',
]);

function tokensOf(text: string): Set<string> {
  return new Set(matchTokens(text.replace(/_/gu, ' ')).map((token) => (hasHan(token) ? token : stemmer(token))));
}

/**
 * The known event or goal a phrase names, by the words of its key: the one sharing most words,
 * at least one of which names the plan rather than its kind, or, when the phrase names only a
 * kind, the one plan of that kind. A tie names none.
 */
export function knownPlan(context: SentenceContext, phrase: string, keys: readonly string[]): string | undefined {
  const best = bestPlans(context, phrase, keys);
  return best.length === 1 ? best[0] : undefined;
}

/** The plans a phrase names best: one, none, or several tied ("the trip is off" with two trips planned). */
export function bestPlans(context: SentenceContext, phrase: string, keys: readonly string[]): string[] {
  const wanted = tokensOf(phrase);
  const scored: Array<readonly [string, number]> = [];
  for (const key of keys) {
    const words = tokensOf(key.slice(key.lastIndexOf(':') + 1));
    const shared = [...words].filter((word) => wanted.has(word));
    if (shared.length === 0) continue;
    const named = shared.some((word) => !KIND_WORDS.has(word));
    scored.push([
      key,
      shared.length + (named ? 10 : 0) + (key.startsWith('event:') && key.split(':')[2]! >= context.date ? 0.5 : 0),
    ]);
  }
  const top = Math.max(0, ...scored.map(([, score]) => score));
  return scored.filter(([, score]) => score === top).map(([key]) => key);
}

/** The events and goals held now. */
export function plansOf(context: SentenceContext): string[] {
  return [...context.memory.keysWith('event:'), ...context.memory.keysWith('goal:')];
}

// Retractions (MemoryTypes v0.1 §6.3): the user denies something said before — "I no longer…",
// "I don't … anymore", "forget that…", "scratch that", "我不再…", "忘掉…", "不对". A retraction
// names the key it denies: the key the positive rules give the denied statement ("I no longer
// prefer tea" → what "I prefer tea" gives), else the known key whose words the clause shares.
// Nothing it can name, nothing it retracts: it never retracts blindly.

import type { ItemCandidate, MemoryType } from '../../spec/items.js';
import { typeOfKey } from '../keys.js';
import { stateEnded } from './endings.js';
import { PROFILE_KEY } from './profile.js';
import { projectOf } from './project.js';
import { emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';
import { findTask } from './tasks.js';
import { blank, clauseEnd, matchTokens } from './text.js';

interface Denial {
  /** The denied clause as written, and where it is in the sentence. */
  clause: string;
  start: number;
  end: number;
  /** Positive statements the clause stands for, to run the rules on. */
  statements: string[];
}

interface ClausePattern {
  pattern: RegExp;
  /** The capture group holding the clause; 0 means from the match's end to the clause end. */
  group: number;
  /** The positive statement, from the clause. */
  statement: (clause: string) => string;
}

const EN_CLAUSES: readonly ClausePattern[] = [
  {
    pattern: /\b(I|we)\s+(?:don't|do not|dont)\s+(.+?)\s+any\s?more\b/i,
    group: 2,
    statement: (clause) => `I ${clause}`,
  },
  { pattern: /\bI(?:'m| am)\s+not\s+(.+?)\s+any\s?more\b/i, group: 1, statement: (clause) => `I'm ${clause}` },
  { pattern: /\b(?:I|we)\s+no\s+longer\s+/i, group: 0, statement: (clause) => `I ${clause}` },
  { pattern: /\b(?:I|we)(?:'m|'re| am| are)\s+no\s+longer\s+/i, group: 0, statement: (clause) => `I'm ${clause}` },
  { pattern: /\bI\s+was\s+wrong\s+about\s+/i, group: 0, statement: (clause) => clause },
  // Chat drops the subject: "not vegan anymore, just vegetarian", "no longer sous chef".
  { pattern: /(?:^|[,;.!—–-]\s*)not\s+(.+?)\s+any\s?more\b/i, group: 1, statement: (clause) => `I'm ${clause}` },
  { pattern: /(?:^|[,;.!—–-]\s*)no\s+longer\s+/i, group: 0, statement: (clause) => `I'm ${clause}` },
  {
    pattern:
      /(?:^|\bplease\s+)forget\s+(?:about\s+|that\s+|what\s+I\s+said\s+about\s+)?(?:I\s+said\s+(?:that\s+)?)?(?!(?:it|that|this)\s*[.!]*$)/i,
    group: 0,
    statement: (clause) => clause,
  },
];

const ZH_CLAUSES: readonly ClausePattern[] = [
  { pattern: /我们?(?:已经|现在)?不再/u, group: 0, statement: (clause) => `我${clause}` },
  { pattern: /我们?(?:已经|现在)不([^，,。.！!；;了]{2,20})了/u, group: 1, statement: (clause) => `我${clause}` },
  {
    pattern: /我们?不([^，,。.！!；;了]{2,20})了(?=$|[，,。.！!；;])/u,
    group: 1,
    statement: (clause) => `我${clause}`,
  },
  { pattern: /^(?:请)?(?:忘掉|忘记|忘了)(?:我说的)?(?:关于)?/u, group: 0, statement: (clause) => clause },
];

const EN_BARE =
  /\b(?:that's|that is|this is|it's|that was)\s+(?:no longer|not)\s+(?:true|right|correct|the case|accurate|valid)\b|\bscratch that\b|\bignore (?:that|what i (?:just )?said)\b|\bnever ?mind\b|^forget (?:that|it|this)\s*[.!]*$|^not any\s?more\b|\bthat's wrong\b|\bi take (?:that|it) back\b/;
const ZH_BARE = /不对|不是真的|不是这样|算了|收回|当我没说|^忘了吧|不成立/u;

function denialOf(context: SentenceContext): Denial | undefined {
  for (const clause of context.language === 'zh' ? ZH_CLAUSES : EN_CLAUSES) {
    const found = clause.pattern.exec(context.text);
    if (found === null) continue;
    const start =
      clause.group === 0 ? found.index + found[0].length : found.index + found[0].indexOf(found[clause.group]!);
    // A denied clause also ends at a comma: "I no longer prefer tea, I prefer coffee" corrects itself.
    const comma = context.text.slice(start).search(/[,，]/u);
    const end =
      clause.group === 0
        ? Math.min(clauseEnd(context.text, start), comma === -1 ? Infinity : start + comma)
        : start + found[clause.group]!.length;
    const text = context.text.slice(start, end).trim();
    if (text === '') continue;
    const statements = [clause.statement(text), context.language === 'zh' ? `我更喜欢${text}` : `I prefer ${text}`];
    return { clause: text, start: found.index, end, statements };
  }
  return undefined;
}

// The words of a key: every segment after the type without dates, and those of its last segment
// (what the key names: a preference's name, a task's id, an event's slug).
function keyTokens(key: string): { all: Set<string>; name: Set<string> } {
  const segments = key
    .split(':')
    .slice(1)
    .filter((segment) => !/^\d{4}-\d{2}-\d{2}$/.test(segment));
  const tokens = (segment: string): string[] => matchTokens(segment.replace(/[/._-]+/g, ' '));
  return { all: new Set(segments.flatMap(tokens)), name: new Set(tokens(segments[segments.length - 1] ?? '')) };
}

/**
 * The one current key the clause names by its words: all the words of the key's last segment, or
 * two of its words anywhere. The most shared words win; a tie names nothing.
 */
function keyByWords(context: SentenceContext, clause: string): string | undefined {
  const tokens = new Set(matchTokens(clause));
  if (tokens.size === 0) return undefined;
  const scored: Array<readonly [string, number]> = [];
  for (const key of new Set([...context.memory.known, ...context.memory.produced.map((candidate) => candidate.key)])) {
    if (!context.memory.exists(key)) continue;
    const own = keyTokens(key);
    let shared = 0;
    for (const token of own.all) if (tokens.has(token)) shared += 1;
    const named = own.name.size > 0 && [...own.name].every((token) => tokens.has(token));
    if (shared === 0 || (!named && shared < 2)) continue;
    scored.push([key, shared + (named ? 0.5 : 0) - own.all.size / 100]);
  }
  const top = Math.max(0, ...scored.map(([, score]) => score));
  const best = scored.filter(([, score]) => score === top);
  return best.length === 1 ? best[0]![0] : undefined;
}

function retractions(context: SentenceContext, rule: Rule): { candidates: ItemCandidate[]; masked?: [number, number] } {
  const denial = denialOf(context);
  const targets: ItemCandidate[] = [];
  if (denial !== undefined) {
    for (const statement of denial.statements) {
      for (const candidate of context.probe(statement)) {
        if (candidate.type !== 'entities' && context.memory.exists(candidate.key)) targets.push(candidate);
      }
      if (targets.length > 0) break;
    }
    // A task said to be no longer wanted ("not applying for the bursary anymore") is the plan rules'
    // to retract as cancelled (plans.ts): the clause stays for them to read.
    if (targets.length === 0 && findTask(context.memory, projectOf(context).name, denial.clause, false) !== undefined)
      return { candidates: [] };
    if (targets.length === 0) {
      const key = keyByWords(context, denial.clause);
      const type = key === undefined ? undefined : typeOfKey(key);
      if (key !== undefined && type !== undefined) targets.push({ ...emit(context, rule, { key, type, value: {} }) });
    }
    // A state no rule states ("I'm not working as a courier anymore") ends the facts holding its words.
    const state =
      targets.length === 0 && /^I'm /u.test(denial.statements[0]!) && context.memory.exists(PROFILE_KEY)
        ? stateEnded(denial.clause, context.date)
        : undefined;
    if (state !== undefined)
      return {
        candidates: [
          emit(context, rule, { key: PROFILE_KEY, type: 'profile', value: { subject: 'user', facts: [state] } }),
        ],
        masked: [denial.start, denial.end],
      };
  } else if ((context.language === 'zh' ? ZH_BARE : EN_BARE).test(context.lower)) {
    for (const key of context.memory.lastKeys) {
      const type = typeOfKey(key);
      if (type !== undefined && context.memory.exists(key)) targets.push(emit(context, rule, { key, type, value: {} }));
    }
  }
  const seen = new Map<string, ItemCandidate>();
  for (const target of targets) {
    const first = seen.get(target.key);
    if (first === undefined) seen.set(target.key, target);
    // Several rules may read one profile statement: the denial clears the facts of all of them.
    else if (target.key === PROFILE_KEY)
      first.value = { ...first.value, facts: [...factsIn(first), ...factsIn(target)] };
  }
  const candidates = [...seen.values()].map((target) => denyOne(context, rule, target));
  return denial === undefined ? { candidates } : { candidates, masked: [denial.start, denial.end] };
}

function factsIn(candidate: ItemCandidate): Array<Record<string, unknown>> {
  const facts = candidate.value['facts'];
  return Array.isArray(facts) ? (facts as Array<Record<string, unknown>>) : [];
}

/**
 * The candidate that denies one key. A profile holds many facts, so denying one ("I no longer live
 * in Lisbon") clears that fact (v: null, until the event date) rather than retracting the profile.
 */
function denyOne(context: SentenceContext, rule: Rule, target: ItemCandidate): ItemCandidate {
  const type: MemoryType = target.type;
  if (target.key === PROFILE_KEY && Array.isArray(target.value['facts'])) {
    const facts = factsIn(target)
      .filter((fact) => fact['v'] !== null)
      .map((fact) => ({ k: fact['k'], v: null, was: fact['v'], until: context.date }));
    return emit(context, rule, { key: PROFILE_KEY, type, value: { subject: 'user', facts } });
  }
  return emit(context, rule, { key: target.key, type, action: 'retract', value: {} });
}

/**
 * Runs the retraction rule on a sentence: the candidates, and the sentence with the denied clause
 * blanked so the positive rules do not read "I no longer prefer tea" as "I prefer tea".
 */
export function retract(context: SentenceContext): { candidates: ItemCandidate[]; text: string; lower: string } {
  const rule = context.language === 'zh' ? ZH_RETRACTION : EN_RETRACTION;
  if (!rule.trigger.test(context.lower)) return { candidates: [], text: context.text, lower: context.lower };
  const { candidates, masked } = retractions(context, rule);
  if (masked === undefined) return { candidates, text: context.text, lower: context.lower };
  return {
    candidates,
    text: blank(context.text, masked[0], masked[1]),
    lower: blank(context.lower, masked[0], masked[1]),
  };
}

export const EN_RETRACTION: Rule = {
  name: 'en.retraction',
  languages: ['en'],
  roles: USER_ONLY,
  type: 'preferences',
  confidence: 0.85,
  gate: 'must',
  trigger:
    /no longer|any\s?more|forget|scratch that|ignore (?:that|what)|never ?mind|not (?:true|right|correct|the case|accurate|valid)|wrong|take (?:that|it) back/,
  match: (context) => retract(context).candidates,
};

export const ZH_RETRACTION: Rule = {
  name: 'zh.retraction',
  languages: ['zh'],
  roles: USER_ONLY,
  type: 'preferences',
  confidence: 0.85,
  gate: 'must',
  trigger: /不再|不.{1,20}了|忘掉|忘记|忘了|不对|不是真的|不是这样|算了|收回|当我没说|不成立/u,
  match: (context) => retract(context).candidates,
};

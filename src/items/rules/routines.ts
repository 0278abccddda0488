// What the user does regularly, in English: "I swim every morning at 6", "I do yoga Tuesday and
// Thursday evenings", "after work on weekdays I go to the gym", "I've started running three evenings
// a week". A present-tense clause of the speaker with how often it happens; one fact per activity
// (`routine:swim`), so a changed habit replaces the old one and "I stopped swimming" ends it.

import { stemmer } from 'stemmer';

import { factRule, slug, type Fact } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';
import { cleanPhrase, contentWords, shorten } from './text.js';

const WEEKDAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const PART = 'morning|afternoon|evening|night|lunchtime';
const COUNT = String.raw`\d+|one|two|three|four|five|six|seven|a few|several`;
// How often: "every (other) morning", "each Sunday", "on Saturdays", "Tuesday and Thursday evenings",
// "three times a week", "twice a day", "three mornings (a week)", "daily", "most evenings",
// "in the mornings", "at weekends", "before bed", "after work".
const FREQUENCY = new RegExp(
  [
    String.raw`\b(?:every|each)\s+(?:other\s+|single\s+)?(?:day|${PART}|week|weekend|weekday|month|summer|winter|${WEEKDAY})(?:\s+(?:${PART}))?\b`,
    String.raw`\b(?:on\s+)?(?:${WEEKDAY})s\b`,
    String.raw`\b(?:on\s+)?(?:${WEEKDAY})(?:\s*(?:,|and|&)\s*(?:${WEEKDAY}))+(?:\s+(?:${PART})s)?\b`,
    String.raw`\b(?:${WEEKDAY})\s+(?:${PART})s\b`,
    String.raw`\b(?:once|twice|(?:${COUNT})\s+times)\s+(?:a|per|each|every)\s+(?:day|week|month|fortnight)\b`,
    String.raw`\b(?:${COUNT})\s+(?:${PART}|day)s(?:\s+(?:a|per)\s+week)?\b`,
    String.raw`\b(?:daily|nightly|weekly|fortnightly)\b`,
    String.raw`\bmost\s+(?:days|${PART}s|weekends|weeks)\b`,
    String.raw`\bin\s+the\s+(?:${PART})s\b`,
    String.raw`\b(?:at|on)\s+(?:the\s+)?weekends\b`,
    String.raw`\b(?:before|after)\s+(?:bed|sleeping|work|school|dinner|breakfast)\b`,
  ].join('|'),
  'iu',
);

// The speaker, maybe with a companion ("Mochi and I"), a habit adverb, then the verb. Questions,
// conditions and wishes are read apart, so this clause is a statement of the user's own habit.
const SUBJECT = new RegExp(
  String.raw`\b(?:(?:[\p{L}]+\s+and\s+)?I|[Ww]e)` +
    String.raw`(?:'ve\s+(?:started|begun)\s+|\s+have\s+(?:started|begun)\s+|'m\s+(?:now\s+)?|\s+am\s+(?:now\s+)?|'re\s+|\s+are\s+|\s+)` +
    String.raw`(?:(?:usually|normally|always|also|still|now|just|often|generally|mostly|already|try\s+to|get\s+to|like\s+to|tend\s+to)\s+)*` +
    String.raw`([a-z]+)\b`,
  'gu',
);
// Verbs that are no activity: states, modals and auxiliaries, wishes, feelings, habits of speech,
// and the degrees and feelings a clause of being opens with.
const NOT_ACTIVITY = new Set(
  (
    'am is are was were be been being has had did does done got gotten can could will would shall should may might must ' +
    'need want wish hope think know guess mean feel felt like love hate miss worry wonder believe say said tell told ask asked ' +
    'used use try tried keep kept seem look looks find found see saw hear heard let made gonna not never also really ' +
    'still just already always usually normally often even only to the a an my our ' +
    // Degrees and feelings after "I'm": "I'm super thrilled about dancing each day" is no habit.
    'super so very too pretty quite totally thrilled excited happy glad grateful thankful proud lucky blessed stoked pumped'
  ).split(' '),
);
// Verbs whose activity is their object: "go to the gym", "do yoga", "have breakfast", "play chess".
const LIGHT = new Set([
  'go',
  'goes',
  'going',
  'do',
  'doing',
  'have',
  'having',
  'play',
  'playing',
  'take',
  'taking',
  'get',
  'getting',
  'make',
  'making',
]);
const IRREGULAR_PAST =
  /^(?:went|ran|swam|rode|drove|ate|drank|wrote|sang|took|made|came|saw|met|left|spent|taught|caught|bought|brought|thought|fought|sat|slept|woke|won|flew|fell|kept|hid|knew|did|had|got)$/u;
const UNREAL =
  /\b(?:if|unless|whether|would|could|should|might|wish|want to|wanna|going to|gonna|plan to|planning|hope to|trying to decide|used to)\b/iu;
// Where the habit's clause ends: punctuation or the start of another clause.
const CLAUSE_END =
  /\s*[,;:.!?—–(]|\s+(?:but|so|because|since|which|although|though|and then|and (?:I|we|he|she|it|they|my|the|he's|she's|it's)|I|we|instead|lol|haha|tbh|btw)\b/u;
// What may stand between a clause and the frequency that follows it: "…in Ikoyi instead, three evenings a week".
const TRAILING = /^(?:\s*(?:[,—–-]|instead)\s*)*/u;
// Words that say nothing of the activity, skipped when a light verb's object names it.
const NOT_NAMING = new Set([
  'to',
  'the',
  'a',
  'an',
  'my',
  'our',
  'some',
  'at',
  'on',
  'in',
  'for',
  'around',
  'along',
  'with',
  'together',
  'it',
  'that',
  'this',
  'them',
  'out',
  'up',
  'off',
  'back',
  'there',
  'home',
]);

function clauseFrom(text: string, from: number): string {
  const rest = text.slice(from);
  const end = CLAUSE_END.exec(rest);
  return end === null ? rest : rest.slice(0, end.index);
}

/** The activity a habit's clause names: the verb's stem, or for "go", "do", "have" its object's. */
function activityOf(verb: string, clause: string): string | undefined {
  if (!LIGHT.has(verb)) return stemmer(verb);
  const object = clause
    .slice(verb.length)
    .toLowerCase()
    .split(/[^\p{L}\p{N}:]+/u)
    .filter((word) => word !== '' && !NOT_NAMING.has(word) && !/^\d/u.test(word));
  const first = contentWords(object.slice(0, 3).join(' '))[0];
  return first === undefined ? undefined : stemmer(first);
}

/** How often a clause says the habit happens: in it, just after it, or before its subject. */
function frequencyOf(text: string, clause: string, after: number, before: string): string | undefined {
  const inside = FREQUENCY.exec(clause);
  if (inside !== null) return inside[0];
  const rest = text.slice(after);
  const gap = TRAILING.exec(rest)![0].length;
  const next = FREQUENCY.exec(rest.slice(gap));
  if (next !== null && next.index === 0) return next[0];
  return FREQUENCY.exec(before)?.[0];
}

/** The habits a sentence states: at most one, the first clause of the speaker's with a frequency. */
export function routinesOf(context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  SUBJECT.lastIndex = 0;
  for (let found = SUBJECT.exec(context.text); found !== null; found = SUBJECT.exec(context.text)) {
    const verb = found[1]!.toLowerCase();
    if (NOT_ACTIVITY.has(verb) || IRREGULAR_PAST.test(verb) || (/ed$/u.test(verb) && !/eed$/u.test(verb))) continue;
    if (UNREAL.test(context.text.slice(0, found.index + found[0].length))) return [];
    const verbAt = found.index + found[0].length - found[1]!.length;
    const clause = clauseFrom(context.text, verbAt);
    if (/^(?:have|has|got)\s+to\b/iu.test(clause)) continue;
    const before = context.text.slice(Math.max(0, context.text.lastIndexOf(',', found.index) + 1), found.index);
    const often = frequencyOf(context.text, clause, verbAt + clause.length, before);
    if (often === undefined) continue;
    // "the gym I go to every day": the object is before the subject, so the clause names none.
    const object = clause.slice(verb.length).trim().toLowerCase();
    if (
      LIGHT.has(verb) &&
      (object.startsWith(often.toLowerCase()) ||
        /^(?:to|at|in|on|with|for)$/u.test(object.slice(0, object.indexOf(often.toLowerCase())).trim()))
    )
      continue;
    const activity = activityOf(verb, clause.replace(often, ' '));
    if (activity === undefined || activity === '') continue;
    const value = clause.toLowerCase().includes(often.toLowerCase()) ? clause : `${clause} ${often}`;
    return [{ k: `routine:${slug(activity)}`, v: shorten(cleanPhrase(value), 120), since: context.date }];
  }
  return [];
}

export const ROUTINE_RULES: readonly Rule[] = [
  factRule(
    'en.profile.routine',
    'en',
    /every|each|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|monday|tuesday|wednesday|thursday|friday|saturday|sunday|times a|times per|once a|twice a|mornings|evenings|nights|afternoons|days a|daily|nightly|weekly|fortnightly|most days|weekends|before bed|before sleeping|after work|before work|after school|before school|after dinner|before dinner|after breakfast|before breakfast/,
    routinesOf,
  ),
];

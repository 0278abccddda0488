// Dates the user keeps every year, in English: their birthday, their relatives' ("my daughter Aiko
// turns seven on March 14", "my boyfriend Tyler's birthday is 8 April"), anniversaries ("our 5-year
// anniversary is on August 3rd") and the user's own wedding day, which becomes one ("we got married on
// 22 August"). The date is kept as written; one fact per person (`birthday:daughter`) or occasion, so
// a corrected date replaces it.

import { factRule, factsBy, NAME, slug, type Fact, type FactPattern } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';

// Either case of the first letter: the patterns keep case to tell names ("Aiko") from words.
const MONTH = String.raw`(?:[Jj]an(?:uary)?|[Ff]eb(?:ruary)?|[Mm]ar(?:ch)?|[Aa]pr(?:il)?|[Mm]ay|[Jj]une?|[Jj]uly?|[Aa]ug(?:ust)?|[Ss]ept?(?:ember)?|[Oo]ct(?:ober)?|[Nn]ov(?:ember)?|[Dd]ec(?:ember)?)`;
const DAY = String.raw`\d{1,2}(?:st|nd|rd|th)?`;
// "March 14", "14 March", "the 4th of May", "3rd of October".
const DATE = String.raw`((?:the\s+)?${DAY}\s+(?:of\s+)?${MONTH}|${MONTH}\s+${DAY})\b`;
const RELATIVE = String.raw`wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|mum|mom|mother|dad|father|son|daughter|sister|brother|twins|kids|grandma|grandpa|grandmother|grandfather|grandson|granddaughter|niece|nephew|best friend`;
const AGE = String.raw`(?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|eighteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)`;

const EN_OCCASIONS: readonly FactPattern[] = [
  {
    k: 'birthday',
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y\s+birthday\s+is\s+(?:on\s+)?|[Ii]t's\s+my\s+birthday\s+on\s+|I\s+turn\s+${AGE}\s+on\s+)${DATE}`,
      'u',
    ),
    accept: (date) => `birthday ${date}`,
  },
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 4,
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y|[Oo]ur)\s+(${RELATIVE})(?:,?\s+(${NAME}(?:\s+and\s+\p{Lu}[\p{L}'’-]*)?),?)?\s+(?:turns?|will\s+turn|is\s+turning|are\s+turning)\s+${AGE}\s+on\s+${DATE}`,
      'u',
    ),
    accept: (date, found) => `${found[1]}${found[2] === undefined ? '' : ` ${found[2]}`} birthday ${date}`,
  },
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 2,
    pattern: new RegExp(
      String.raw`(?:^|[.,;:!—–-]\s+|\band\s+)(?!I\s)${NAME}\s+(?:turns|will\s+turn|is\s+turning)\s+${AGE}\s+on\s+${DATE}`,
      'u',
    ),
    accept: (date, found) => `${found[1]} birthday ${date}`,
  },
  // "my boyfriend Tyler's birthday is 8 April", "my mum's birthday is on the 3rd of May".
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 3,
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y|[Oo]ur)\s+(${RELATIVE})(?:\s+${NAME})?['’]s\s+birthday\s+(?:is|falls)\s+(?:on\s+)?${DATE}`,
      'u',
    ),
    accept: (date, found) => `${found[1]}${found[2] === undefined ? '' : ` ${found[2]}`} birthday ${date}`,
  },
  // "Priya's birthday is on 5 May" (a name said alone).
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 2,
    pattern: new RegExp(
      String.raw`(?:^(?:(?:[Ss]o|[Oo]h|[Aa]nd|[Bb]ut|[Aa]lso|[Ww]ell|[Bb]tw|[Oo]k(?:ay)?),?\s+)*|[.,;:!—–-]\s+|\band\s+)${NAME}['’]s\s+birthday\s+(?:is|falls)\s+(?:on\s+)?${DATE}`,
      'u',
    ),
    accept: (date, found) => `${found[1]} birthday ${date}`,
  },
  {
    k: 'anniversary',
    pattern: new RegExp(
      String.raw`\b(?:(?:[Oo]ur|[Mm]y)\s+wedding\s+(?:is|was|will\s+be)\s+(?:on\s+)?|(?:I|[Ww]e|and\s+I)\s+(?:got|were|are\s+getting)\s+married\s+on\s+)${DATE}`,
      'u',
    ),
    accept: (date) => `wedding ${date}`,
  },
  {
    k: 'anniversary',
    group: 2,
    pattern: new RegExp(
      String.raw`\b(?:[Oo]ur|[Mm]y)\s+((?:\d+|[a-z]+)(?:-year|th|st|nd|rd)?\s+)?(?:wedding\s+)?anniversary\s+(?:is\s+)?(?:on\s+)?${DATE}`,
      'u',
    ),
    accept: (date, found) => `${found[1] ?? ''}anniversary ${date}`.trim(),
  },
];

// The user's own wedding told a sentence after the marriage: "Ama and I got married! wedding was on 22 August".
const OWN_MARRIAGE = /\b(?:I|[Ww]e)\s+(?:just\s+|finally\s+)?got\s+married\b/u;
const WEDDING_DAY = new RegExp(String.raw`^(?:[Tt]he\s+)?[Ww]edding\s+(?:was|is)\s+(?:on\s+)?${DATE}`, 'u');

/** The yearly dates a sentence states. */
export function occasionsOf(
  context: Pick<SentenceContext, 'text' | 'date'> & Partial<Pick<SentenceContext, 'event' | 'start'>>,
): Fact[] {
  const facts = factsBy(EN_OCCASIONS, context);
  if (facts.length > 0 || context.event === undefined || context.start === undefined) return facts;
  const day = WEDDING_DAY.exec(context.text.trim());
  return day !== null && OWN_MARRIAGE.test(context.event.text.slice(0, context.start))
    ? [{ k: 'anniversary', v: `wedding ${day[1]!}` }]
    : facts;
}

export const OCCASION_RULES: readonly Rule[] = [
  factRule('en.profile.occasion', 'en', /birthday|anniversary|married|wedding|\bturns?\b|\bturning\b/, occasionsOf),
];

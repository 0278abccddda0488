// Dates the user keeps every year, in English: their birthday, their relatives' ("my daughter Aiko
// turns seven on March 14"), anniversaries ("our 5-year anniversary is on August 3rd"). The date is
// kept as written; one fact per person (`birthday:daughter`) or occasion, so a corrected date replaces it.

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
  { k: 'birthday', pattern: new RegExp(String.raw`\b(?:[Mm]y\s+birthday\s+is\s+(?:on\s+)?|[Ii]t's\s+my\s+birthday\s+on\s+|I\s+turn\s+${AGE}\s+on\s+)${DATE}`, 'u'), accept: (date) => `birthday ${date}` },
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 4,
    pattern: new RegExp(String.raw`\b(?:[Mm]y|[Oo]ur)\s+(${RELATIVE})(?:,?\s+(${NAME}(?:\s+and\s+\p{Lu}[\p{L}'’-]*)?),?)?\s+(?:turns?|will\s+turn|is\s+turning|are\s+turning)\s+${AGE}\s+on\s+${DATE}`, 'u'),
    accept: (date, found) => `${found[1]}${found[2] === undefined ? '' : ` ${found[2]}`} birthday ${date}`,
  },
  {
    k: (_, found) => `birthday:${slug(found[1]!)}`,
    group: 2,
    pattern: new RegExp(String.raw`(?:^|[.,;:!—–-]\s+|\band\s+)(?!I\s)${NAME}\s+(?:turns|will\s+turn|is\s+turning)\s+${AGE}\s+on\s+${DATE}`, 'u'),
    accept: (date, found) => `${found[1]} birthday ${date}`,
  },
  {
    k: 'anniversary',
    group: 2,
    pattern: new RegExp(String.raw`\b(?:[Oo]ur|[Mm]y)\s+((?:\d+|[a-z]+)(?:-year|th|st|nd|rd)?\s+)?(?:wedding\s+)?anniversary\s+(?:is\s+)?(?:on\s+)?${DATE}`, 'u'),
    accept: (date, found) => `${found[1] ?? ''}anniversary ${date}`.trim(),
  },
];

/** The yearly dates a sentence states. */
export function occasionsOf(context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  return factsBy(EN_OCCASIONS, context);
}

export const OCCASION_RULES: readonly Rule[] = [factRule('en.profile.occasion', 'en', /birthday|anniversary|\bturns?\b|\bturning\b/, occasionsOf)];

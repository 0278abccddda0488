// The user as a person (facts of profile:user, MemoryTypes v0.1 §3.1): age, relationship status and
// the languages spoken, said outright — "I'm 34", "I turned 40 last month", "I'm married", "we got
// engaged", "I speak Spanish and French". An age keeps the day it was said (`since`), so a reader
// can tell it a year later.

import type { FactPattern } from './fact-patterns.js';

// What may follow an age that ends its phrase: "I'm 34, and…", "I'm 34 now"; not "I'm 34 weeks pregnant".
const AGE_END = String.raw`(?:\s+(?:years?|yrs?)\s+old|\s*y\/?o)?(?=\s*[,.;:!?)]|\s+(?:and|but|now|so|too|this|today|lol|haha|btw|already|myself|soon)\b|\s*$)`;
const LANGUAGES = String.raw`English|Spanish|French|German|Italian|Portuguese|Dutch|Swedish|Norwegian|Danish|Finnish|Polish|Czech|Hungarian|Romanian|Greek|Turkish|Russian|Ukrainian|Arabic|Hebrew|Persian|Farsi|Hindi|Urdu|Bengali|Punjabi|Tamil|Telugu|Japanese|Korean|Chinese|Mandarin|Cantonese|Thai|Vietnamese|Indonesian|Malay|Tagalog|Swahili|Irish|Welsh|Catalan|Croatian|Serbian|Bulgarian|Yoruba|Igbo|Hausa|Amharic|Zulu|Afrikaans|ASL|sign language`;

/** An age a person may have: "I'm 2" is a toddler's parent talking, "I'm 180" is no age. */
const ageOf = (value: string): string | undefined => (Number(value) >= 5 && Number(value) <= 110 ? value : undefined);

/** Age, relationship status and languages, in the order profile.ts reads them. */
export const PERSON_FACTS: readonly FactPattern[] = [
  // "I'm 34", "I am 27 years old", "I just turned 40 last month".
  {
    k: 'age',
    pattern: new RegExp(String.raw`\bI(?:'m|\s+am)\s+(?:now\s+|only\s+|just\s+)?(\d{1,3})${AGE_END}`, 'u'),
    accept: ageOf,
    withSince: true,
  },
  {
    k: 'age',
    pattern:
      /\bI\s+(?:just\s+|finally\s+|recently\s+)?turned\s+(\d{1,3})\b(?!\s*(?:%|percent|degrees|minutes|hours|days|weeks|months))/u,
    accept: ageOf,
    withSince: true,
  },
  // "I'm married", "I'm happily divorced", "we got engaged last week", "I got married in June".
  {
    k: 'relationship',
    pattern:
      /\bI(?:'m|\s+am)\s+(?:now\s+|happily\s+|newly\s+|recently\s+|officially\s+|still\s+|also\s+)?(married|single|divorced|engaged|widowed|separated)(?![\p{L}-])(?!\s+(?:to\s+the|mums?|moms?|dads?|parents?|friends?|men|women|people|life|use|thing|day|person))/u,
    withSince: true,
  },
  {
    k: 'relationship',
    pattern: /\b(?:I|[Ww]e)\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?got\s+(married|engaged|divorced)\b/u,
    withSince: true,
  },
  // "I speak Spanish and French", "I'm fluent in Portuguese".
  {
    k: 'languages',
    pattern: new RegExp(
      String.raw`\bI\s+(?:also\s+|still\s+|can\s+)?speak\s+((?:fluent\s+|some\s+|a\s+bit\s+of\s+|basic\s+)?(?:${LANGUAGES})(?:(?:,\s*|\s+and\s+|\s+&\s+)(?:some\s+|a\s+bit\s+of\s+|basic\s+)?(?:${LANGUAGES}))*)\b`,
      'u',
    ),
    accept: (value) => `speaks ${value}`,
  },
  {
    k: 'languages',
    pattern: new RegExp(
      String.raw`\bI(?:'m|\s+am)\s+fluent\s+in\s+((?:${LANGUAGES})(?:(?:,\s*|\s+and\s+)(?:${LANGUAGES}))*)\b`,
      'u',
    ),
    accept: (value) => `speaks ${value}`,
  },
];

// Health and diet in the user's profile facts (MemoryTypes v0.1 §3.1), from listed conditions,
// medicines and diets: "I'm allergic to peanuts", "I have asthma", "I'm on statins", "I'm 20 weeks
// pregnant", "I've gone vegan", "I don't drink alcohol". Health in medicine's own words is health.ts.

import { PHRASE_END, slug, type FactPattern } from './fact-patterns.js';

const CONDITIONS = String.raw`type [12] diabetes|diabetes|asthma|migraines?|psoriasis|eczema|celiac disease|coeliac disease|arthritis|high blood pressure|hypertension|epilepsy|adhd|anxiety|depression|hay fever|tinnitus|crohn's disease|ibs|endometriosis|pcos|insomnia|tendinitis|tendonitis|herniated disc|slipped disc|sciatica|plantar fasciitis|tennis elbow|high cholesterol|sleep apnea|sleep apnoea|gout|anemia|anaemia|hypothyroidism|fibromyalgia|long covid|acid reflux|gerd`;
const MEDICINES = String.raw`statins|insulin|metformin|antidepressants|beta[- ]blockers|blood thinners|warfarin|levothyroxine|thyroxine|the pill|hrt|prednisone|steroids|sertraline|fluoxetine|lithium|methotrexate|antihistamines|iron tablets`;
const DIETS = String.raw`vegetarian|vegan|pescatarian|gluten[- ]free|keto|halal|kosher|dairy[- ]free|teetotal`;

// Foods and drinks one gives up, by name.
const GIVEN_UP = String.raw`red\s+meat|meat|pork|beef|dairy|sugar|alcohol|booze|drinking|caffeine|coffee|bread|carbs|gluten|wheat|soda|fizzy\s+drinks|junk\s+food|fast\s+food|processed\s+food|eggs|cheese|milk|chocolate|sweets|wine|beer`;

/** Allergies, intolerances, conditions, medicines, pregnancy, then diet and what the user avoids. */
export const HEALTH_DIET_FACTS: readonly FactPattern[] = [
  // Health: allergies, intolerances, conditions.
  {
    k: (value) => `allergy:${slug(value)}`,
    pattern: new RegExp(
      String.raw`\bI(?:'m| am)\s+(?:also\s+|severely\s+|very\s+|really\s+|deathly\s+)?allergic\s+to\s+([\p{L}\s'-]{2,30}?)${PHRASE_END}`,
      'u',
    ),
    accept: (value) => `allergic to ${value}`,
  },
  {
    k: (value) => `intolerance:${slug(value)}`,
    pattern: /\bI(?:'m| am)\s+(?:also\s+|pretty sure I'm\s+)?([\p{L}-]{3,20})\s+intolerant\b/u,
    accept: (value) => `${value} intolerant`,
  },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: new RegExp(
      String.raw`\bI(?:\s+have|\s+get|'ve\s+got|\s+have\s+got|\s+suffer from|\s+was diagnosed with|\s+got diagnosed with|'ve\s+been diagnosed with|\s+live with)\s+(?:mild\s+|severe\s+|chronic\s+|bad\s+)?(${CONDITIONS})\b`,
      'iu',
    ),
  },
  // "my hay fever is the worst", "the physio says it's patellar tendinitis", "I'm on statins",
  // "my dermatologist put me on Otezla", "I'm 20 weeks pregnant".
  { k: (value) => `health:${slug(value)}`, pattern: new RegExp(String.raw`\bmy\s+(${CONDITIONS})\b`, 'iu') },
  {
    k: (value) => `health:${slug(value.split(' ').slice(-2).join(' '))}`,
    pattern: new RegExp(
      String.raw`\b(?:says|said|confirmed|thinks)\s+(?:it's|it is|it was|I have|I've got)\s+((?:[\p{L}]+\s+)?(?:${CONDITIONS}))\b`,
      'iu',
    ),
  },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:now\s+|also\s+|still\s+)?on\s+(${MEDICINES})\b`, 'iu'),
    accept: (value) => `on ${value}`,
  },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: new RegExp(String.raw`\b(?:put|started)\s+me\s+on\s+(${MEDICINES}|\p{Lu}[\p{L}-]+)`, 'u'),
    accept: (value) => `on ${value}`,
    withSince: true,
  },
  {
    k: 'health:pregnancy',
    pattern: /\bI(?:'m| am)\s+((?:(?:\d+|[a-z]+)\s+(?:weeks?|months?)\s+)?pregnant)\b/iu,
    withSince: true,
  },
  // "I'm 20 weeks pregnant and vegetarian", "been vegan 5 years", "not vegan anymore, just vegetarian".
  {
    k: 'diet',
    pattern: new RegExp(String.raw`\bI(?:'m| am)\s+[\p{L}\d\s]{1,30}?\s+and\s+(${DIETS})\b`, 'iu'),
    withSince: true,
  },
  {
    k: 'diet',
    pattern: new RegExp(
      String.raw`(?:^|[,;.!—–-]\s*)(?:(?:I've\s+)?been\s+)?(${DIETS})\s+(?:for\s+)?(?:\d+|a|two|three|four|five|six|many|several)\s+(?:years?|yrs?|months?|mos?)\b`,
      'iu',
    ),
    withSince: true,
  },
  {
    k: 'diet',
    pattern: new RegExp(String.raw`(?:^|[,;—–-]\s*)(?:so\s+)?(?:just|now|only|so)\s+(${DIETS})\b`, 'iu'),
    withSince: true,
  },
  // Diet: "I'm vegetarian", "I've gone vegan", "I don't drink alcohol", "stopped eating red meat".
  {
    k: 'diet',
    pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:now\s+|also\s+|still\s+|strictly\s+|a\s+)?(${DIETS})\b`, 'iu'),
    withSince: true,
  },
  {
    k: 'diet',
    pattern: new RegExp(String.raw`\bI(?:'ve| have)\s+(?:gone|become|turned|been)\s+(${DIETS})\b`, 'iu'),
    withSince: true,
  },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(
      String.raw`\bI\s+(?:don't|do not|never|can't|cannot)\s+(?:actually\s+|really\s+|even\s+|usually\s+|ever\s+|generally\s+|normally\s+)?(?:eat|drink|take)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`,
      'u',
    ),
    accept: (value) => (/^(?:much|any|anything|that|it|them|this|a lot)\b/u.test(value) ? undefined : `no ${value}`),
  },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(
      String.raw`\b(?:stopped|quit|gave up|given up)\s+(?:eating|drinking)\s+(?!(?:in|on|at|for|since|last|this|after|before|during|when|because|and|but|so|a|any|anymore|again|completely|altogether|entirely|for)\b)([\p{L}\s-]{2,25}?)${PHRASE_END}`,
      'u',
    ),
    accept: (value) => `no ${value}`,
    withSince: true,
  },
  // A food or drink given up by its name: "I gave up meat last year", "I've cut out sugar", "I quit
  // drinking" (alcohol). Only these words: "I gave up the project" is no diet.
  {
    k: (value) => `avoids:${slug(value === 'drinking' || value === 'booze' ? 'alcohol' : value)}`,
    pattern: new RegExp(
      String.raw`\bI(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|completely\s+|totally\s+|also\s+)?(?:gave\s+up|given\s+up|cut\s+out|quit|stopped|ditched)\s+(${GIVEN_UP})\b(?!\s+(?:for\s+(?:lent|a\s+(?:week|month|day))|today|this\s+week))`,
      'u',
    ),
    accept: (value) => (value === 'drinking' || value === 'booze' ? 'no alcohol' : `no ${value}`),
    withSince: true,
  },
];

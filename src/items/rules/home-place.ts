// Where the user lives, said in passing (MemoryTypes v0.1 §3.1, the `location` fact of
// profile:user): "I'm a GP in Cork btw", "I'm keeping the flat in Rotterdam", "we're out at
// Toowoomba on a half-acre", "my job as a planning analyst at Weir Group in Glasgow", "3 weeks in
// abuja now". No phrasing is listed: a known place (places.ts) after a word of place (in, at, near,
// outside) in a clause where the user speaks of their own life here and now. A capitalised name must
// be a town of at least 15,000 people or a country; a name in lower case, as chat writes it, a city of
// at least 300,000. Not a home: travel and visits ("in Hanoi for a conference", "this week"), the
// past ("grew up in", "used to", "was born"), where a move comes from or goes to (the move rules'),
// someone else's home ("my sister lives in Porto", "at my mum's in Leeds"), questions. A sentence
// another rule already read a location from is left to it.

import { factRule, statedFacts, type Fact } from './fact-patterns.js';
import { placeNamed } from './places.js';
import type { Rule, SentenceContext } from './rule.js';

/** Words of place a home follows. */
const LOCATIVE = /\b(?:in|at|near|outside|around)\s+/giu;
/** The words after a word of place that may name it: up to four, up to the clause's end. */
const WORDS_AFTER = /^[\p{L}\p{M}'’.-]+(?:\s+[\p{L}\p{M}'’.-]+){0,3}/u;
/** How far past the word of place a name may start ("at UCH Ibadan", "in the centre of Lyon"). */
const MAX_SKIP = 3;
const MIN_LOWER_CASE_CITY = 300_000;
const NOT_PLACE =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|sale|home|work|school|uni|college|church|the|a|an)$/iu;

// The clause is the user's own life: their job, their home, "here", "I'm…", "we've been…".
const OWN_LIFE =
  /\b(?:i'm|i am|we're|we are|i've been|i have been|we've been|we have been|i live|we live|i work|we work|i teach|i study|i'm based|based|living|settled|my (?:job|house|flat|home|place|office|work|team|company|practice|clinic|shop|studio|street|neighbou?rhood|area|town|city|village|garden)|our (?:house|flat|home|place|office|street|neighbou?rhood|area|town|city|village|garden)|here(?!['’]s|\s+(?:is|are)\b))\b/iu;
// "3 weeks in abuja now", "two years in Leeds now": how long the user has been there.
const BEEN_THERE =
  /\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|few|several)\s+(?:days?|weeks?|months?|years?|yrs?)\s+in\s+[\p{L}\s-]+?\s+now\b/iu;
const AWAY =
  /\b(?:trip|holidays?|vacation|visit\w*|conference|flights?|fly|flying|flew|layover|stopover|airport|station|tour|touring|honeymoon|hotel|hostel|airbnb|weekend|this week|for a (?:few )?(?:days?|week|night)|festival|wedding|concert|gig|match|interview|baptism|christening|funeral|ceremony|party|tour|perform\w*|shoot\w*|show|gonna|will|'ll|can't wait|excited|hop(?:e|ing)|wanna|want to|plan(?:s|ned)?|planning (?:to|on|a|for)|travel\w*|back in|back home|landed|landing|arriv\w*|back from|going to|heading|off to|moving|move to|moved|relocat\w*|transfer\w*|next|tomorrow|tonight|soon|later|grew up|born|used to|was|were|lived|last|ago|previously|originally|from|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/iu;
// Someone else's home or life: "my sister lives in Porto", "at my mum's in Leeds", "she's in Oslo".
const SOMEONE_ELSE =
  /\b(?:my|our|his|her|their)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:is|are|was|were|works?|lives?|teaches|studies|'s)\b|\b(?:he|she|they)(?:'s|'re|\s+is|\s+are|\s+works?|\s+lives?)\b|\b[\p{L}]+['’]s\s+(?:place|house|flat|home)\b|\b(?:mum|mom|dad|parents|sister|brother|friend|grandma|gran|nan)['’]s\b|\b(?:parents|folks|family|relatives|in-laws)\b/iu;

/** The place a word of place introduces in a clause, if any: the longest known name within reach. */
function placeAfter(clause: string, at: number): string | undefined {
  const rest = clause.slice(at);
  const words = WORDS_AFTER.exec(rest)?.[0].split(/\s+/u) ?? [];
  for (let skip = 0; skip <= Math.min(MAX_SKIP, words.length - 1); skip += 1) {
    for (let length = Math.min(4, words.length - skip); length >= 1; length -= 1) {
      const written = words
        .slice(skip, skip + length)
        .join(' ')
        .replace(/[.'’-]+$/u, '');
      // A place inside an organisation's name is not where anyone lives: "University of Abuja", "the Glasgow Climbing Centre".
      const next = words[skip + length];
      if (NOT_PLACE.test(written) || next?.toLowerCase() === 'of' || (next !== undefined && /^\p{Lu}/u.test(next)))
        continue;
      const place = placeNamed(written);
      if (place === undefined) continue;
      const capitalised = /^\p{Lu}/u.test(written);
      // Words skipped before a name are "the" or part of a name ("at UCH Ibadan", "in the Edinburgh office"), never "in such a nice place".
      if (!words.slice(0, skip).every((word, at) => /^\p{Lu}/u.test(word) || (at === 0 && /^the$/iu.test(word))))
        continue;
      if (capitalised || (skip === 0 && (place.kind === 'country' || place.population >= MIN_LOWER_CASE_CITY)))
        return place.name;
    }
  }
  return undefined;
}

/** The user's home town a sentence tells in passing, as a `location` fact. */
function homePlace(context: SentenceContext): Fact[] {
  if (context.question) return [];
  if (statedFacts(context).has('location')) return [];
  for (const clause of context.text.split(/[,;:!?()—–]|\.\s/u)) {
    const lower = clause.toLowerCase();
    if (!(OWN_LIFE.test(lower) || BEEN_THERE.test(lower)) || AWAY.test(lower) || SOMEONE_ELSE.test(lower)) continue;
    LOCATIVE.lastIndex = 0;
    for (let found = LOCATIVE.exec(clause); found !== null; found = LOCATIVE.exec(clause)) {
      const place = placeAfter(clause, found.index + found[0].length);
      if (place !== undefined) return [{ k: 'location', v: place }];
    }
  }
  return [];
}

// Said in passing, a home is weaker evidence than "I live in…": a later statement of either kind replaces it.
export const HOME_PLACE_RULES: readonly Rule[] = [
  {
    ...factRule('en.profile.home_place', 'en', /\bin |\bat |\bnear |\boutside |\baround /, homePlace),
    confidence: 0.7,
  },
];

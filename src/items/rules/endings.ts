// Facts the user ends, in English: what they sold or gave away, stopped doing, left or lost — "I sold
// my Honda", "I stopped going to the gym", "no more coffee for me", "Nutella died last week", "we
// broke up", "I quit my job". Each is a profile fact with `v: null` (values.ts, mergeValue): one
// naming the fact's `k` when the sentence says which (employer, partner), else `*:<words>`, which
// ends whatever current fact holds those words. The rule runs before the other profile rules, so a
// new value stated beside the end ("sold my Honda and bought a Corolla") is kept.

import { ANY_KIND } from '../values.js';
import { factRule, factsBy, NAME, PHRASE_END, slug, type Fact, type FactPattern } from './fact-patterns.js';
import { REPLACEMENT_CUE } from './replacements.js';
import type { Rule, SentenceContext } from './rule.js';

// The thing ended, up to the end of its phrase; a pronoun names nothing the rule can find.
const OBJECT = String.raw`(?:my\s+|the\s+|our\s+)?([\p{L}\p{N}][\p{L}\p{N}\s:'’-]{1,40}?)(?=\s+(?:after|before|during|until|on|from|to|about|last|yesterday|today|this|ago|a\s+(?:week|month|year))\b|${PHRASE_END.slice(3)}`;
const NOT_NAMED =
  /^(?:it|that|this|them|those|these|one|ones|something|anything|everything|nothing|stuff|things?|a lot|lots|job|work)$/iu;
// The speaker, or a sentence that starts with the verb ("sold the prusa", "also quit the gym").
const I = String.raw`(?:\b(?:I|[Ww]e)(?:'ve|\s+have|'d|\s+had)?\s+|^)(?:(?:just|finally|recently|also|already|officially|actually|eventually|sadly|now)\s+)*`;
const ALSO = String.raw`(?:^|[,;:.!—–-]\s*|\b(?:and|so|but)\s+)(?:(?:also|just|finally|now|so)\s+)*`;

/** An end by words: whatever current fact holds the words of `value`. */
const byWords = (value: string): string | undefined =>
  NOT_NAMED.test(value) ? undefined : `${ANY_KIND}${slug(value)}`;
const named = (value: string): string | undefined => (NOT_NAMED.test(value) ? undefined : value);

// "I'm" (not "I'm sure"), then what the user is: a state, a diet, or a job held ("working as a nurse").
const I_AM = String.raw`\bI(?:'m|’m|\s+am)\s+`;
const STATE = String.raw`(?:working\s+as\s+|employed\s+as\s+)?(?:an?\s+)?${OBJECT}`;
// Feelings and doings are no facts to end: "I'm not really sure", "I'm no longer worried".
const NOT_A_STATE =
  /^(?:sure|certain|convinced|worried|afraid|scared|able|allowed|going|doing|feeling|hungry|tired|angry|mad|upset|kidding|joking|talking|asking|saying|interested|in the mood|(?:big\s+|huge\s+)?fan|into it|that)\b/iu;
const aState = (value: string): string | undefined => (NOT_A_STATE.test(value) ? undefined : named(value));

const PARTNERS = ['partner', 'boyfriend', 'girlfriend', 'wife', 'husband', 'fiance'] as const;

const EN_ENDINGS: readonly FactPattern[] = [
  // Things: "I sold my old Honda motorbike", "traded the Pentax for a Canon", "got rid of the boat".
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`${I}(?:sold|got rid of|gave away|given away|traded(?:\s+in)?|donated|scrapped|lost|totall?ed|wrote off|written off|closed|shut down)\s+${OBJECT}`,
      'iu',
    ),
    accept: named,
    ends: true,
  },
  // Activities and habits: "I stopped journaling", "gave up the 16:8 thing", "I quit the gym".
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`${I}(?:stopped|quit|gave up|given up|ditched|cancell?ed)\s+(?!(?:eating|drinking|smoking)\b)(?:going\s+to\s+(?:the\s+)?|doing\s+(?:the\s+)?|my\s+|the\s+)?${OBJECT}`,
      'iu',
    ),
    accept: (value) => named(value.replace(/\s+thing$/u, '')),
    ends: true,
  },
  // "no more Maidan walks", "no more injections!", "no more coffee for me"; not "no more than".
  {
    k: byWords,
    pattern: new RegExp(String.raw`${ALSO}no\s+more\s+(?!than\b|of\b|time\b|need\b|excuses\b)${OBJECT}`, 'iu'),
    accept: named,
    ends: true,
  },
  // "I'm running in the mornings instead of swimming": what the new habit replaces.
  {
    k: byWords,
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)\b[^.!?]*?\binstead\s+of\s+${OBJECT}`, 'u'),
    accept: named,
    ends: true,
  },
  // "she took me off the statins", "my doctor took me off metformin".
  {
    k: byWords,
    pattern: new RegExp(String.raw`\b(?:took|taken|takes)\s+me\s+off\s+${OBJECT}`, 'u'),
    accept: named,
    ends: true,
  },
  // Places and employers left: "I left Orascom last month", "we left Nashville", "goodbye BMW".
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`${I}(?:left|moved\s+out\s+of|resigned\s+from|am\s+resigning\s+from|'m\s+resigning\s+from)\s+${NAME}`,
      'u',
    ),
    ends: true,
  },
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`\b(?:I'm\s+resigning|I\s+resigned|I\s+quit|I'm\s+quitting|(?:handed|handing)\s+in\s+my\s+(?:notice|resignation))\s+(?:from|at|to)\s+(?:the\s+|my\s+)?${OBJECT}`,
      'u',
    ),
    accept: named,
    ends: true,
  },
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`\b(?:handed|handing)\s+in\s+my\s+(?:notice|resignation)\s+as\s+(?:an?\s+)?${OBJECT}`,
      'u',
    ),
    accept: named,
    ends: true,
  },
  // Without the subject, after a clause of the user's: "transferred to the Cape Town office, left Joburg
  // a month ago". Only with a time it happened, so a direction ("turn right, left Main Street") is no end.
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`[,;—–]\s*(?:and\s+)?(?:just\s+|finally\s+)?left\s+${NAME}(?=\s+(?:(?:a|one|two|three|four|five|six|several|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?|years?)\s+ago|last\s+(?:week|month|year|spring|summer|autumn|fall|winter)|yesterday|in\s+(?:January|February|March|April|May|June|July|August|September|October|November|December|\d{4})))`,
      'u',
    ),
    ends: true,
  },
  {
    k: byWords,
    pattern: new RegExp(String.raw`\b(?:[Gg]oodbye|[Bb]ye bye|[Ss]o long|[Ff]arewell)\s+${NAME}`, 'u'),
    ends: true,
  },
  // "I quit my job", "I got laid off": no employer now.
  {
    k: 'employer',
    pattern:
      /\bI\s+(?:just\s+)?(?:quit|left|lost)\s+my\s+(job)\b|\bI\s+(?:got|was|have been|'ve been)\s+(laid off|let go|made redundant|fired)\b|\bI(?:'m| am)\s+(?:now\s+)?(unemployed|between jobs|out of work)\b/u,
    accept: () => 'job',
    group: 0,
    ends: true,
  },
  // Pets and people who died: "Nutella died last week", "my cat passed away".
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`(?:\b(?:[Mm]y|[Oo]ur)\s+(?:old\s+|sweet\s+|little\s+)?[\p{L}]+\s+|^|[.,:;—–-]\s+)(?!I\s)${NAME}\s+(?:died|passed away|was put down|was put to sleep|crossed the rainbow bridge)\b`,
      'u',
    ),
    ends: true,
  },
  // A pet gone to another home: "Kiwi went back to my mum's", "Biscuit went to live with my
  // parents", "we had to rehome Biscuit". People go back to places too ("Ana went back to her
  // mum's"), so this ends only a pet of that name (`pet:<name>`), never a person's fact.
  {
    k: (value) => `pet:${slug(value)}`,
    pattern: new RegExp(
      String.raw`(?:\b(?:[Mm]y|[Oo]ur)\s+(?:old\s+|sweet\s+|little\s+)?[\p{L}]+\s+|^|[.,:;—–-]\s+)(?!I\s)${NAME}\s+(?:(?:went|has gone|is going)\s+back\s+to\s+(?:(?:my|his|her|their|our)\s+[\p{L}-]+(?:'s|’s)|(?:his|her|their)\s+owners?)|went\s+to\s+live\s+with|(?:was|got|has been)\s+rehomed)\b`,
      'u',
    ),
    ends: true,
  },
  {
    k: (value) => `pet:${slug(value)}`,
    pattern: new RegExp(String.raw`${I}(?:had\s+to\s+)?rehomed?\s+${NAME}\b`, 'u'),
    ends: true,
  },
  {
    k: byWords,
    pattern:
      /\b(?:[Mm]y|[Oo]ur)\s+(?:old\s+|sweet\s+|little\s+)?(dog|cat|hamster|rabbit|parrot|budgie|guinea pig|horse|tortoise|fish|kitten|puppy)\s+(?:died|passed away|was put down|was put to sleep)\b/u,
    ends: true,
  },
  // What the user turns out not to be: "I'm not actually vegan", "I'm NOT lactose intolerant after
  // all". A plain "I'm not vegan" can be a first statement, so a word of correction is needed.
  {
    k: byWords,
    pattern: new RegExp(String.raw`${I_AM}not\s+(?:actually|really)\s+${STATE}`, 'iu'),
    accept: aState,
    ends: true,
  },
  // ("…anymore" and "no longer…" are retractions, which end a state by stateEnded.)
  {
    k: byWords,
    pattern: new RegExp(String.raw`${I_AM}not\s+${STATE}\s+after\s+all\b`, 'iu'),
    accept: aState,
    ends: true,
  },
  // "Pepper isn't actually ours": a pet or thing the user turns out not to have.
  {
    k: byWords,
    pattern: new RegExp(
      String.raw`${NAME}\s+(?:isn't|is not|wasn't|was not)\s+(?:actually\s+|really\s+)?(?:ours|mine)\b`,
      'u',
    ),
    ends: true,
  },
];

// A condition or a wish ends nothing: "if I sold my car", "I would quit the gym".
const UNREAL = /\b(?:if|unless|whether|suppose|would|wish|should I|thinking (?:of|about)|considering)\b/iu;

// Breaking up ends the partner, whatever they were called.
const BREAK_UP =
  /\b(?:[Ww]e|I)\s+(?:just\s+|finally\s+|recently\s+)?(?:broke up|split up|separated|divorced|got divorced|called it off|called off the engagement)\b|\bI(?:'m| am)\s+(?:single|divorced)\s+(?:now|again)\b/u;

const STATE_CLAUSE = new RegExp(String.raw`^${STATE}$`, 'iu');

/**
 * The end of what a denied clause says the user was ("I'm not working as a courier anymore": the
 * clause `working as a courier`), by its words; undefined for a feeling or a doing ("not sure").
 *
 * @example
 * stateEnded('working as a courier', '2026-03-02') // { k: '*:courier', v: null, was: 'courier', until: '2026-03-02' }
 */
export function stateEnded(clause: string, date: string): Fact | undefined {
  const found = STATE_CLAUSE.exec(clause.trim());
  const state = found?.[1] === undefined ? undefined : aState(found[1].trim());
  const k = state === undefined ? undefined : byWords(state);
  return state === undefined || k === undefined ? undefined : { k, v: null, was: state, until: date };
}

/** The facts a sentence ends. */
export function endingsOf(context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  if (UNREAL.test(context.text)) return [];
  const facts = factsBy(EN_ENDINGS, context);
  if (BREAK_UP.test(context.text)) {
    for (const partner of PARTNERS) facts.push({ k: `family:${partner}`, v: null, was: partner, until: context.date });
  }
  return facts;
}

/** Words without which a sentence ends no fact (also what tells the writer to load the current keys). */
export const ENDING_CUE = new RegExp(
  String.raw`not actually|not really|after all|${REPLACEMENT_CUE.source}|` +
    /sold|got rid of|gave away|given away|traded|donated|scrapped|lost|totall?ed|wrote off|written off|closed|shut down|stopped|quit|gave up|given up|ditched|cancell?ed|no more|instead of|me off|left|moved out|resign|notice|goodbye|bye bye|so long|farewell|laid off|let go|redundant|fired|unemployed|between jobs|out of work|died|passed away|put down|put to sleep|rainbow bridge|went back to|gone back to|going back to|went to live|rehome|ours|mine|broke up|split up|separated|divorced|called it off|called off|single/
      .source,
);

export const ENDING_RULES: readonly Rule[] = [factRule('en.profile.end', 'en', ENDING_CUE, endingsOf)];

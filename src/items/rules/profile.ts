// Profile facts (MemoryTypes v0.1 §3.1): stable things the user states about themself — name, role,
// employer, where they live and come from. All facts go to profile:user; the writer merges facts
// by `k`. Only explicit first-person statements by the user count.

import type { Rule, SentenceContext } from './rule.js';
import { factRule, factsBy, NAME, PHRASE_END, slug, type Fact, type FactPattern } from './fact-patterns.js';

export { PROFILE_KEY, type Fact } from './fact-patterns.js';
// Roles end like roles: engineer, designer, scientist, analyst, student, founder, CEO.
const ROLE_END =
  /(?:er|or|ist|ian|ant|ent|ect|ive|ager|ess|ee|ster|ler|smith|wright|man|woman|person|ceo|cto|cfo|coo|pm|vp|lead|head|chef|nurse|founder|student|dev|intern|partner|director|officer|professor|doctor|artist|teacher|owner)$/i;
const NOT_ROLE = /^(?:bit|little|lot|fan|big|huge|total|complete|mess|fast|slow|quick|morning|night|real|good|bad|great|fine|new|old|native|speaker)\b/i;

// The same name, not captured: the place a move starts from.
const NAME_SKIP = `(?:${NAME.slice(1)}`;
// Relatives with one of a kind (a new name replaces the old) and with several (each has its own fact).
const ONE_RELATIVE = String.raw`wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|mum|mom|mother|dad|father`;
const RELATIVES = String.raw`${ONE_RELATIVE}|son|daughter|sister|brother|niece|nephew|grandson|granddaughter|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|stepson|stepdaughter|twins|kids?|children|baby`;
const SINGLE_RELATIVE = new RegExp(`^(?:${ONE_RELATIVE})$`, 'iu');
const PETS = String.raw`dog|cat|puppy|kitten|parrot|budgie|hamster|rabbit|bunny|horse|pony|gelding|mare|tortoise|turtle|gecko|snake|goldfish|guinea pig|lab|labrador|retriever|shiba|beagle|corgi|poodle|terrier|collie|husky|dachshund|spaniel|pug|greyhound|kelpie|dalmatian`;
const CONDITIONS = String.raw`type [12] diabetes|diabetes|asthma|migraines?|psoriasis|eczema|celiac disease|coeliac disease|arthritis|high blood pressure|hypertension|epilepsy|adhd|anxiety|depression|hay fever|tinnitus|crohn's disease|ibs|endometriosis|pcos|insomnia`;
const DIETS = String.raw`vegetarian|vegan|pescatarian|gluten[- ]free|keto|halal|kosher|dairy[- ]free|teetotal`;
/** A relative's key: one per kind of relative that is unique, else one per name. */
function relativeKey(_name: string, found: RegExpExecArray): string {
  const relation = found[1]!.toLowerCase().replace('mom', 'mum').replace(/fianc[ée]e?/u, 'fiance');
  return SINGLE_RELATIVE.test(relation) ? `family:${relation}` : `family:${relation}:${slug(found[2]!)}`;
}

const EN_FACTS: readonly FactPattern[] = [
  { k: 'name', pattern: new RegExp(String.raw`\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me|I'm called|I am called)\s+${NAME}`, 'u') },
  {
    k: 'role',
    pattern: /\bI\s+work\s+as\s+(?:an?\s+|the\s+)?([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on)\b|[,.;!?]|$)/iu,
  },
  {
    k: 'role',
    pattern: /\bI(?:'m| am)\s+(?:an?|the)\s+([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on|and|who|based|from)\b|[,.;!?]|$)/iu,
    accept: (value) => (NOT_ROLE.test(value) || !ROLE_END.test(value) || value.split(/\s+/).length > 5 ? undefined : value),
  },
  { k: 'employer', pattern: new RegExp(String.raw`\bI\s+(?:work|am working|'m working)\s+(?:at|for)\s+${NAME}`, 'u') },
  { k: 'employer', pattern: new RegExp(String.raw`\bI(?:'m| am| work as)\s+an?\s+[\p{L}\s-]{2,40}?\s+(?:at|for)\s+${NAME}`, 'u') },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+|actually\s+)?(?:live|reside|am based|'m based|are based|'re based|am living|'m living|are living|'re living|currently live)\s+(?:in|on)\s+${NAME}`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:(?:'ve| have)?|\b[^.!?;]{0,80}?\band)\s+(?:just\s+|finally\s+|recently\s+|then\s+)?(?:moved|relocated)\s+(?:from\s+${NAME_SKIP}\s+)?(?:over\s+|back\s+)?to\s+${NAME}`, 'u'),
    withSince: true,
  },
  // "I'm in Galway now", "living in London now", "we've been in Stuttgart for two weeks", "here in Pune".
  { k: 'location', pattern: new RegExp(String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:now\s+)?in\s+${NAME}\s+now\b`, 'u'), withSince: true },
  { k: 'location', pattern: new RegExp(String.raw`\b[Ll]iving\s+in\s+${NAME}`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:'ve| have)\s+been\s+(?:living\s+)?in\s+${NAME}\s+for\b`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\bhere\s+in\s+${NAME}`, 'u') },
  { k: 'origin', pattern: new RegExp(String.raw`\bI(?:'m| am| come| came)\s+(?:originally\s+)?from\s+${NAME}`, 'u') },
  // Family with names: "my wife Hannah", "my sister is called Ana", "my dad, Suresh".
  {
    k: relativeKey,
    group: 2,
    pattern: new RegExp(String.raw`\b[Mm]y\s+(${RELATIVES})(?:,)?\s+(?:is\s+called\s+|is\s+named\s+|named\s+|called\s+)?${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // Pets with names: "my dog Bruno", "our older cat Mitzi", "a beagle called Lola".
  {
    k: (value) => `pet:${slug(value.split(' ').at(-1)!)}`,
    group: 2,
    pattern: new RegExp(String.raw`\b(?:[Mm]y|[Oo]ur)\s+(?:own\s+|old\s+|older\s+|younger\s+|new\s+|little\s+|rescue\s+)?(${PETS})\s+(?:is\s+called\s+|called\s+|named\s+)?${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  {
    k: (value) => `pet:${slug(value.split(' ').at(-1)!)}`,
    group: 2,
    pattern: new RegExp(String.raw`\b(?:a|an)\s+(?:[\p{L}-]+\s+){0,3}?(${PETS})(?:\s+[\p{L}-]+){0,2}\s+(?:called|named)\s+${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // Work changes: "I accepted a job at Porsche", "I joined a firm called Taller Norte", "I'm at Meezan Bank now".
  {
    k: 'employer',
    pattern: new RegExp(String.raw`\b(?:I\s+(?:just\s+|finally\s+)?(?:accepted\s+(?:a|the)\s+(?:job|position|role|offer)\s+(?:at|with)|got\s+(?:a|the)\s+job\s+(?:at|with)|joined|started\s+(?:a\s+new\s+job\s+)?at)|(?:I'm|I am)\s+(?:now\s+)?working\s+(?:for|at)|(?:I'm|I am)\s+at)\s+(?:a\s+(?:firm|company|startup)\s+called\s+)?${NAME}`, 'u'),
    accept: (value) => (/^(?:The|A|An|My|Our|Home|Work|Least|Most|First|Last|Least)$/u.test(value) ? undefined : value),
    withSince: true,
  },
  // Health: allergies, intolerances, conditions.
  {
    k: (value) => `allergy:${slug(value)}`,
    pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:also\s+|severely\s+|very\s+|really\s+|deathly\s+)?allergic\s+to\s+([\p{L}\s'-]{2,30}?)${PHRASE_END}`, 'u'),
    accept: (value) => `allergic to ${value}`,
  },
  {
    k: (value) => `intolerance:${slug(value)}`,
    pattern: /\bI(?:'m| am)\s+(?:also\s+|pretty sure I'm\s+)?([\p{L}-]{3,20})\s+intolerant\b/u,
    accept: (value) => `${value} intolerant`,
  },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: new RegExp(String.raw`\bI\s+(?:have|get|suffer from|was diagnosed with|got diagnosed with|live with)\s+(?:mild\s+|severe\s+|chronic\s+|bad\s+)?(${CONDITIONS})\b`, 'iu'),
  },
  // Diet: "I'm vegetarian", "I've gone vegan", "I don't drink alcohol", "stopped eating red meat".
  { k: 'diet', pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:now\s+|also\s+|still\s+|strictly\s+|a\s+)?(${DIETS})\b`, 'iu'), withSince: true },
  { k: 'diet', pattern: new RegExp(String.raw`\bI(?:'ve| have)\s+(?:gone|become|turned|been)\s+(${DIETS})\b`, 'iu'), withSince: true },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(String.raw`\bI\s+(?:don't|do not|never|can't|cannot)\s+(?:eat|drink|take)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`, 'u'),
    accept: (value) => (/^(?:much|any|anything|that|it|them|this|a lot)\b/u.test(value) ? undefined : `no ${value}`),
  },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(String.raw`\b(?:stopped|quit|gave up|given up)\s+(?:eating|drinking)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`, 'u'),
    accept: (value) => `no ${value}`,
    withSince: true,
  },
];

/** The profile facts a sentence states. */
export function factsOf(context: Pick<SentenceContext, 'text' | 'language' | 'date'>): Fact[] {
  return factsBy(EN_FACTS, context);
}

export const PROFILE_RULES: readonly Rule[] = [
  factRule(
    'en.profile.fact',
    'en',
    /\bmy name|\bcall me|\bi'm called|\bi am called|\bi work|\bi'm an?\b|\bi am an?\b|\bi'm the\b|\bi am the\b|\b(?:i|we)(?: now| currently| still| actually)? live|\bi reside|\bbased in|\bliving in|moved|relocated|\bfrom\b|\bi'm in\b|\bi am in\b|\bwe're in\b|\bwe are in\b|been (?:living )?in\b|here in\b|\bmy |\bour |called|named|allergic|intolerant|\bi (?:have|get|suffer|was diagnosed|got diagnosed|live with)\b|vegetarian|vegan|pescatarian|gluten|keto|halal|kosher|dairy|teetotal|\bi (?:don't|do not|never|can't|cannot) (?:eat|drink|take)\b|stopped|quit|gave up|given up|accepted|joined|started|working (?:for|at)|\bi'm at\b|\bi am at\b/,
    factsOf,
  ),
];

// Profile facts (MemoryTypes v0.1 §3.1): stable things the user states about themself — name, role,
// employer, where they live and come from. All facts go to profile:user; the writer merges facts
// by `k`. Only explicit first-person statements by the user count.

import type { Rule, SentenceContext } from './rule.js';
import { factRule, factsBy, NAME, PHRASE_END, slug, type Fact, type FactPattern } from './fact-patterns.js';
import { placeNamed } from './places.js';

export { PROFILE_KEY, type Fact } from './fact-patterns.js';
// Roles end like roles: engineer, designer, scientist, analyst, student, founder, CEO.
const ROLE_END =
  /(?:er|or|ist|yst|ian|ant|ent|ect|ive|ager|ess|ee|ster|ler|smith|wright|man|woman|person|ceo|cto|cfo|coo|pm|vp|lead|head|chef|nurse|medic|mechanic|founder|student|dev|intern|partner|director|officer|professor|doctor|artist|teacher|owner)$/i;
// Roles at a family occasion are no job: "I'm the godmother".
const NOT_ROLE =
  /^(?:regular|member|guest|customer|client|patient|visitor|tourist|passenger|subscriber|resident|bit|little|lot|fan|big|huge|total|complete|mess|fast|slow|quick|morning|night|real|good|bad|great|fine|new|old|native|speaker|godmother|godfather|godparent|bridesmaid|groomsman|best man|maid of hono(?:u)?r|flower girl|ring bearer)\b/i;
// What others say the user is ("now they think I'm a cat scientist") is no role.
const REPORTED =
  /\b(?:think|thinks|thought|say|says|said|joke|jokes|joked|believe|believes|assume|assumes|assumed|pretend|pretended)\s+(?:that\s+)?$/iu;
// A clause about someone else: "my sister is a nurse here in Cork" says where she works, not where the user lives.
const SOMEONE_ELSE =
  /\b(?:my|our|his|her|their)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:is|are|was|were|works?|lives?|teaches|studies)\b|\b(?:he|she|they)(?:'s|'re|\s+is|\s+are|\s+works?|\s+lives?)\b/iu;

/** The clause a match is in, up to the match. */
function clauseBefore(found: RegExpExecArray): string {
  return (
    found.input
      .slice(0, found.index)
      .split(/[,;.!?—–]/u)
      .at(-1) ?? ''
  );
}

// Ranks that make a role without an article ("I'm head chef now").
const RANK = String.raw`(?:[Hh]ead|[Ss]ous|[Ss]enior|[Jj]unior|[Ll]ead|[Cc]hief|[Pp]rincipal|[Ss]taff|[Aa]ssistant|[Dd]eputy|[Ee]xecutive|[Aa]ssociate)`;
// Places people work at, for an employer named by its kind ("a logistics company", "a solar startup").
const WORKPLACE = String.raw`(?:startup|start-up|company|firm|agency|bank|hospital|school|clinic|studio|restaurant|caf[eé]|hotel|shop|store|bakery|consultancy|charity|nonprofit|non-profit|lab|council|ministry|newspaper|magazine|factory|warehouse|practice|airline|supermarket|gym|salon|garage|pharmacy|nursery|university|college)`;
// What follows a role tells it is one when its word does not ("a GP in Cork", "a junior associate at a
// law firm", "a water engineer with WaterAid"): a workplace, a named employer, or a town.
const WORK_AFTER = new RegExp(
  String.raw`^\s+(?:at|with|for)\s+(?:an?\s+(?:[\p{L}-]+\s+){0,3}?${WORKPLACE}\b|(?:the\s+)?\p{Lu})`,
  'u',
);
const TOWN_AFTER = /^\s+in\s+(\p{Lu}[\p{L}\p{M}'’-]*(?:\s+\p{Lu}[\p{L}\p{M}'’-]*){0,2})/u;

/** Whether the words after a match name where the user works. */
function worksThere(found: RegExpExecArray): boolean {
  const after = found.input.slice(found.index + found[0].length);
  if (WORK_AFTER.test(after)) return true;
  const town = TOWN_AFTER.exec(after)?.[1];
  return town !== undefined && placeNamed(town) !== undefined;
}

// The same name, not captured: the place a move starts from.
const NAME_SKIP = `(?:${NAME.slice(1)}`;
// Relatives with one of a kind (a new name replaces the old) and with several (each has its own fact).
const ONE_RELATIVE = String.raw`wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|mum|mom|mother|dad|father|hubby|missus|other half|better half|bf|gf|father-in-law|mother-in-law|stepdad|stepmum|stepmom`;
// Kin as chat says it: "my lad Owen", "my youngest Keziah", "my father-in-law Rafael", "my bestie Nia".
export const RELATIVES = String.raw`${ONE_RELATIVE}|son|daughter|sister|brother|niece|nephew|grandson|granddaughter|cousin|aunt|auntie|uncle|grandma|grandpa|grandmother|grandfather|nan|nana|gran|granny|grandad|granddad|stepson|stepdaughter|stepbrother|stepsister|half-brother|half-sister|brother-in-law|sister-in-law|son-in-law|daughter-in-law|godson|goddaughter|twins|kids?|children|baby|grandchildren|grandkids|grandsons|granddaughters|lad|lass|boy|girl|eldest|youngest|oldest|little one|bestie|best friend|flatmate|roommate|housemate`;
// The words chat uses for one of a kind, by the word the key keeps: "my hubby" is `family:husband`.
const KIN_KEY: Readonly<Record<string, string>> = {
  hubby: 'husband',
  missus: 'wife',
  'other half': 'partner',
  'better half': 'partner',
  bf: 'boyfriend',
  gf: 'girlfriend',
  stepmom: 'stepmum',
};
const SINGLE_RELATIVE = new RegExp(`^(?:${ONE_RELATIVE})$`, 'iu');
const PETS = String.raw`dog|cat|puppy|kitten|parrot|budgie|cockatiel|canary|hamster|gerbil|ferret|chinchilla|rabbit|bunny|horse|pony|gelding|mare|donkey|goat|chicken|hen|duck|tortoise|turtle|gecko|bearded dragon|lizard|iguana|chameleon|axolotl|snake|goldfish|betta|fish|guinea pig|rat|mouse|lab|labrador|retriever|shiba|beagle|corgi|poodle|terrier|collie|husky|dachshund|spaniel|pug|greyhound|whippet|kelpie|dalmatian|german shepherd|rottweiler|chihuahua|schnauzer|sheepdog|cockapoo|cavapoo|labradoodle|moggy|tabby`;
const CONDITIONS = String.raw`type [12] diabetes|diabetes|asthma|migraines?|psoriasis|eczema|celiac disease|coeliac disease|arthritis|high blood pressure|hypertension|epilepsy|adhd|anxiety|depression|hay fever|tinnitus|crohn's disease|ibs|endometriosis|pcos|insomnia|tendinitis|tendonitis|herniated disc|slipped disc|sciatica|plantar fasciitis|tennis elbow|high cholesterol|sleep apnea|sleep apnoea|gout|anemia|anaemia|hypothyroidism|fibromyalgia|long covid|acid reflux|gerd`;
const MEDICINES = String.raw`statins|insulin|metformin|antidepressants|beta[- ]blockers|blood thinners|warfarin|levothyroxine|thyroxine|the pill|hrt|prednisone|steroids|sertraline|fluoxetine|lithium|methotrexate|antihistamines|iron tablets`;
const DIETS = String.raw`vegetarian|vegan|pescatarian|gluten[- ]free|keto|halal|kosher|dairy[- ]free|teetotal`;
/** A relative's key: one per kind of relative that is unique, else one per name. */
function relativeKey(name: string, found: RegExpExecArray): string {
  const written = found[1]!.toLowerCase();
  const relation = (KIN_KEY[written] ?? written)
    .replace('mom', 'mum')
    .replace(/fianc[ée]e?/u, 'fiance')
    .replace(/[\s-]+/gu, '_');
  return SINGLE_RELATIVE.test(KIN_KEY[written] ?? written) ? `family:${relation}` : `family:${relation}:${slug(name)}`;
}

// A relative's or pet's name ("Tom's kid": the name is Tom).
const possessive = (value: string) => value.replace(/['’]s$/u, '');
const NAMED_RELATIVE: FactPattern = {
  k: (value, found) => relativeKey(possessive(value), found),
  group: 2,
  pattern: new RegExp(
    String.raw`\b(?:[Mm]y|[Oo]ur)\s+(${RELATIVES})(?:,)?\s+(?:is\s+called\s+|is\s+named\s+|named\s+|called\s+)?${NAME}`,
    'u',
  ),
  accept: (value, found) => `${found[1]!.toLowerCase()} ${possessive(value)}`,
};
const NAMED_PET: FactPattern = {
  k: (value) => `pet:${slug(possessive(value).split(' ').at(-1)!)}`,
  group: 2,
  pattern: new RegExp(
    String.raw`\b(?:[Mm]y|[Oo]ur)\s+(?:own\s+|old\s+|older\s+|younger\s+|new\s+|little\s+|rescue\s+)?(${PETS})\s+(?:is\s+called\s+|called\s+|named\s+)?${NAME}`,
    'u',
  ),
  accept: (value, found) => `${found[1]!.toLowerCase()} ${possessive(value)}`,
};

/** What a newborn is to the user, from whose baby it is and whether a boy or a girl. */
function babyRelation(found: RegExpExecArray): string {
  const parent = found[1]!.toLowerCase();
  const boy = /^(?:boy|son)$/iu.test(found[2]!);
  if (parent === 'sister' || parent === 'brother') return boy ? 'nephew' : 'niece';
  if (parent === 'daughter' || parent === 'son') return boy ? 'grandson' : 'granddaughter';
  if (parent === 'cousin') return 'cousin';
  return boy ? 'son' : 'daughter';
}

// A baby born in the user's family, with its name: "my sister Carmen had her baby yesterday, a
// little boy called Matei" (a nephew), "my wife gave birth to our daughter, named Lina".
const NEW_BABY: FactPattern = {
  k: (value, found) => `family:${babyRelation(found)}:${slug(value)}`,
  group: 3,
  pattern: new RegExp(
    String.raw`\b(?:[Mm]y|[Oo]ur)\s+(sister|brother|wife|husband|partner|girlfriend|cousin|daughter|son)\b[^.!?]{0,30}?\b(?:had|gave\s+birth\s+to|welcomed)\b[^.!?]{0,40}?\b(boy|girl|son|daughter)\s*,?\s+(?:called|named)\s+${NAME}`,
    'u',
  ),
  accept: (value, found) => `${babyRelation(found)} ${value}`,
};

/** The known place a name ends with ("Deloitte Cape Town": Cape Town), if any. */
function placeAtEnd(name: string): string | undefined {
  const words = name.split(/\s+/u);
  for (let start = 0; start < words.length; start += 1) {
    const place = placeNamed(words.slice(start).join(' '));
    if (place !== undefined) return place.name;
  }
  return undefined;
}

const EN_FACTS: readonly FactPattern[] = [
  {
    k: 'name',
    pattern: new RegExp(String.raw`\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me|I'm called|I am called)\s+${NAME}`, 'u'),
  },
  {
    k: 'role',
    pattern: /\bI\s+work\s+as\s+(?:an?\s+|the\s+)?([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on)\b|[,.;!?]|$)/iu,
  },
  {
    k: 'role',
    pattern:
      /\bI(?:'m| am)\s+(?:an?|the)\s+([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on|and|who|based|from|here|now)\b|[,.;!?]|$)/iu,
    accept: (value, found) =>
      NOT_ROLE.test(value) ||
      !(ROLE_END.test(value) || worksThere(found)) ||
      value.split(/\s+/).length > 5 ||
      REPORTED.test(found.input.slice(0, found.index))
        ? undefined
        : value,
  },
  { k: 'employer', pattern: new RegExp(String.raw`\bI\s+(?:work|am working|'m working)\s+(?:at|for)\s+${NAME}`, 'u') },
  // "I'm retired", "I retired last year", "I'm self-employed now".
  {
    k: 'role',
    pattern:
      /\bI(?:'m|\s+am)\s+(?:now\s+|fully\s+|finally\s+)?(retired|semi-retired|self-employed|freelance|a freelancer|a stay-at-home (?:mum|mom|dad|parent))\b/u,
    withSince: true,
  },
  {
    k: 'role',
    pattern: /\bI\s+(?:just\s+|finally\s+)?(retired)\s+(?:last|this|in|from|after|a\s+(?:few|couple))\b/u,
    withSince: true,
  },
  // A rank needs no article ("I'm head chef now"); a new role may come with no subject at all
  // ("junior UX designer at Bitpanda!"); "I teach maths", "I start as a nurse at Ullevål".
  {
    k: 'role',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am)\s+(?:now\s+)?(${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)(?=\s+(?:now|at|for|in|here|with)\b|\s*[,.;!?]|\s*$)`,
      'iu',
    ),
    accept: (value) => (ROLE_END.test(value) ? value : undefined),
    withSince: true,
  },
  {
    k: 'role',
    pattern: new RegExp(String.raw`(?:^|[.!?]\s+)(${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,2})\s+at\s+\p{Lu}`, 'iu'),
    accept: (value) => (ROLE_END.test(value) ? value : undefined),
    withSince: true,
  },
  {
    k: 'role',
    pattern: /\bI\s+teach\s+([\p{L}\p{N}\s]{2,30}?)\s+(?:at|in|to)\b/u,
    accept: (value) => `teaches ${value}`,
  },
  // What the user does for a living, where: "I teach chemistry at Kelvin High", "I drive for FedEx",
  // "I drive a forklift at the DHL depot", "I nurse at St Mary's". A verb of work, never of shopping.
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI\s+(?:also\s+|still\s+|now\s+|currently\s+)?(?:teach|drive|deliver|nurse|cook|clean|volunteer|intern|code|tutor|coach|lecture|bartend|waitress|wait tables|serve|care|do shifts|work shifts|pick|pack|stack shelves)(?:\s+(?!at\b|for\b)[\p{L}\p{N}'-]+){0,3}\s+(?:at|for)\s+(?:the\s+)?${NAME}`,
      'u',
    ),
    accept: (value) => value.replace(/\s+(?:depot|warehouse|office|branch|store|site)$/u, ''),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\bI\s+(?:work|teach|nurse|drive|volunteer|intern|study)\b[^.!?;]{0,60}?\s+(?:at|for)\s+(?:the\s+)?${NAME_SKIP}\s+(?:depot\s+|warehouse\s+|office\s+|branch\s+)?(?:in|outside|near)\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'role',
    pattern:
      /\bI\s+(?:start|started|begin|began)\s+(?:work\s+)?as\s+an?\s+([\p{L}\s-]{2,40}?)(?=\s+(?:at|for|in|on|with)\b|[,.;!?]|$)/u,
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(String.raw`(?:^|[.!?]\s+)${RANK}\s+[\p{L}-]+(?:\s+[\p{L}-]+){0,2}\s+at\s+${NAME}`, 'u'),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI\s+(?:start|started|begin|began)\s+(?:work\s+)?as\s+an?\s+[^,.;!?]{2,60}?\s+at\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(String.raw`\bgot\s+the\s+${NAME}\s+(?:offer|job|role|position)\b`, 'u'),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:\w+\s+)?(?:run|own|founded|started|co-founded|launched|opened)\s+(?:my|our)\s+own\s+[^,.;!?]{2,40},\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am|\s+work as)?\s+(?:now\s+)?(?:working\s+(?:for|at)|work\s+(?:for|at)|an?\s+[\p{L}\s-]{2,40}?\s+at)\s+(an?\s+(?:[\p{L}-]+\s+){0,3}?${WORKPLACE})\b`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'employer',
    group: 2,
    pattern: new RegExp(String.raw`\bI(?:'m| am| work as)\s+an?\s+([\p{L}\s-]{2,40}?)\s+(?:at|for)\s+${NAME}`, 'u'),
    accept: (value, found) => (NOT_ROLE.test(found[1]!) ? undefined : value),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+|actually\s+)?(?:live|reside|am based|'m based|are based|'re based|am living|'m living|are living|'re living|currently live)\s+(?:in|on)\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)(?:(?:'ve| have)?|\b[^.!?;]{0,80}?\band)\s+(?:just\s+|finally\s+|recently\s+|then\s+)?(?:moved|relocated)\s+(?:from\s+${NAME_SKIP}\s+)?(?:over\s+|back\s+)?to\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  // "I'm leaving Edinburgh for a job in Madrid in June": where the user lives until the move.
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:finally\s+|soon\s+)?leaving\s+${NAME}\s+(?:for|to|in|at\s+the\s+end\s+of)\b`,
      'u',
    ),
  },
  // "I'm in Galway now", "living in London now", "we've been in Stuttgart for two weeks", "here in Pune".
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:now\s+)?in\s+${NAME}\s+now\b`, 'u'),
    withSince: true,
  },
  { k: 'location', pattern: new RegExp(String.raw`\b[Ll]iving\s+in\s+${NAME}`, 'u') },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:'ve| have)\s+been\s+(?:living\s+)?in\s+${NAME}\s+for\b`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\bhere\s+in\s+${NAME}`, 'u'),
    accept: (value, found) => (SOMEONE_ELSE.test(clauseBefore(found)) ? undefined : value),
  },
  // "two weeks in Bangalore now", "ended up in Indiranagar", "our flat in Milan", "I'm in Accra and…",
  // "an engineer at BMW in Munich", "rented a house in Franklin".
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:\d+|a|one|two|three|four|five|six|few|several)\s+(?:days?|weeks?|months?|years?)\s+in\s+${NAME}\s+now\b`,
      'u',
    ),
    withSince: true,
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`(?:^|\b(?:I|[Ww]e)\s+)ended\s+up\s+(?:living\s+)?in\s+${NAME}`, 'u'),
    withSince: true,
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y|[Oo]ur)\s+(?:little\s+|tiny\s+|new\s+|small\s+)?(?:flat|apartment|house|place|home|studio)\s+in\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I'm|I am)\s+in\s+${NAME}(?=\s*[,.;!]|\s+(?:and|but|so|btw)\b|\s*$)`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\bI(?:'m| am)\s+an?\s+[\p{L}\s-]{2,40}?\s+(?:at\s+${NAME_SKIP}\s+)?in\s+${NAME}`,
      'u',
    ),
  },
  {
    k: 'location',
    pattern: new RegExp(
      String.raw`\b(?:rented|bought|found)\s+(?:a|an|our|my)\s+(?:[\p{L}\d-]+\s+){0,2}(?:house|flat|apartment|place|home|cottage|studio|room)\s+in\s+${NAME}`,
      'u',
    ),
    withSince: true,
  },
  // A transfer to an office in another town: "transferred to the Deloitte Cape Town office", "got moved to the Berlin team".
  {
    k: 'location',
    // The user is the one moved: the verb opens the clause, follows "I" ("I got transferred"), or has "me" after it.
    pattern: new RegExp(
      String.raw`(?:(?:^|[,.;:!—–-]\s*|\bI\s+(?:(?:was|got|have\s+been|'ve\s+been|just|finally|recently)\s+)*)(?:transferred|relocated|moved|posted)|\b(?:transferred|relocated|moved|posted|sent)\s+me)\s+to\s+(?:the|our|their|a)\s+${NAME}\s+(?:office|branch|site|campus|team|hq|headquarters|clinic|hospital|store)\b`,
      'u',
    ),
    accept: (value) => placeAtEnd(value),
    withSince: true,
  },
  { k: 'origin', pattern: new RegExp(String.raw`\bI(?:'m| am| come| came)\s+(?:originally\s+)?from\s+${NAME}`, 'u') },
  // Family with names: "my wife Hannah", "my sister is called Ana", "my dad, Suresh".
  NAMED_RELATIVE,
  NEW_BABY,
  // "lunch at my parents' with the kids, Yusuf and Layla": the user's own, both named.
  {
    k: relativeKey,
    group: 2,
    pattern: new RegExp(String.raw`\bwith\s+the\s+(kids|children|twins),?\s+${NAME}\s+(?:and|&)\s+\p{Lu}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  {
    k: relativeKey,
    group: 3,
    pattern: new RegExp(
      String.raw`\bwith\s+the\s+(kids|children|twins),?\s+\p{Lu}[\p{L}'’-]*\s+(?:and|&)\s+(${NAME})`,
      'u',
    ),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // The second of two: "my grandchildren Oda and Emil".
  {
    k: relativeKey,
    group: 3,
    pattern: new RegExp(
      String.raw`\b(?:[Mm]y|[Oo]ur)\s+(twins|kids|children|grandchildren|grandkids|sons|daughters|grandsons|granddaughters)\s+\p{Lu}[\p{L}'’-]*\s+(?:and|&)\s+(${NAME})`,
      'u',
    ),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // A name given: "our son was born on Thursday, we named him Omar", "kitten is here, we named him Falafel".
  {
    k: (value, found) =>
      found[1] !== undefined ? `pet:${slug(value)}` : `family:${found[2]!.toLowerCase()}:${slug(value)}`,
    group: 4,
    pattern: new RegExp(
      String.raw`(?:\b(${PETS})\b|\b(son|daughter|baby)\b)[^.!?]{0,60}?\b(?:we|I|the kids)\s+(?:named|called)\s+(him|her|it)\s+${NAME}`,
      'iu',
    ),
    accept: (value, found) => `${(found[1] ?? found[2])!.toLowerCase()} ${value}`,
  },
  // "Pepper the cat".
  {
    k: (value) => `pet:${slug(value)}`,
    group: 1,
    pattern: new RegExp(String.raw`\b(\p{Lu}[\p{L}'’-]+)\s+the\s+(${PETS})\b`, 'u'),
    accept: (value, found) => `${found[2]} ${value}`,
  },
  // Pets with names: "my dog Bruno", "our older cat Mitzi", "a beagle called Lola".
  NAMED_PET,
  // The user's own among others': "everyone has a dog, and mine, Rocco, barks at all of them".
  {
    k: (value) => `pet:${slug(value)}`,
    group: 2,
    pattern: new RegExp(
      String.raw`\b(?:has|have|got|owns?)\s+(?:an?\s+)?(${PETS})s?\b[^.!?]{0,40}?\bmine\s*[,—–(]\s*${NAME}\s*[,—–)]`,
      'u',
    ),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  {
    k: (value) => `pet:${slug(value.split(' ').at(-1)!)}`,
    group: 2,
    pattern: new RegExp(
      String.raw`\b(?:a|an)\s+(?:[\p{L}-]+\s+){0,3}?(${PETS})(?:\s+[\p{L}-]+){0,2}\s+(?:called|named)\s+${NAME}`,
      'u',
    ),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // A pet without a name: "I have a dog", "we've got two cats", "I have a 3 year old beagle".
  {
    k: (_, found) => `pet:${slug(found[2]!)}`,
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)(?:\s+(?:also\s+|now\s+|still\s+)?have|'ve\s+got|\s+have\s+got)\s+((?:a|an|one|two|three|2|3)\s+(?:(?:\d+|one|two|three|four|five)[\s-]+(?:year|month|week)s?[\s-]+old\s+|little\s+|old\s+|rescue\s+|senior\s+|young\s+|big\s+|small\s+)*(${PETS})s?)\b(?!\s+(?:food|bed|toy|sitter|walker|hair|allergy|allergies|show)\b)`,
      'u',
    ),
    accept: (_, found) => `has ${found[1]!}`,
  },
  // Work changes: "I accepted a job at Porsche", "I joined a firm called Taller Norte", "I'm at Meezan Bank now".
  {
    k: 'employer',
    pattern: new RegExp(
      String.raw`\b(?:I\s+(?:just\s+|finally\s+)?(?:accepted\s+(?:a|the|an)\s+(?:job|position|role|offer)\s+(?:at|with|from)|got\s+(?:a|the)\s+job\s+(?:at|with)|joined|started\s+(?:a\s+new\s+job\s+)?at)|(?:I'm|I am)\s+(?:now\s+)?working\s+(?:for|at)|(?:I'm|I am)\s+at)\s+(?:a\s+(?:firm|company|startup)\s+called\s+)?${NAME}`,
      'u',
    ),
    accept: (value) => (/^(?:The|A|An|My|Our|Home|Work|Least|Most|First|Last|Least)$/u.test(value) ? undefined : value),
    withSince: true,
  },
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
      String.raw`\b(?:stopped|quit|gave up|given up)\s+(?:eating|drinking)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`,
      'u',
    ),
    accept: (value) => `no ${value}`,
    withSince: true,
  },
];

// A home in a place ("a small flat in Lavapiés") may name a part of the city said before it.
const HOME_IN = /\b(?:flat|apartment|house|place|home|cottage|studio|room)\s+in\s+\p{Lu}/u;
// A pet named a sentence after it came: "we adopted a kitten from the shelter! … we named him Gnocchi".
const NAMED_LATER = new RegExp(String.raw`\b(?:we|I)\s+(?:named|called)\s+(?:him|her|it)\s+${NAME}`, 'u');
const PET_BEFORE = new RegExp(
  String.raw`\b(?:adopted|got|brought\s+home|rescued|have)\s+(?:a|an|our|my)\s+(?:[\p{L}-]+\s+){0,2}?(${PETS})\b`,
  'iu',
);

/** The profile facts a sentence states. */
export function factsOf(
  context: Pick<SentenceContext, 'text' | 'language' | 'date'> & Partial<Pick<SentenceContext, 'event' | 'start'>>,
): Fact[] {
  let facts = factsBy(EN_FACTS, context);
  // A pet named in the sentence is the fact; its kind alone ("a dog") adds nothing beside it.
  if (facts.filter((fact) => fact.k.startsWith('pet:')).length > 1)
    facts = facts.filter(
      (fact) => !(fact.k.startsWith('pet:') && typeof fact.v === 'string' && fact.v.startsWith('has ')),
    );
  // "I'm in Madrid now! found a small flat in Lavapiés": the place said first is where the user
  // lives, the one after it is where in it.
  const before =
    context.event === undefined || context.start === undefined ? '' : context.event.text.slice(0, context.start);
  if (
    before !== '' &&
    HOME_IN.test(context.text) &&
    facts.some((fact) => fact.k === 'location') &&
    factsBy(EN_FACTS, { ...context, text: before }).some((fact) => fact.k === 'location')
  ) {
    facts = facts.filter((fact) => fact.k !== 'location');
  }
  const later = NAMED_LATER.exec(context.text);
  if (
    later === null ||
    context.event === undefined ||
    context.start === undefined ||
    facts.some((fact) => fact.k.startsWith('pet:'))
  )
    return facts;
  const pet = PET_BEFORE.exec(context.event.text.slice(Math.max(0, context.start - 200), context.start));
  const name = later[1]!;
  return pet === null ? facts : [...facts, { k: `pet:${slug(name)}`, v: `${pet[1]!.toLowerCase()} ${name}` }];
}

// A question still names who is who: "what can I stuff a Kong with for my dog Bruno?", "my husband
// Mark turns 40 in july, gift ideas?". Only the names are read from questions, nothing asked about.
const NAMED: readonly FactPattern[] = [NAMED_RELATIVE, NAMED_PET];
const NAMED_RULE = factRule('en.profile.named', 'en', /\b(?:my|our) /, (context) =>
  context.question ? factsBy(NAMED, context) : [],
);

export const PROFILE_RULES: readonly Rule[] = [
  factRule(
    'en.profile.fact',
    'en',
    /\bmy name|\bcall me|\bi'm called|\bi am called|\bi work|\bi'm an?\b|\bi am an?\b|\bi'm the\b|\bi am the\b|\b(?:i|we)(?: now| currently| still| actually)? live|\bi reside|\bbased in|\bliving in|moved|relocated|transferred|posted to|sent me to|leaving|\b(?:i|we)(?: also| now| still)? have (?:a|an|one|two|three|2|3)\b|\b(?:i|we)'ve got\b|retired|self-employed|freelance|stay-at-home|\bfrom\b|with the (?:kids|children|twins)|\bmine\b|\bi'm in\b|\bi am in\b|\bwe're in\b|\bwe are in\b|been (?:living )?in\b|here in\b|\bmy |\bour |called|named|allergic|intolerant|\bi (?:have|get|suffer|was diagnosed|got diagnosed|live with)\b|\bi've (?:got|been diagnosed)\b|vegetarian|vegan|pescatarian|gluten|keto|halal|kosher|dairy|teetotal|\bi (?:don't|do not|never|can't|cannot) (?:(?:actually|really|even|usually|ever|generally|normally) )?(?:eat|drink|take)\b|stopped|quit|gave up|given up|accepted|joined|started|working (?:for|at)|\bi (?:also |still |now |currently )?(?:teach|drive|deliver|nurse|cook|clean|volunteer|intern|code|tutor|coach|lecture|bartend|waitress|wait tables|serve|care|do shifts|work shifts|pick|pack|stack shelves)\b|\bi'm at\b|\bi am at\b|teach|\bstart|\bbegan|\bbegin|offer|\bown\b|founded|launched|opened|ended up|rented|bought|found|says|said|confirmed|thinks|put me|pregnant|\b(?:head|sous|senior|junior|lead|chief|principal|staff|assistant|deputy|executive|associate)\b|\bthe (?:dog|cat|puppy|kitten|parrot|budgie|hamster|rabbit|bunny|horse|pony|tortoise|turtle|gecko|snake|goldfish|guinea pig)\b|\b(?:just|now|only|been)\b|(?:days?|weeks?|months?|years?) in\b|\bon (?:statins|insulin|metformin|antidepressants|beta|blood|warfarin|levothyroxine|thyroxine|the pill|hrt|prednisone|steroids|sertraline|fluoxetine|lithium|methotrexate|antihistamines|iron)/,
    factsOf,
  ),
  { ...NAMED_RULE, questions: true },
];

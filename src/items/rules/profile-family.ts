// The user's family and pets, named (the `family:*` and `pet:*` facts of profile:user,
// MemoryTypes v0.1 §3.1): "my wife Hannah", "my sister had a little boy called Matei", "my dog
// Bruno", "Pepper the cat", "we've got two cats".

import { NAME, slug, type FactPattern } from './fact-patterns.js';

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
// Pets by kind and breed, as chat names them.
export const PETS = String.raw`dog|cat|puppy|kitten|parrot|budgie|cockatiel|canary|hamster|gerbil|ferret|chinchilla|rabbit|bunny|horse|pony|gelding|mare|donkey|goat|chicken|hen|duck|tortoise|turtle|gecko|bearded dragon|lizard|iguana|chameleon|axolotl|snake|goldfish|betta|fish|guinea pig|rat|mouse|lab|labrador|retriever|shiba|beagle|corgi|poodle|terrier|collie|husky|dachshund|spaniel|pug|greyhound|whippet|kelpie|dalmatian|german shepherd|rottweiler|chihuahua|schnauzer|sheepdog|cockapoo|cavapoo|labradoodle|moggy|tabby`;
// Words that open a clause or a noun phrase, never a pet's name before "the dog" ("And the dog park
// is…", "Then the cat…"); a name that is also a modal ("Will", "May") is still a name.
const NOT_A_NAME: ReadonlySet<string> = new Set(
  (
    'and but so then also plus now yet or because when while after before if as though although since until once ' +
    'where whether still even just maybe sometimes today yesterday tomorrow tonight luckily sadly anyway well oh ' +
    'the this that these those my our your his her their every each all both with at in on for from to by of'
  ).split(' '),
);
// What a pet's kind names when a noun follows it: a thing or place for pets ("the dog park", "cat food").
const NOT_PET_THING = String.raw`(?!\s+(?:food|bed|toy|toys|sitter|walker|hair|allergy|allergies|show|park|parks|owners?|people|trainer|training|groomer|run|beach|friendly|tank|cage|collar|leash|lead|bowl|treats|costume|mug|calendar|print|poster|figurine)\b)`;
// Children counted: "two kids", "a daughter", "three grandchildren".
const CHILDREN = String.raw`(?:kids?|children|child|sons?|daughters?|boys?|girls?|grandchildren|grandkids|grandsons?|granddaughters?|step-?kids|stepchildren)`;

/** The kind of children a count names, as its key: `children`, `sons`, `daughters`, `grandchildren`, `stepchildren`. */
function childrenKind(phrase: string): string {
  const noun = phrase.split(/\s+/u).at(-1)!.toLowerCase();
  if (noun.startsWith('grand')) return 'grandchildren';
  if (noun.startsWith('step')) return 'stepchildren';
  if (noun.startsWith('son')) return 'sons';
  if (noun.startsWith('daughter')) return 'daughters';
  return 'children';
}

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
export const NAMED_RELATIVE: FactPattern = {
  k: (value, found) => relativeKey(possessive(value), found),
  group: 2,
  pattern: new RegExp(
    String.raw`\b(?:[Mm]y|[Oo]ur)\s+(${RELATIVES})(?:,)?\s+(?:is\s+called\s+|is\s+named\s+|named\s+|called\s+)?${NAME}`,
    'u',
  ),
  accept: (value, found) => `${found[1]!.toLowerCase()} ${possessive(value)}`,
};
export const NAMED_PET: FactPattern = {
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

/** Relatives, then pets, named or not. */
export const FAMILY_FACTS: readonly FactPattern[] = [
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
  // "Pepper the cat"; not "And the dog park…" (a word that opens a clause, and a place named after pets).
  {
    k: (value) => `pet:${slug(value)}`,
    group: 1,
    pattern: new RegExp(String.raw`\b(\p{Lu}[\p{L}'’-]+)\s+the\s+(${PETS})\b${NOT_PET_THING}`, 'u'),
    accept: (value, found) => (NOT_A_NAME.has(value.toLowerCase()) ? undefined : `${found[2]} ${value}`),
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
  // Children without names, by how many: "I have two kids", "we've got three boys", "I'm a mum of
  // three". One fact per kind (`family:children`), so a new count replaces the old.
  {
    k: (value) => `family:${childrenKind(value)}`,
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)(?:\s+(?:also\s+|now\s+|still\s+)?have|'ve\s+got|\s+have\s+got)\s+((?:a|an|one|two|three|four|five|six|seven|\d)\s+(?:(?:little|young|small|grown(?:-up)?|teenage|adult|wonderful|amazing|beautiful|lovely|gorgeous)\s+)?${CHILDREN})\b(?!\s+(?:in\s+(?:my|the|our)\s+(?:class|classroom|group|team|care)|at\s+(?:school|work)|who\s+(?:need|are\s+in)|coming|over))`,
      'u',
    ),
    // The article stays: "has a son".
    accept: (_, found) => `has ${found[1]!}`,
  },
  {
    k: () => 'family:children',
    pattern:
      /\bI(?:'m|\s+am)\s+(?:a\s+|the\s+)?(?:proud\s+|busy\s+|single\s+|working\s+|stay-at-home\s+)?(?:mom|mum|mother|dad|father|parent)\s+(?:of|to)\s+(one|two|three|four|five|six|seven|\d)\b(?!\s+(?:dogs?|cats?|pets?))/u,
    accept: (value) => `has ${value} ${value === 'one' || value === '1' ? 'child' : 'children'}`,
  },
  // A pet taken in: "we adopted a puppy last month", "I just got a kitten", "we rescued two cats".
  {
    k: (_, found) => `pet:${slug(found[2]!)}`,
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)\s+(?:just\s+|finally\s+|recently\s+|also\s+)?(?:adopted|rescued|got|brought\s+home)\s+((?:a|an|two|three|2|3)\s+(?:new\s+|little\s+|rescue\s+|baby\s+|second\s+|tiny\s+)?(${PETS})s?)\b${NOT_PET_THING}`,
      'u',
    ),
    accept: (_, found) => `has ${found[1]!}`,
    withSince: true,
  },
  // A pet without a name: "I have a dog", "we've got two cats", "I have a 3 year old beagle".
  {
    k: (_, found) => `pet:${slug(found[2]!)}`,
    pattern: new RegExp(
      String.raw`\b(?:I|[Ww]e)(?:\s+(?:also\s+|now\s+|still\s+)?have|'ve\s+got|\s+have\s+got)\s+((?:a|an|one|two|three|2|3)\s+(?:(?:\d+|one|two|three|four|five)[\s-]+(?:year|month|week)s?[\s-]+old\s+|little\s+|old\s+|rescue\s+|senior\s+|young\s+|big\s+|small\s+)*(${PETS})s?)\b${NOT_PET_THING}`,
      'u',
    ),
    accept: (_, found) => `has ${found[1]!}`,
  },
];

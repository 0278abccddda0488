// Profile facts (MemoryTypes v0.1 §3.1): stable things the user states about themself — name, role,
// employer, where they live and come from, family, pets, health and diet. All facts go to
// profile:user; the writer merges facts by `k`. Only explicit first-person statements by the user
// count. The patterns of each subject are in profile-work, -home, -family and -health-diet.ts.

import type { Rule, SentenceContext } from './rule.js';
import { factRule, factsBy, NAME, slug, type Fact, type FactPattern } from './fact-patterns.js';
import { FAMILY_FACTS, NAMED_PET, NAMED_RELATIVE, PETS } from './profile-family.js';
import { HEALTH_DIET_FACTS } from './profile-health-diet.js';
import { HOME_FACTS } from './profile-home.js';
import { PERSON_FACTS } from './profile-person.js';
import { JOB_CHANGE_FACTS, WORK_FACTS } from './profile-work.js';

export { PROFILE_KEY, type Fact } from './fact-patterns.js';

// In this order: the first fact of each `k` wins, and facts come out in the order of their patterns.
const EN_FACTS: readonly FactPattern[] = [
  {
    k: 'name',
    pattern: new RegExp(String.raw`\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me|I'm called|I am called)\s+${NAME}`, 'u'),
  },
  ...WORK_FACTS,
  ...HOME_FACTS,
  ...FAMILY_FACTS,
  ...JOB_CHANGE_FACTS,
  ...HEALTH_DIET_FACTS,
  ...PERSON_FACTS,
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
  // "we adopted a kitten! … we named him Gnocchi": the pet named after is the fact, not its kind alone.
  const rest =
    context.event === undefined || context.start === undefined
      ? ''
      : context.event.text.slice(context.start + context.text.length);
  if (rest !== '' && NAMED_LATER.test(rest))
    facts = facts.filter(
      (fact) => !(fact.k.startsWith('pet:') && typeof fact.v === 'string' && fact.v.startsWith('has ')),
    );
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
    /\bmy name|\bcall me|\bi'm called|\bi am called|\bi work|\bi'm \d|\bi am \d|turned \d|married|single|divorced|engaged|widowed|separated|\bspeak\b|fluent in|worked in|working in|job as|position as|role as|\bi'm an?\b|\bi am an?\b|\bi'm the\b|\bi am the\b|\b(?:i|we)(?: now| currently| still| actually)? live|\bi reside|\bbased in|\bliving in|grew up|raised|brought up|moved|relocated|transferred|posted to|sent me to|leaving|\b(?:i|we)(?: also| now| still)? have (?:a|an|one|two|three|2|3)\b|\b(?:i|we)'ve got\b|retired|self-employed|freelance|stay-at-home|\bfrom\b|with the (?:kids|children|twins)|\bmine\b|\bi'm in\b|\bi am in\b|\bwe're in\b|\bwe are in\b|been (?:living )?in\b|here in\b|\bmy |\bour |called|named|allergic|intolerant|\bi (?:have|get|suffer|was diagnosed|got diagnosed|live with)\b|\bi've (?:got|been diagnosed)\b|vegetarian|vegan|pescatarian|gluten|keto|halal|kosher|dairy|teetotal|\bi (?:don't|do not|never|can't|cannot) (?:(?:actually|really|even|usually|ever|generally|normally) )?(?:eat|drink|take)\b|stopped|quit|gave up|given up|cut out|ditched|accepted|joined|started|working (?:for|at)|\bi (?:also |still |now |currently )?(?:teach|drive|deliver|nurse|cook|clean|volunteer|intern|code|tutor|coach|lecture|bartend|waitress|wait tables|serve|care|do shifts|work shifts|pick|pack|stack shelves)\b|\bi'm at\b|\bi am at\b|teach|\bstart|\bbegan|\bbegin|offer|\bown\b|\brent\b|\bshare\b|adopted|rescued|brought home|founded|launched|opened|ended up|rented|bought|found|says|said|confirmed|thinks|put me|pregnant|\b(?:head|sous|senior|junior|lead|chief|principal|staff|assistant|deputy|executive|associate)\b|\bthe (?:dog|cat|puppy|kitten|parrot|budgie|hamster|rabbit|bunny|horse|pony|tortoise|turtle|gecko|snake|goldfish|guinea pig)\b|\b(?:just|now|only|been)\b|(?:days?|weeks?|months?|years?) in\b|\bon (?:statins|insulin|metformin|antidepressants|beta|blood|warfarin|levothyroxine|thyroxine|the pill|hrt|prednisone|steroids|sertraline|fluoxetine|lithium|methotrexate|antihistamines|iron)/,
    factsOf,
  ),
  { ...NAMED_RULE, questions: true },
];

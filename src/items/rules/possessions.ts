// What the user owns, in English: "I have a Tesla Model 3", "I bought a new bike", "I've got a little
// Honda generator", "I live on a narrowboat". One fact per kind of thing (`possession:car`), named by
// the thing's own noun or, failing that, by its brand, so a new car replaces the old one; a phrase
// with neither is no possession ("I have a question", "I got a job"). Ending one is endings.ts's.

import { factRule, slug, type Fact } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';
import { cleanPhrase } from './text.js';

// Kinds of things people own, each with the words that name it; a longer word wins ("3d printer").
const KINDS: ReadonlyArray<readonly [kind: string, words: string]> = [
  [
    'car',
    'car|hatchback|sedan|saloon|suv|estate car|pickup|pickup truck|truck|minivan|jeep|convertible|ev|electric car',
  ],
  ['motorbike', 'motorbike|motorcycle|scooter|moped|vespa'],
  ['bike', 'bike|bicycle|e-bike|ebike|road bike|mountain bike|gravel bike|cargo bike|tandem'],
  ['boat', 'boat|sailboat|yacht|dinghy|narrowboat|houseboat|canoe|kayak|paddleboard|jet ski'],
  ['camper', 'camper|campervan|camper van|caravan|motorhome|rv'],
  ['laptop', 'laptop|notebook|macbook|macbook air|macbook pro|thinkpad|chromebook'],
  ['computer', 'computer|desktop|pc|gaming pc|mac mini|imac'],
  ['tablet', 'tablet|ipad'],
  ['phone', 'phone|smartphone|iphone'],
  ['e-reader', 'e-reader|ereader|kindle|kobo'],
  ['camera', 'camera|dslr|mirrorless|film camera|polaroid'],
  ['console', 'console|playstation|ps4|ps5|xbox|nintendo switch|switch|steam deck'],
  ['3d printer', '3d printer'],
  ['printer', 'printer'],
  ['telescope', 'telescope|dobsonian'],
  ['drone', 'drone'],
  ['watch', 'watch|smartwatch|apple watch|garmin'],
  ['headphones', 'headphones|earbuds|airpods'],
  ['tv', 'tv|television|projector'],
  ['piano', 'piano|digital piano|keyboard|synth|synthesizer'],
  ['guitar', 'guitar|electric guitar|acoustic guitar|bass guitar|ukulele'],
  [
    'instrument',
    'violin|viola|cello|double bass|drum kit|drums|saxophone|trumpet|trombone|flute|clarinet|oud|banjo|mandolin|harp|accordion',
  ],
  ['coffee machine', 'espresso machine|coffee machine|coffee maker|grinder'],
  ['kitchen machine', 'air fryer|stand mixer|thermomix|slow cooker|instant pot|bread maker|pizza oven'],
  ['sewing machine', 'sewing machine|loom|kiln|pottery wheel'],
  ['fitness machine', 'treadmill|rowing machine|rower|exercise bike|peloton|home gym|squat rack'],
  ['generator', 'generator|solar panels|heat pump|wood burner|log burner'],
  ['grill', 'grill|bbq|barbecue|smoker|kamado'],
  [
    'home',
    'house|flat|apartment|condo|cottage|cabin|bungalow|townhouse|terraced house|farmhouse|allotment|holiday home',
  ],
  ['tent', 'tent|rooftop tent'],
  ['board', 'surfboard|snowboard|skateboard|longboard|skis'],
  ['stethoscope', 'stethoscope'],
];

// Brands that name the kind when the phrase has no noun ("a 2018 Toyota Corolla", "my Pentax K1000").
const BRANDS: ReadonlyArray<readonly [kind: string, words: string]> = [
  [
    'car',
    'toyota|honda civic|honda jazz|tesla|bmw|audi|ford|volkswagen|vw|kia|hyundai|nissan|mazda|subaru|volvo|skoda|škoda|renault|peugeot|citroen|fiat|mercedes|porsche|mini cooper|corolla|prius|golf|polo|model 3|model y|yaris|civic|rav4|lexus|jaguar|land rover|range rover|dacia|seat|opel|vauxhall|chevrolet|chevy|dodge',
  ],
  ['motorbike', 'ducati|harley|harley-davidson|yamaha r1|kawasaki|triumph|ktm|royal enfield'],
  ['camera', 'canon|nikon|pentax|leica|fujifilm|fuji|olympus|hasselblad|lumix'],
  ['3d printer', 'prusa|bambu|ender|creality'],
  ['telescope', 'celestron|skywatcher|sky-watcher'],
  ['piano', 'yamaha keyboard|casio|roland|korg|nord'],
  ['phone', 'pixel|galaxy|oneplus|xiaomi'],
  ['laptop', 'dell xps|surface laptop|lenovo'],
];

function lexicon(entries: ReadonlyArray<readonly [string, string]>): {
  pattern: RegExp;
  kinds: ReadonlyMap<string, string>;
} {
  const kinds = new Map<string, string>();
  for (const [kind, words] of entries) for (const word of words.split('|')) kinds.set(word, kind);
  const body = [...kinds.keys()]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'))
    .join('|');
  return { pattern: new RegExp(`(?<![\\p{L}\\p{N}-])(?:${body})(?![\\p{L}\\p{N}-])`, 'giu'), kinds };
}

const NOUNS = lexicon(KINDS);
const BRAND_NAMES = lexicon(BRANDS);

/** The kind of thing a phrase names: its last known noun, else its first known brand. */
export function possessionKind(phrase: string): string | undefined {
  const lower = phrase.toLowerCase();
  let kind: string | undefined;
  for (const found of lower.matchAll(NOUNS.pattern)) kind = NOUNS.kinds.get(found[0]);
  if (kind !== undefined) return kind;
  for (const found of lower.matchAll(BRAND_NAMES.pattern)) return BRAND_NAMES.kinds.get(found[0]);
  return undefined;
}

// The speaker's acquisition or ownership, then the thing: "I (just) bought a …", "we've got an …",
// "I drive a …", "got myself a …". "I have" and "I've got" need an article: "I have to…" is no thing.
const OWN = new RegExp(
  String.raw`(?:\b(?:I|[Ww]e)(?:'ve|\s+have|'d|\s+had)?\s+|(?:\b(?:I|[Ww]e)\b|^\W*(?:(?:finally|just|also|so|then)\s+)*(?:sold|traded|gave away|got rid of)\b)[^.!?;]{0,60}?\band\s+|^)(?:(?:just|finally|also|recently|even|now|already|actually|still)\s+)*` +
    String.raw`(?:bought|got|picked up|ordered|own|drive|ride|inherited|splurged on|treated (?:myself|ourselves) to|have|'ve got|have got|got\s+(?:myself|ourselves)|bought\s+(?:myself|ourselves)|went with|upgraded to|splashed out on|invested in|got the keys to|spent [^.!?;]{0,30}? on|put (?:the|some|that) money (?:towards|into|on))` +
    String.raw`\s+(?:(?:myself|ourselves)\s+)?(an?|my|our|two|three)\s+`,
  'iu',
);
// "traded the Pentax for a Canon AE-1": the new thing.
const TRADED_FOR = /\b(?:traded|swapped|exchanged)\b[^.!?]{1,60}?\bfor\s+(an?)\s+/iu;
const LIVE_ON =
  /\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+)?live\s+(?:on|in)\s+(an?|my|our)\s+(?=(?:[\p{L}-]+\s+){0,2}(?:narrowboat|houseboat|boat|camper|campervan|van|caravan|motorhome|yacht)\b)/iu;
// The thing's phrase ends at punctuation, a clause or a time: "a Kindle Paperwhite last weekend".
const THING =
  /^([\p{L}\p{N}][\p{L}\p{N}\s'’.-]{1,50}?)(?=\s*[,.;:!?)(—–]|\s+(?:last|this|yesterday|today|on|at|from|for|off|in|near|by|outside|with|and|but|so|because|since|which|that|as|to|when|after|before|lol|haha|btw|tbh|now|recently|finally|a\s+(?:week|month|year)|two|three|ago)\b|\s*$)/u;
// A name in apposition after a time or place: "a telescope last month, a Celestron 8 inch Dobsonian".
const APPOSITION = /^[^,.;!?]{0,30},\s+an?\s+(\p{Lu}[\p{L}\p{N}\s'’.-]{1,40}?)(?=\s*[,.;:!?—–]|\s*$)/u;
// A possession said in a condition, a wish, a plan or a question is not one: "if I ever get a dog".
const UNREAL =
  /\b(?:if|unless|whether|would|could|should|might|wish|want|wanna|planning|plan to|going to|gonna|thinking|considering|looking (?:for|at|to)|saving (?:up )?for|hoping|can't afford)\b/iu;
const NOT_OWNED =
  /^(?:(?:new|old|little|small|big|second|secondhand|second-hand|used|cheap|fancy|nice)\s+)*(?:job|question|problem|idea|feeling|cold|flu|meeting|call|chance|lot|bit|plan|deal|friend|dog|cat)\b/iu;

function thingAt(text: string, from: number): string | undefined {
  const found = THING.exec(text.slice(from));
  if (found === null) return undefined;
  const thing = cleanPhrase(found[1]!);
  const after = APPOSITION.exec(text.slice(from + found[0].length));
  return after === null ? thing : `${thing}, ${cleanPhrase(after[1]!)}`;
}

// "my Dell XPS from 2018 is getting slow", "our 2011 Subaru Outback": a thing of a known kind called
// the user's own is owned, whatever the verb; someone else's ("my mum's old piano") is not.
const MY_THING =
  /\b(?:[Mm]y|[Oo]ur)\s+(?=(?:(?:new|old|trusty|little|beloved|ancient|first|second-hand|secondhand|used|\d{4})\s+)*\p{L})/u;

// Parting with a thing is endings.ts's: "I sold my Vespa", "trying to sell my old Fiesta".
const PARTING =
  /\b(?:sold|sell|selling|gave away|giving away|give away|got rid of|getting rid of|lost|scrapped|wrote off|written off|totalled|traded in|trading in|returned|donated|crashed)\s+$/iu;
const MODIFIER =
  /^(?:new|old|trusty|little|beloved|ancient|first|second-hand|secondhand|used|electric|red|blue|black|white|silver|grey|gray|green|big|small|tiny|vintage|refurbished)$/iu;
// What may follow a thing's name in "my laptop died", "my Fiesta keeps stalling": a verb, not more of the name ("my car insurance").
const VERB_AFTER =
  /^(?:is|was|has|had|keeps|kept|makes|made|needs|needed|got|gets|won't|wont|can't|cant|doesn't|didn't|just|finally|still|now|from|died|broke|\p{L}+ed|\p{L}+s)$/u;

/**
 * The thing a possessive names, cut after its kind's word and any model code ("Dell XPS", "2011
 * Subaru Outback", "Roland FP-30X"); undefined when the phrase goes on with more of a name that is not
 * a thing of a known kind ("car insurance", "phone number").
 */
function ownThing(phrase: string): string | undefined {
  const lower = phrase.toLowerCase();
  let end = -1;
  for (const { pattern } of [NOUNS, BRAND_NAMES])
    for (const found of lower.matchAll(pattern)) end = Math.max(end, (found.index ?? 0) + found[0].length);
  if (end < 0) return undefined;
  // Before the kind's word only what describes the thing: "2011 Subaru", "trusty old", never "brother bought a".
  if (
    !phrase
      .slice(0, end)
      .split(/\s+/u)
      .slice(0, -1)
      .every((word) => /\d|^\p{Lu}/u.test(word) || MODIFIER.test(word))
  )
    return undefined;
  const words = phrase
    .slice(end)
    .trim()
    .split(/\s+/u)
    .filter((word) => word !== '');
  let kept = 0;
  while (kept < words.length && /\d|^\p{Lu}/u.test(words[kept]!)) kept += 1;
  const next = words[kept];
  if (next !== undefined && !VERB_AFTER.test(next.toLowerCase())) return undefined;
  return [phrase.slice(0, end), ...words.slice(0, kept)].join(' ').trim();
}

/** The things a sentence says the user owns or has just got. */
export function possessionsOf(context: Pick<SentenceContext, 'text' | 'date'>): Fact[] {
  for (const pattern of [TRADED_FOR, LIVE_ON, OWN, MY_THING]) {
    const found = pattern.exec(context.text);
    if (found === null || UNREAL.test(context.text.slice(0, found.index + found[0].length))) continue;
    if (pattern === MY_THING && PARTING.test(context.text.slice(Math.max(0, found.index - 30), found.index))) continue;
    const phrase = thingAt(context.text, found.index + found[0].length);
    // Someone else's thing is not the user's ("my mum's old piano"); a thing's own part is ("my ThinkPad's screen cracked": the ThinkPad).
    const owner = phrase === undefined ? undefined : /^([\p{L}-]+)['’]s\b/u.exec(phrase)?.[1];
    const own =
      pattern !== MY_THING || phrase === undefined
        ? undefined
        : owner === undefined
          ? ownThing(phrase)
          : ownThing(`${owner} has`);
    // Called the user's own, a thing is kept when it is named (a brand, a model, a year): "my laptop died" adds nothing.
    const thing = pattern !== MY_THING ? phrase : own !== undefined && /\p{Lu}|\d/u.test(own) ? own : undefined;
    if (thing === undefined || NOT_OWNED.test(thing) || thing.split(/\s+/u).length > 9) continue;
    const kind = possessionKind(thing);
    if (kind === undefined) continue;
    return [{ k: `possession:${slug(kind)}`, v: thing, since: context.date }];
  }
  return [];
}

export const POSSESSION_RULES: readonly Rule[] = [
  factRule(
    'en.profile.possession',
    'en',
    /bought|\bgot\b|picked up|ordered|\bown\b|drive|ride|inherited|splurged|treated|\bhave\b|'ve got|traded|swapped|exchanged|live on|live in|went with|upgraded|splashed|invested|spent|money|\bmy |\bour /,
    possessionsOf,
  ),
];

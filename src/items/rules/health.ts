// Health said in the words medicine names things by, with no list of drugs or conditions (the
// `health:*` facts of profile:user): medicines told by their international name's stem
// ("started me on propranolol", "trying candesartan now", "I'm on sertraline"), conditions by their
// ending ("I've got osteoarthritis", "patellar tendinopathy in my right knee"), injuries by the part
// of the body ("broke my ankle", "tore my ACL", "since my hip operation") or by their medical name
// ("herniated disc", "concussion"), and the devices a condition is lived with ("I got an insulin
// pump", "I wear hearing aids"). The user's own only:
// never someone else's ("my son broke his arm"), never a question of what might be.

import { factRule, slug, statedFacts, type Fact } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';

// Stems of international nonproprietary names (WHO INN), the endings a medicine's name carries.
const DRUG = String.raw`[a-z]{2,}(?:olol|pril|sartan|statin|azepam|azolam|oxetine|traline|triptan|prazole|tidine|cillin|mycin|cycline|floxacin|parin|gliptin|gliflozin|glutide|dronate|lukast|olone|terol|setron|profen|coxib|afil|dipine|zodone|piprazole|tiapine|pramine|triptyline|codone|morphone|amate|trigine|racetam|thyroxine|formin|zosin|nazole|vudine|lamide|semide|thiazide|actone)`;
const CONDITION = String.raw`(?:[a-z]+\s+)?[a-z]{3,}(?:itis|osis|opathy|algia|aemia|emia|ectasis|oma)`;
const BODY = String.raw`(?:left\s+|right\s+|lower\s+|upper\s+)?(?:ankle|wrist|arm|leg|foot|feet|knee|hip|back|shoulder|neck|finger|thumb|toe|elbow|collarbone|collar bone|rib|ribs|hand|acl|mcl|meniscus|hamstring|achilles|calf|groin|jaw|nose|pelvis|spine|disc|rotator cuff)`;

const ON_DRUG = new RegExp(
  String.raw`\b(?:(?:put|started|switched|moved|changed)\s+me\s+(?:on(?:to)?|over to)|i(?:'m|\s+am)\s+(?:now\s+|also\s+|still\s+)?on|i\s+(?:now\s+|also\s+|still\s+)?take|(?:taking|trying|started|starting|prescribed|trialling|trialing)|(?:trying|trying me on))\s+(?:a\s+low\s+dose\s+of\s+|some\s+)?(${DRUG})\b`,
  'iu',
);
const OFF_DRUG = new RegExp(
  String.raw`\b(?:came|come|coming|took me|taking me|weaned|tapered|stopped)\s+(?:off\s+)?(?:the\s+)?(${DRUG}|it|them)\b`,
  'iu',
);
const NAMED_DRUG = new RegExp(String.raw`\b(${DRUG})\b`, 'iu');
const HAS_CONDITION = new RegExp(
  String.raw`\bi(?:\s+have|'ve\s+got|\s+have\s+got|\s+got|\s+suffer\s+from|\s+was\s+diagnosed\s+with|'ve\s+been\s+diagnosed\s+with|\s+live\s+with)\s+(?:mild\s+|severe\s+|chronic\s+|bad\s+)?(${CONDITION})\b`,
  'iu',
);
const CONDITION_IN_ME = new RegExp(
  String.raw`\b(${CONDITION}|stress fracture|fracture|sprain|tear|strain)\s+in\s+my\s+(${BODY})\b`,
  'iu',
);
const INJURED = new RegExp(
  String.raw`\b(?:i\s+|i've\s+)?(broke|broken|sprained|fractured|tore|torn|dislocated|injured|hurt|pulled|twisted|snapped|ruptured)\s+my\s+(${BODY})\b`,
  'iu',
);
const OPERATION = new RegExp(String.raw`\bmy\s+(${BODY})\s+(operation|surgery|replacement)\b`, 'iu');
// Injuries medicine names by themselves: "herniated disc", said with or without "I have".
const INJURY_TERM =
  /\b(herniated|slipped|bulging|prolapsed|ruptured)\s+discs?\b|\b(whiplash|concussion|tennis elbow|frozen shoulder|shin splints)\b/iu;
// Devices a condition is lived with: "I got an insulin pump", "I wear hearing aids", "I use a CPAP".
const DEVICE =
  /\bi(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|now\s+|also\s+)?(?:got|get|have|use|wear|started\s+using|switched\s+to)\s+(?:an?\s+|my\s+|the\s+)?(?:new\s+)?(insulin\s+pump|cpap(?:\s+machine)?|hearing\s+aids?|pacemaker|(?:continuous\s+)?glucose\s+monitor|cgm|cochlear\s+implant|(?:knee|back|wrist|ankle)\s+brace|walking\s+stick|wheelchair|crutches)\b/iu;
// Someone else's health, a question of what might be.
const NOT_MINE =
  /\b(?:my|our)\s+(?:son|daughter|kid|child|wife|husband|partner|mum|mom|dad|mother|father|brother|sister|friend|boyfriend|girlfriend|dog|cat)\b|\b(?:he|she|they)\b|\b(?:if|whether|would|could|might|should)\b/iu;
const NOT_CONDITION = /^(?:coma|aroma|diploma|stoma|idioma|comma|soma|sauna)$/iu;

/** The health facts one sentence of the user's tells. */
function healthOf(context: SentenceContext): Fact[] {
  if (context.question || NOT_MINE.test(context.text)) return [];
  const facts: Fact[] = [];
  // "took me off it": the medicine named before, in the same sentence.
  const off = OFF_DRUG.exec(context.text);
  const ended =
    off === null
      ? undefined
      : /^(?:it|them)$/iu.test(off[1]!)
        ? NAMED_DRUG.exec(context.text.slice(0, off.index))?.[1]
        : off[1];
  if (ended !== undefined)
    facts.push({
      k: `health:${slug(ended.toLowerCase())}`,
      v: null,
      was: `on ${ended.toLowerCase()}`,
      until: context.date,
    });
  const on = ON_DRUG.exec(context.text);
  if (on !== null && on[1]!.toLowerCase() !== ended?.toLowerCase())
    facts.push({ k: `health:${slug(on[1]!.toLowerCase())}`, v: `on ${on[1]!.toLowerCase()}`, since: context.date });
  const has = HAS_CONDITION.exec(context.text) ?? CONDITION_IN_ME.exec(context.text);
  const condition = has?.[1]?.toLowerCase();
  if (has !== null && condition !== undefined && !NOT_CONDITION.test(condition.split(/\s+/u).at(-1)!)) {
    facts.push({
      k: `health:${slug(condition)}`,
      v: has[2] === undefined ? condition : `${condition} in my ${has[2].toLowerCase()}`,
      since: context.date,
    });
  }
  const injury = INJURED.exec(context.text);
  if (injury !== null)
    facts.push({
      k: `health:${slug(injury[2]!.toLowerCase().replace(/^(?:left|right|lower|upper)\s+/u, ''))}`,
      v: `${injury[1]!.toLowerCase()} my ${injury[2]!.toLowerCase()}`,
      since: context.date,
    });
  const term = INJURY_TERM.exec(context.text);
  if (term !== null) {
    const named = (term[1] === undefined ? term[2]! : `${term[1]} disc`).toLowerCase();
    facts.push({ k: `health:${slug(named)}`, v: named, since: context.date });
  }
  const device = DEVICE.exec(context.text);
  if (device !== null)
    facts.push({
      k: `health:${slug(device[1]!.toLowerCase())}`,
      v: `uses ${device[1]!.toLowerCase().replace(/\s+/gu, ' ')}`,
      since: context.date,
    });
  const operation = OPERATION.exec(context.text);
  if (operation !== null)
    facts.push({
      k: `health:${slug(operation[1]!.toLowerCase())}_${operation[2]!.toLowerCase()}`,
      v: `${operation[1]!.toLowerCase()} ${operation[2]!.toLowerCase()}`,
    });
  // One fact per key, and none another rule of this sentence already stated ("I'm on metformin").
  const stated = statedFacts(context);
  return facts.filter((fact, index) => !stated.has(fact.k) && facts.findIndex((other) => other.k === fact.k) === index);
}

export const HEALTH_RULES: readonly Rule[] = [
  factRule(
    'en.profile.health',
    'en',
    /\bon |\boff |stopped|taking|\btake |trying|started|starting|prescribed|trialling|trialing|diagnosed|\bhave |'ve got|suffer|live with| in my |\bmy |\bdiscs?\b|whiplash|concussion|tennis elbow|frozen shoulder|shin splints|\bgot |\bget |\buse |\bwear |switched to/,
    healthOf,
  ),
];

// Standing instructions on how the assistant answers (MemoryTypes v0.1 §3.2): the language, length,
// format, tone, emoji, order of parts, units and depth of its answers, each as pref:writing:<name>
// so a changed instruction replaces the old. A request about one answer ("can you make this one
// shorter?") is no preference: a request counts when it says it stands (from now on, always, your
// answers, 以后), when it stands by its nature (the language replies come in, "keep it short"),
// or when it is a bare instruction on its own ("bullet points pls", "简短点").

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';

/** One instruction found in a sentence: the preference's name, its value, and where it was said. */
interface Style {
  name: string;
  value: string;
  index: number;
}

interface StylePattern {
  name: string;
  pattern: RegExp;
  value: (found: RegExpExecArray, lower: string) => string;
  standing?: boolean;
}

const LANGUAGES =
  'english|chinese|mandarin|cantonese|french|spanish|german|japanese|korean|portuguese|italian|russian|polish|swedish|norwegian|danish|finnish|dutch|turkish|arabic|hindi|urdu|bengali|vietnamese|thai|indonesian|malay|greek|czech|hungarian|romanian|ukrainian|hebrew|persian|farsi|swahili|tagalog|catalan|croatian|serbian|slovak|bulgarian|icelandic|irish|welsh';
const UNITS =
  'cups|ounces|oz|grams|kilos|kilograms|kg|pounds|lbs|metric|imperial|celsius|fahrenheit|miles|kilometres|kilometers|km|feet|inches|metres|meters|litres|liters|tablespoons|teaspoons';
const LENGTHS = 'short|shorter|brief|briefer|concise|succinct|terse|detailed|more detailed|longer|in-depth|thorough';
// A limit on length: "3-4 sentences max", "no more than five lines".
const LIMIT = String.raw`(?:(?:max(?:imum)?|at most|no more than|up to|under)\s+)?(?:\d+(?:\s*(?:-|–|to|or)\s*\d+)?|one|two|three|four|five|six|ten)\s+(?:sentences|lines|paragraphs|words|bullets|bullet points)(?:\s+(?:max(?:imum)?|tops|at most))?`;
const NOT = String.raw`(?:no|without|skip|avoid|drop|lose|ditch|stop using|don't use|do not use|never use|fewer|less)\s+(?:the\s+|any\s+|those\s+)?`;

const EN_STYLES: readonly StylePattern[] = [
  {
    name: 'language',
    pattern: new RegExp(
      String.raw`\b(?:in|use|using)\s+((?:(?:simple|plain|easy|basic|standard|formal|casual|british|american|european|brazilian|mexican)\s+)?(?:${LANGUAGES}))\b`,
      'u',
    ),
    value: (found) => found[1]!,
    standing: true,
  },
  {
    name: 'length',
    pattern: new RegExp(String.raw`\b(${LENGTHS})\b|\b(${LIMIT})`, 'u'),
    value: (found, lower) => lengthOf(found, lower),
  },
  {
    name: 'format',
    pattern: new RegExp(
      String.raw`(${NOT})?\b(bullet points|bullets|bullet lists|numbered lists|tables|a table|headings|headers|plain text|prose|markdown)\b`,
      'u',
    ),
    value: (found) => negated(found, found[2]!),
  },
  {
    name: 'tone',
    pattern:
      /\b((?:less|more|a bit more|a bit less)\s+)?(formal|casual|informal|friendly|professional|polite|playful|blunt|direct|chatty)\b(?!\s+(?:email|letter|message|event|dinner))/u,
    value: (found) => found[0],
  },
  {
    name: 'emoji',
    pattern: new RegExp(
      String.raw`(${NOT})?\b(emojis?|emoticons|smileys)\b(?:\s+(sometimes|occasionally|more often|more|a lot|now and then))?`,
      'u',
    ),
    value: (found) => negated(found, found[3] === undefined ? found[2]! : `${found[2]!} ${found[3]}`),
  },
  {
    name: 'order',
    pattern:
      /\b((?:the\s+)?(?:code|answer|short answer|summary|conclusion|tl;?dr|bottom line|examples?|result|solution|main point|verdict)\s+first)\b(?:\s*[,;]?\s*(?:then\s+|and\s+)?(?:the\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:after|afterwards|later|below|second|underneath))?/u,
    value: (found) => (found[2] === undefined ? found[1]! : `${found[1]!}, ${found[2]} after`),
  },
  {
    name: 'summary',
    pattern:
      /\b(?:put|start with|begin with|add|include|give me|open with)\s+(?:a|an|the)?\s*((?:[\p{L}\d-]+\s+){0,2}(?:summary|tl;?dr|overview|recap))\s+(at the (?:top|start|beginning|end)|first|on top|up top)/u,
    value: (found) => `${found[1]!} ${found[2]!}`,
  },
  {
    name: 'units',
    pattern: new RegExp(String.raw`\bin\s+((?:${UNITS})(?:\s+(?:and|&|or)\s+(?:${UNITS}))?)\b`, 'u'),
    value: (found) => found[1]!,
  },
  { name: 'explanations', pattern: /\bstep[- ]by[- ]step\b/u, value: () => 'step by step' },
];

function negated(found: RegExpExecArray, thing: string): string {
  return found[1] === undefined ? thing : `no ${thing}`;
}

/** A length and the limit the sentence puts on it: "shorter (3-4 sentences max)". */
function lengthOf(found: RegExpExecArray, lower: string): string {
  if (found[2] !== undefined) return found[2];
  const limit = new RegExp(LIMIT, 'u').exec(lower.slice(found.index));
  return limit === null ? found[1]! : `${found[1]!} (${limit[0]})`;
}

// A request to the assistant: a question put to it, please, or an instruction at a clause's start.
const EN_REQUEST =
  /\b(?:can|could|would|will)\s+you\b|\bplease\b|\bpls\b|\bplz\b|\byou can\b|\bi(?:'d| would)\s+(?:like|love)\s+(?:it|you|answers|replies)\b|\bi want\s+(?:you|answers|replies)\b|(?:^|[,;:—–.!?]\s*)(?:(?:and|also|so|ok|okay|just|but|then|oh|now|from now on|going forward|in future)\s+)*(?:keep|make|use|reply|answer|respond|write|talk|speak|give|explain|put|start|begin|stick|switch|format|skip|avoid|stop|no|less|more)\b/u;
// Said to stand: time words, every answer, or what the answers should be in general.
const EN_STANDING =
  /\b(?:from now on|going forward|from here on|from today|in (?:the )?future|for the rest of|always|every time|each time|whenever|in general|generally|by default|sometimes|usually|occasionally|more often|less often|now and then|(?:your|all)\s+(?:answers|replies|responses|explanations)|answers|replies|responses|explanations|with me|to me|changed my mind)\b/u;
// About one answer or one piece of text: this one, again, rewrite that, translate the email.
const EN_ONE_OFF =
  /\b(?:this|that|these|those)\s+(?:one|time|answer|reply|response|version|bit|part|paragraph|section)\b|\b(?:make|rewrite|redo|translate|rephrase|shorten|condense|summari[sz]e|edit|fix|convert|turn|put|format|write|do)\s+(?:this|that|it|these|those|the|my)\b|\bagain\b|\bfor (?:this|that)\b|\babove\b|\b(?:the )?(?:last|previous) (?:one|answer|reply|message)\b/u;
// "keep" asks for something to go on: "keep it short", "keep replies brief".
const KEEP = /\bkeep\s+(?:it|things|them|replies|answers|responses|your\s+\w+|everything)\b/u;
// A verb with a bare object stands for every such thing: "explain maths step by step", "give code first".
const GENERIC_OBJECT =
  /\b(?:give|explain|show|do|write)\s+(?:me\s+)?(?!(?:the|this|that|it|my|a|an|these|those|them|him|her|some|one)\b)[\p{L}-]+/u;
// Words a bare instruction may carry beside what it asks for ("bullet points pls").
const BARE_FILLERS =
  /\b(?:please|pls|plz|thanks|thx|and|also|just|only|ok|okay|so|then|oh|like|max|maximum|tho|though|too|with|me|use|no|more|less|a|the|for|now)\b/gu;

/** The clause of `lower` around `index`. */
function clauseAt(lower: string, index: number): string {
  const before = lower.slice(0, index).search(/[^,;:!?.—–]*$/u);
  const after = lower.slice(index).search(/[,;:!?.—–]|$/u);
  return lower.slice(before, index + after);
}

/** Whether a clause holds nothing but the instruction itself. */
function bare(clause: string, style: RegExpExecArray): boolean {
  const rest = clause.replace(style[0], ' ').replace(BARE_FILLERS, ' ');
  return !/[\p{L}]/u.test(rest.replace(/\d+/gu, ''));
}

/**
 * Whether a lower-cased request is about one answer or one piece of text ("make this one shorter",
 * "把这段改成表格") and says nothing of the answers after it.
 *
 * @example
 * aboutOneAnswer('please make it more formal', 'en') // true
 */
export function aboutOneAnswer(lower: string, language: 'en' | 'zh'): boolean {
  return language === 'zh'
    ? ZH_ONE_OFF.test(lower) && !ZH_STANDING.test(lower)
    : EN_ONE_OFF.test(lower) && !EN_STANDING.test(lower);
}

/** The instructions a user's English sentence gives that stand beyond the next answer. */
function englishStyles(lower: string): Style[] {
  if (aboutOneAnswer(lower, 'en')) return [];
  const standing = EN_STANDING.test(lower);
  const asked = EN_REQUEST.test(lower);
  const out: Style[] = [];
  for (const style of EN_STYLES) {
    const found = style.pattern.exec(lower);
    if (found === null) continue;
    const said = bare(clauseAt(lower, found.index), found);
    const stands = standing || style.standing === true || KEEP.test(lower) || GENERIC_OBJECT.test(lower);
    if (said || (asked && stands)) out.push({ name: style.name, value: style.value(found, lower), index: found.index });
  }
  return out;
}

const ZH_LANGUAGES = '中文|英文|英语|汉语|日语|日文|法语|德语|韩语|西班牙语|俄语|粤语|简体中文|繁体中文|普通话';
const ZH_STYLES: readonly StylePattern[] = [
  {
    name: 'language',
    pattern: new RegExp(`用(${ZH_LANGUAGES})(?=回答|回复|跟我|和我|交流|聊|给我)`, 'u'),
    value: (found) => found[1]!,
    standing: true,
  },
  {
    name: 'length',
    pattern:
      /(简短|简洁|简单|简明|详细|详尽|精简)(?:一)?点|写(?:得)?(?:更)?(详细|简短|简洁|具体)|(简短|简洁|详细)(?:地|的)?(?:回答|说|写)/u,
    value: (found) => found[1] ?? found[2] ?? found[3]!,
  },
  {
    name: 'format',
    pattern: /(?:用|以|按)(要点|表格|列表|分点|条目|清单)(?:的形式)?(?:列出来|列|回答|写|来|给)?|分点(?:回答|列出|说)/u,
    value: (found) => found[1] ?? '分点',
  },
  { name: 'order', pattern: /(?:直接|先)(?:给|说|讲)结论|结论先行/u, value: (found) => found[0] },
];
const ZH_STANDING =
  /以后|今后|之后|往后|从现在(?:起|开始)|从今天(?:起|开始)|一直|总是|每次|默认|先说好|提前说好|说在前面|你(?:的)?(?:回答|回复)|回答我|回复我|回答都|回复都/u;
const ZH_ONE_OFF = /这个|这段|这篇|这次|这条|这份|上面|刚才|刚刚|重新|再(?:写|说|来|改)|改成|改一下/u;
const ZH_BARE_FILLERS = /回答|回复|就行|就好|就可以|吧|啊|一下|一点|点|哈|呗|的|了|请|麻烦|你|都|来|写|说|先说好/gu;

/** The instructions a user's Chinese sentence gives that stand beyond the next answer. */
function chineseStyles(lower: string): Style[] {
  if (aboutOneAnswer(lower, 'zh')) return [];
  const standing = ZH_STANDING.test(lower);
  const out: Style[] = [];
  for (const style of ZH_STYLES) {
    const found = style.pattern.exec(lower);
    if (found === null) continue;
    const clause =
      lower.slice(0, found.index).replace(/^.*[，,；;：:！!？?。]/su, '') +
      lower.slice(found.index).replace(/[，,；;：:！!？?。].*$/su, '');
    const said =
      clause
        .replace(found[0], '')
        .replace(ZH_BARE_FILLERS, '')
        .replace(/[\s~～]/gu, '') === '';
    if (said || standing || style.standing === true)
      out.push({ name: style.name, value: style.value(found, lower), index: found.index });
  }
  return out;
}

function answerStyles(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const styles = context.language === 'zh' ? chineseStyles(context.lower) : englishStyles(context.lower);
  return styles.map((style) =>
    emit(context, rule, {
      key: makeKey('preferences', ['writing', style.name]),
      value: { scope: 'writing', name: style.name, value: written(context.text, style.value), priority: 0.9 },
    }),
  );
}

/** The value as the user wrote it (capitals kept: "Swedish"), when the sentence has it. */
function written(text: string, value: string): string {
  const lower = text.toLowerCase();
  const at = lower.indexOf(value);
  return at === -1 || lower.length !== text.length ? value : text.slice(at, at + value.length);
}

/**
 * How the user wants every answer: reply language, length, format, tone, emoji, order of parts,
 * units and explanations.
 *
 * @example
 * // "can you answer in Swedish from now on?" → pref:writing:language = Swedish
 */
export const ANSWER_STYLE_RULES: readonly Rule[] = [
  {
    name: 'en.preference.answers',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'preferences',
    confidence: 0.8,
    gate: 'may',
    trigger: new RegExp(
      String.raw`\b(?:${LANGUAGES}|${UNITS}|short|shorter|brief|briefer|concise|succinct|terse|detailed|longer|in-depth|thorough|sentences|lines|paragraphs|words|bullets|bullet|numbered|tables?|headings|headers|plain|prose|markdown|formal|casual|informal|friendly|professional|polite|playful|blunt|direct|chatty|emojis?|emoticons|smileys|first|summary|tl;?dr|overview|recap|step)\b`,
      'u',
    ),
    questions: true,
    match: answerStyles,
  },
  {
    name: 'zh.preference.answers',
    languages: ['zh'],
    roles: USER_ONLY,
    type: 'preferences',
    confidence: 0.8,
    gate: 'may',
    trigger: /用|简|详|写|要点|表格|列表|分点|条目|清单|结论/u,
    questions: true,
    match: answerStyles,
  },
];

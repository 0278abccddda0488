// The forms an item is offered in, richest first: raw (bounded), quote (the part that matters),
// summary (a short cut) and ref (nothing but the citation id, which the item carries anyway); a
// degraded form is built only when it is read. A text's forms cut it. A fact's forms are whole,
// shortened, and (not to a responder) a bare reference, and a profile is shortened to the facts the
// question asks about. A user known for months has a profile of dozens of facts, far more than a
// responder's facts share holds; cutting its sentence at a fixed length would show the same first
// facts whatever is asked. Instead the facts the cues ask about come first ("what is my dog called?"
// finds `pet:bolt`), by the words of each fact and of what its key is about, then the rest in the
// profile's own order, and the packet takes the largest first part that fits.

import { stemmer } from 'stemmer';

import type { MemoryItem } from '../spec/items.js';
import type { Fact, Purpose } from '../spec/packet.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { describeValue, isEnded } from '../items/values.js';
import { cueMatcher, matchScore } from './best-sentence.js';

export type Level = 'raw' | 'quote' | 'summary' | 'ref';

/**
 * A form whose value is built the first time it is read: a degraded form costs nothing unless the
 * richer ones did not fit.
 *
 * @example
 * const summary = lazyForm('summary', () => ({ ...fact, notes: tokenizer.truncate(fact.notes, 16) }));
 */
export function lazyForm<T>(level: Level, make: () => T): { readonly level: Level; readonly value: T } {
  return new LazyForm(level, make);
}

// A class, not an object literal with a getter: V8 gives each such literal a hidden class of its own
// holding its getter, in the old generation; until the next full collection those keep every getter's
// closure, and through it the whole compose that made it, alive across young collections, which then
// promote some 150 kB a compose (a young collection of ~9 ms every dozen composes on the tenant benchmark).
class LazyForm<T> {
  private make: (() => T) | undefined;
  private made: T | undefined;

  constructor(
    readonly level: Level,
    make: () => T,
  ) {
    this.make = make;
  }

  get value(): T {
    if (this.make !== undefined) {
      this.made = this.make();
      this.make = undefined;
    }
    return this.made as T;
  }
}

export interface TextFormLimits {
  raw: number;
  quote: number;
  summary: number;
}

export const TEXT_LIMITS: TextFormLimits = { raw: 400, quote: 60, summary: 16 };

function cut(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  const head = tokenizer.truncate(text, maxTokens);
  return head.length < text.length ? `${head.trimEnd()}…` : text;
}

/**
 * The forms of `text`, richest first. The raw form is cut now; the quote and summary forms only when
 * they are read (most items fit raw). A form equal to the one before it is skipped by the builder.
 * `quote` may give the part that matters most (the best sentence), found only when a quote or
 * summary form is read; without it, or when it finds none, they cut the start of the text.
 * `sentenceOnly` gives only the quote and summary forms. `wholeTokens`, the tokens of the whole text as
 * its line shows it (text-tokens.ts), spares the cut of a text within the raw limit.
 *
 * @example
 * textForms('a long message …', o200kTokenizer).map((form) => form.level) // ['raw', 'quote', 'summary', 'ref']
 */
export function textForms(
  text: string,
  tokenizer: Tokenizer,
  limits: TextFormLimits = TEXT_LIMITS,
  quote?: () => string | undefined,
  options: { sentenceOnly?: boolean; wholeTokens?: number | undefined } = {},
): Array<{ level: Level; readonly value: string }> {
  let found: string | undefined;
  const quoted = () => (found ??= quote?.() ?? text);
  const shorter = [
    lazyForm('quote', () => cut(quoted(), limits.quote, tokenizer)),
    lazyForm('summary', () => cut(quoted(), limits.summary, tokenizer)),
  ];
  // Only the quote and summary forms, both cut when first read.
  if (options.sentenceOnly === true) return shorter;
  const { wholeTokens } = options;
  return [
    {
      level: 'raw',
      value: wholeTokens !== undefined && wholeTokens <= limits.raw ? text : cut(text, limits.raw, tokenizer),
    },
    ...shorter,
    { level: 'ref', value: '' },
  ];
}

// What a question may call a fact by the head of its key (`pet:bolt` → pet), in English and Chinese:
// "where do I live?" asks about `location`, "what can't I eat?" about `allergy:*` and `diet`.
const PLACE = 'live living home city town country based where move moved 住 住在 城市 哪里 哪儿 家 搬';
const WORK = 'work job company employer career profession title office boss colleague 工作 公司 职位 上班 单位';
const FAMILY =
  'family wife husband partner spouse baby kids kid children child son daughter mother father mum mom dad sister brother parents relative 家人 老婆 老公 孩子 宝宝 儿子 女儿 妈 爸 姐 妹 哥 弟';
const HEALTH =
  'health medical medication medicine drug pills condition illness sick doctor allergic allergy allergies avoid eat food safe 健康 药 病 过敏 医生 吃 舒服 难受';
const FOOD = 'eat food diet drink avoid like love enjoy favourite favorite meal 吃 喝 饮 饮食 忌口';
const TASTE =
  'like love enjoy favourite favorite hobby hobbies fun free time hate dislike listen watch play 喜欢 爱 讨厌 爱好';
const DATES = 'birthday born date anniversary wedding married when day 生日 出生 纪念日 周年 哪天 结婚';
const ABOUT: Readonly<Record<string, string>> = {
  location: PLACE,
  city: PLACE,
  origin: 'from grew born hometown originally 老家 出生 哪里人',
  role: WORK,
  employer: WORK,
  name: 'name called 名字 叫',
  family: FAMILY,
  pet: 'pet pets dog cat animal 宠物 狗 猫',
  health: HEALTH,
  medication: HEALTH,
  allergy: HEALTH,
  intolerance: HEALTH,
  diet: FOOD,
  avoids: FOOD,
  taste: TASTE,
  possession: 'own have got car drive laptop phone bike 有 车 电脑 手机',
  routine: 'usually routine every week weekly day daily morning evening habit often 每天 每周 习惯 经常',
  education:
    'study studied school university college degree course student learn learning graduated 学校 大学 专业 读书 课程 上课 学位 学历 学习',
  age: 'age old years born birthday 岁 年龄 多大',
  relationship:
    'married single divorced engaged relationship partner spouse wife husband dating wedding 结婚 单身 离婚 订婚',
  languages: 'speak speaks language languages fluent 说 语言 外语',
  birthday: DATES,
  date: DATES,
  anniversary: DATES,
};

// The part sizes tried, largest first (each smaller than the whole profile).
const PART_SIZES = [12, 8, 5, 3, 2, 1];
const HAN = /\p{Script=Han}/u;

/** The head of each key's words as a cue term names them: stems, and Han words whole. */
const ABOUT_WORDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries(ABOUT).map(([head, words]) => [
    head,
    new Set(words.split(' ').map((word) => (HAN.test(word) ? word : stemmer(word)))),
  ]),
);

function factText(fact: Record<string, unknown>): string {
  const key = typeof fact['k'] === 'string' ? fact['k'] : '';
  return `${key.replace(/[:_]/gu, ' ')} ${typeof fact['v'] === 'string' ? fact['v'] : JSON.stringify(fact['v'] ?? '')}`;
}

/**
 * How many cue terms ask about what a key is about: an English term by its stem, a Chinese one when
 * it holds a word of the list ("住在" holds 住; "念" is not 纪念日).
 */
function aboutScore(fact: Record<string, unknown>, terms: readonly string[]): number {
  const head = typeof fact['k'] === 'string' ? (fact['k'].split(':')[0] ?? '') : '';
  const words = ABOUT_WORDS.get(head);
  if (words === undefined) return 0;
  let score = 0;
  for (const term of terms) {
    if (HAN.test(term) ? [...words].some((word) => HAN.test(word) && term.includes(word)) : words.has(stemmer(term)))
      score += 1;
  }
  return score;
}

/**
 * A profile's value cut to ever smaller parts of its facts, the ones the cue terms ask about first
 * (then the profile's own order): what a packet shows, largest first, when the whole does not fit.
 * A fact counts by the cue terms its own words hold (a rare term counts more) and by those that ask
 * about what its key is about. Empty when the profile has at most one fact to show.
 *
 * @example
 * profileParts({ subject: 'user', facts: [{ k: 'location', v: 'Lisbon' }, { k: 'pet:bolt', v: 'dog Bolt' }] }, ['dog'])
 * // [{ subject: 'user', facts: [{ k: 'pet:bolt', v: 'dog Bolt' }] }]
 */
export function profileParts(
  value: Readonly<Record<string, unknown>>,
  cueTerms: readonly string[],
): Array<Record<string, unknown>> {
  const all = Array.isArray(value['facts']) ? (value['facts'] as unknown[]) : [];
  const shown = all.filter(
    (fact): fact is Record<string, unknown> =>
      typeof fact === 'object' && fact !== null && !isEnded(fact as Record<string, unknown>),
  );
  if (shown.length <= 1) return [];
  const texts = shown.map(factText);
  const matcher = cueMatcher(cueTerms, texts);
  const scores = shown.map((fact, index) => matchScore(texts[index]!, matcher) + aboutScore(fact, cueTerms));
  // A stable order: the best-matching facts first, ties and the unmatched in the profile's order.
  const order = shown.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]! || a - b);
  return PART_SIZES.filter((size) => size < shown.length).map((size) => ({
    ...value,
    facts: order.slice(0, size).map((index) => shown[index]!),
  }));
}

/**
 * The forms a fact is offered in, richest first: whole; shortened (a profile's parts, any other
 * item's sentence cut to 16 tokens); a bare reference (key and id, no text) for planner and tool
 * packets only. A responder's model answers from what it reads, so its packet spends those tokens on
 * passages: on LoCoMo at 256 tokens 0.606 → 0.611 of the evidence shown, unchanged at larger budgets.
 *
 * @example
 * builder.place([{ …, forms: factForms(item, fact, { purpose: 'responder', tokenizer, cueTerms: ['dog'] }) }])
 */
export function factForms(
  item: MemoryItem,
  fact: Fact,
  options: { purpose: Purpose; tokenizer: Tokenizer; cueTerms: readonly string[] },
): Array<{ readonly level: Level; readonly value: Fact }> {
  const shorter =
    item.type === 'profile'
      ? profileParts(item.value, options.cueTerms).map((value) =>
          lazyForm('summary', () => ({ ...fact, value, notes: describeValue('profile', value) })),
        )
      : [lazyForm('summary', () => ({ ...fact, notes: options.tokenizer.truncate(fact.notes ?? '', 16) }))];
  return [
    { level: 'raw', value: fact },
    ...shorter,
    ...(options.purpose === 'responder' ? [] : [{ level: 'ref' as const, value: { ...fact, notes: '' } }]),
  ];
}

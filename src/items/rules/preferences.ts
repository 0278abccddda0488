// Preferences (MemoryTypes v0.1 §3.2): what the user asks for or says they prefer. The key name
// comes from the topic (tone, editor, drink), never from the value, so a changed preference
// supersedes the old one. Only the user's own messages state their preferences.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { aboutOneAnswer } from './answer-style.js';
import { scopeOf, topicOf, type Topic } from './lexicon.js';
import { emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase, clauseEnd, idFrom, shorten } from './text.js';

interface PreferenceSpec {
  name: string;
  language: Language;
  confidence: number;
  priority: number;
  trigger: RegExp;
  /** Run on the sentence as written; the object starts where the match ends. */
  pattern: RegExp;
  /** Only a known topic makes it a preference ("I like X" is one only when X is a known topic). */
  requireTopic: boolean;
  /** Whether the match states an aversion (never, don't, hate, 不要). */
  negative?: (found: RegExpExecArray) => boolean;
  /** A capture group naming the topic ("my favourite <editor> is …"). */
  topicGroup?: number;
  questions?: boolean;
  /** An instruction to the assistant: one about a single answer ("make it more formal") is no preference. */
  instruction?: boolean;
}

// Comparisons end the preferred thing: "tea over coffee", "更喜欢茶而不是咖啡".
const COMPARISON = /\s(?:over|rather than|instead of|than|not)\s|而不是|而非|胜过|，/u;
const EN_VERB =
  /^(?:use|using|write|writing|answer|answering|reply|replying|respond|responding|keep|keeping|make|format|formatting|go with|have|having|drink|drinking|get|talk|speak|speaking|code|coding|work|working|stick to|switch to|be)\s+(?=\S)/i;
const EN_PREPOSITION = /^(?:in|with|using|on)\s+(?=\S)/i;
const ZH_VERB = /^(?:用|使用|以|采用|写成|写得|写|回答|回复|喝|吃|保持|是)+/u;
const FOR_TOPIC = /\bfor\s+(?:my\s+|the\s+|our\s+|all\s+)?([\p{L}\s-]{2,40})$/iu;
// A topic set up before the statement: "For commit messages, I prefer …", "关于邮件，…".
const LEAD_TOPIC =
  /^(?:for|with|in|when it comes to|when writing)\s+(?:my\s+|the\s+|our\s+|all\s+)?([\p{L}\s-]{2,40}?)\s*,|^(?:关于|对于)([^，,]{1,12})[，,]/iu;

function stripVerb(phrase: string, language: Language): string {
  const cleaned = cleanPhrase(phrase);
  if (language === 'zh') return cleanPhrase(cleaned.replace(ZH_VERB, ''));
  return cleanPhrase(cleaned.replace(EN_VERB, '').replace(EN_PREPOSITION, ''));
}

// Words that change a value word: "simple English", "less formal".
const MODIFIER = /(?:^|\s)((?:simple|plain|easy|basic|less|more|a bit more|a bit less|british|american)\s+)$/iu;

/**
 * The preferred thing as text: the value word as written, or the words before the topic word
 * ("a casual tone in emails" → "casual", "正式的语气" → "正式"), else the words after it.
 */
function valueText(object: string, topic: Topic | undefined, language: Language): string {
  if (topic !== undefined && !topic.isTopicWord) {
    const modifier = MODIFIER.exec(object.slice(0, topic.index))?.[1] ?? '';
    return object.slice(topic.index - modifier.length, topic.index + topic.term.length);
  }
  if (topic?.value !== undefined) return object.slice(topic.value.index, topic.value.index + topic.value.term.length);
  const phrase = stripVerb(object, language);
  if (topic === undefined) return phrase;
  const at = phrase.toLowerCase().indexOf(topic.term);
  if (at === -1) return phrase;
  const before = cleanPhrase(phrase.slice(0, at));
  if (before !== '') return before;
  const after = cleanPhrase(phrase.slice(at + topic.term.length).replace(/^\s*(?:is|should be|of|:|=)\s*/i, ''));
  return after === '' ? phrase : after;
}

function preferenceOf(context: SentenceContext, rule: Rule, spec: PreferenceSpec): ItemCandidate[] {
  if (spec.instruction === true && aboutOneAnswer(context.lower, context.language)) return [];
  const found = spec.pattern.exec(context.text);
  if (found === null) return [];
  const from = found.index + found[0].length;
  const whole = context.text.slice(from, clauseEnd(context.text, from));
  const cut = COMPARISON.exec(whole);
  const object = cut === null ? whole : whole.slice(0, cut.index);
  const lower = object.toLowerCase();
  const hint = spec.topicGroup === undefined ? undefined : found[spec.topicGroup];
  const hinted = hint === undefined ? undefined : topicOf(hint.toLowerCase(), context.language === 'zh');
  const topic = hinted === undefined ? topicOf(lower, context.language === 'zh') : undefined;
  if (hinted === undefined && topic === undefined && spec.requireTopic) return [];
  let scope = hinted?.scope ?? topic?.scope;
  let name = hinted?.name ?? topic?.name;
  let confidence = spec.confidence;
  if (scope === undefined || name === undefined) {
    // No known topic: the topic the sentence names ("for commit messages", "my favourite X"), else
    // the words of the value itself, at lower confidence since a new value will not land here.
    const lead = LEAD_TOPIC.exec(context.text.slice(0, found.index));
    const named = hint ?? FOR_TOPIC.exec(cleanPhrase(object))?.[1] ?? lead?.[1] ?? lead?.[2];
    name = idFrom(named ?? stripVerb(object, context.language), 3);
    scope = scopeOf(`${named ?? ''} ${lower}`);
    confidence = named === undefined ? 0.6 : spec.confidence;
  }
  const negative = spec.negative?.(found) === true;
  const preferred = valueText(object, hinted === undefined ? topic : undefined, context.language);
  if (name === '' || preferred === '') return [];
  const value = shorten(
    negative
      ? context.language === 'zh'
        ? `不要${stripVerb(object, 'zh')}`
        : `no ${stripVerb(object, 'en')}`
      : preferred,
    200,
  );
  return [
    emit(context, rule, {
      key: makeKey('preferences', [scope, name]),
      value: { scope, name, value, priority: spec.priority },
      confidence,
    }),
  ];
}

function preferenceRule(spec: PreferenceSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: USER_ONLY,
    type: 'preferences',
    confidence: spec.confidence,
    gate: 'may',
    trigger: spec.trigger,
    ...(spec.questions === true ? { questions: true } : {}),
    match: (context, rule) => preferenceOf(context, rule, spec),
  };
}

const NOT = (found: RegExpExecArray): boolean =>
  found[1] !== undefined &&
  /^(?:not|never|hate|dislike|detest|can't stand|cannot stand|don't|do not|dont|讨厌|不喜欢|不要|别|不用|避免|禁止)/iu.test(
    found[1],
  );

export const PREFERENCE_RULES: readonly Rule[] = [
  preferenceRule({
    name: 'en.preference.prefer',
    language: 'en',
    confidence: 0.85,
    priority: 0.8,
    trigger: /prefer/,
    pattern:
      /\bI(?:'d| would)?(?:\s+(?:really|generally|usually|much|strongly|definitely|still|now|actually|always))*\s+prefer(?:\s+(not)\s+to)?\s+/i,
    requireTopic: false,
    negative: NOT,
  }),
  preferenceRule({
    name: 'en.preference.favourite',
    language: 'en',
    confidence: 0.85,
    priority: 0.8,
    trigger: /preferred|favou?rite/,
    pattern: /\bmy\s+(?:preferred|favou?rite)\s+([\p{L}\s-]{2,30}?)\s+(?:is|are)\s+/iu,
    requireTopic: false,
    topicGroup: 1,
  }),
  preferenceRule({
    name: 'en.preference.rather',
    language: 'en',
    confidence: 0.75,
    priority: 0.7,
    trigger: /rather/,
    pattern: /\bI(?:'d| would)\s+rather\s+(not\s+)?/i,
    requireTopic: true,
    negative: NOT,
  }),
  preferenceRule({
    name: 'en.preference.always',
    language: 'en',
    confidence: 0.85,
    priority: 0.9,
    trigger: /always|never/,
    pattern:
      /(?:^(?:(?:please|and|also|so|from now on|going forward|in future|in the future),?\s+)*|\b(?:you should|you must|make sure to|remember to|please)\s+)(always|never)\s+/i,
    requireTopic: true,
    negative: NOT,
    instruction: true,
  }),
  preferenceRule({
    name: 'en.preference.please',
    language: 'en',
    confidence: 0.85,
    priority: 0.9,
    trigger: /please|^(?:use|write|answer|reply|respond|keep|stick|switch|speak)\b/,
    pattern:
      /(?:\bplease\s+(?:(?:always|only|just|try to)\s+)?|^)(?:use|write|answer|reply|respond|keep|format|make|stick to|switch to|talk|speak)\s+/i,
    requireTopic: true,
    questions: true,
    instruction: true,
  }),
  preferenceRule({
    name: 'en.preference.dont',
    language: 'en',
    confidence: 0.8,
    priority: 0.9,
    trigger: /don't|do not|dont/,
    pattern: /(?:^|\bplease\s+)(don't|do not|dont)\s+(?!forget|worry|mind|know|think|care|be\b|hesitate|wait|bother)/i,
    requireTopic: true,
    negative: NOT,
    instruction: true,
  }),
  preferenceRule({
    name: 'en.preference.like',
    language: 'en',
    confidence: 0.7,
    priority: 0.6,
    trigger:
      /\bi (?:really |absolutely |do |truly )?(?:like|love|enjoy|adore|hate|dislike|detest|can't stand|cannot stand|don't like|do not like)\b/,
    pattern:
      /\bI\s+(?:really\s+|absolutely\s+|do\s+|truly\s+)?(like|love|enjoy|adore|hate|dislike|detest|can't stand|cannot stand|don't like|do not like)\s+/i,
    requireTopic: true,
    negative: NOT,
  }),
  preferenceRule({
    name: 'zh.preference.gengxihuan',
    language: 'zh',
    confidence: 0.85,
    priority: 0.8,
    trigger: /更(?:喜欢|倾向|偏好|偏爱|愿意|想要)/u,
    pattern: /我(?:还是|其实|比较|一般|现在|平时)?更(?:喜欢|倾向于?|偏好|偏爱|愿意|想要)/u,
    requireTopic: false,
  }),
  preferenceRule({
    name: 'zh.preference.xihuan',
    language: 'zh',
    confidence: 0.7,
    priority: 0.6,
    trigger: /喜欢|爱|讨厌|习惯/u,
    pattern: /我(?:很|非常|最|比较|挺|真的|特别|一直)?(喜欢|爱|偏爱|习惯|讨厌|不喜欢)/u,
    requireTopic: true,
    negative: NOT,
  }),
  preferenceRule({
    name: 'zh.preference.qingyong',
    language: 'zh',
    confidence: 0.85,
    priority: 0.9,
    trigger: /请|麻烦/u,
    pattern: /(?:请|麻烦)你?(?:以后|今后)?(?:都|始终|一直|总是|尽量|尽可能)?(?:用|使用|以|采用|写成|写得|保持)/u,
    requireTopic: true,
    questions: true,
    instruction: true,
  }),
  preferenceRule({
    name: 'zh.preference.always',
    language: 'zh',
    confidence: 0.85,
    priority: 0.9,
    trigger: /总是|永远|始终|一律|一直|以后|今后|之后/u,
    // "以后回答都用要点": from now on, what every answer should be.
    pattern:
      /^(?:以后|今后|之后)?(?:(?:你的)?(?:回答|回复)(?:我)?(?:的时候)?)?(?:总是|永远|始终|一律|一直|都|统一)都?(?:用|使用|以|采用)/u,
    requireTopic: true,
    instruction: true,
  }),
  preferenceRule({
    name: 'zh.preference.buyao',
    language: 'zh',
    confidence: 0.8,
    priority: 0.9,
    trigger: /不要|别|不用|避免|禁止/u,
    // "不用那么简短了" takes a wish back; it does not ask for the opposite.
    pattern: /(不要|别|不用|避免|禁止)(?!忘|担心|着急|客气|紧|管|急|那么|这么)/u,
    requireTopic: true,
    negative: NOT,
    instruction: true,
  }),
];

// Dated events (MemoryTypes v0.1 §3.7): a launch, a meeting, a deadline on a date the sentence
// names — 2026-12-01, "on 8 May 2023", "next Friday", "2026年12月1日", "明天". Relative dates count
// only beside an event word, so "talk to you tomorrow" is not an event. A task or goal made from
// the same sentence keeps its date there (as `due`) instead.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { EN_DATE_CUE, findDate, ZH_DATE_CUE } from './dates.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, type Language, type Rule, type SentenceContext } from './rule.js';
import { contentWords, idFrom, shorten } from './text.js';

const EN_EVENT =
  /\b(launch(?:es|ed)?|release[sd]?|ship(?:s|ped)?|meeting|meet|demo|deadline|due date|interview|trip|flight|birthday|wedding|anniversary|conference|summit|review|deploy(?:ment|ed)?|migration|offsite|standup|call|appointment|presentation|kickoff|kick-off|retro|retrospective|workshop|hackathon|vacation|holiday|party|dinner|lunch|exam|go-live|cutover|outage|incident|milestone|beta|webinar|visit|moved|started|joined|graduat\w+)\b/i;
const ZH_EVENT =
  /(发布|上线|会议|开会|面试|出差|生日|婚礼|纪念日|周年|大寿|寿宴|演示|评审|截止|交付|部署|迁移|旅行|旅游|出发|出国|回老家|机票|车票|门票|航班|改签|聚餐|聚会|派对|约会|考试|科目[一二三四]|复查|体检|预约|洗牙|补牙|手术|音乐节|演唱会|里程碑|故障|事故|启动|复盘|培训|路演|入职|离职|开学|入学|毕业|搬家|假期|玩)/u;
// Words that name the event are better slugs than the sentence's first words.
const EN_CANONICAL: Readonly<Record<string, string>> = { launches: 'launch', launched: 'launch', released: 'release', releases: 'release', shipped: 'ship', ships: 'ship', deployed: 'deploy', deployment: 'deploy', 'kick-off': 'kickoff', retrospective: 'retro', meet: 'meeting' };

function eventOf(context: SentenceContext, rule: Rule, language: Language): ItemCandidate[] {
  const mention = findDate(context.lower, language, context.date);
  if (mention === undefined) return [];
  if (context.here.some((candidate) => (candidate.type === 'tasks' || candidate.type === 'goals') && candidate.value['due'] === mention.date)) return [];
  const cue = (language === 'zh' ? ZH_EVENT : EN_EVENT).exec(context.text);
  if (mention.relative && cue === null) return [];
  const withoutDate = `${context.text.slice(0, mention.index)} ${context.text.slice(mention.index + mention.length)}`;
  const project = projectOf(context);
  const cueWord = cue?.[1]?.toLowerCase();
  const slugText = cueWord === undefined ? idFrom(withoutDate, 3) : language === 'zh' ? cueWord : (EN_CANONICAL[cueWord] ?? cueWord);
  if (slugText === '' || (cue === null && contentWords(withoutDate).length === 0)) return [];
  const scope = project.name;
  const title = shorten(context.text.trim().replace(/[\s.;:!?。；：！？]+$/u, ''));
  return [emit(context, rule, { key: makeKey('events', [scope, mention.date, slugText]), value: { scope, date: mention.date, title }, confidence: mention.relative ? 0.6 : 0.7 })];
}

export const EVENT_RULES: readonly Rule[] = [
  {
    name: 'en.event.dated',
    languages: ['en'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.7,
    gate: 'may',
    trigger: EN_DATE_CUE,
    match: (context, rule) => eventOf(context, rule, 'en'),
  },
  {
    name: 'zh.event.dated',
    languages: ['zh'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.7,
    gate: 'may',
    trigger: ZH_DATE_CUE,
    match: (context, rule) => eventOf(context, rule, 'zh'),
  },
];

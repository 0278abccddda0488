// Where the user lives, said in passing in Chinese (the `location` fact of profile:user): "在广州住快
// 一个月了", "来长沙报到一个礼拜了", "在Shopee做data analyst，base新加坡", "在上海浦东住了六年". As in
// English (home-place.ts), no phrasing is listed: a known place (places.ts, with China's provinces,
// cities and districts, or the cities the Chinese rules know) after 在/来/到/回/base/坐标, in a clause
// that tells the user's own life there (住, 租, 上班, 工作, 报到, how long, 这边); never travel, plans,
// the past or the hometown (出差, 旅游, 打算, 以前, 老家), someone else's life, or a question.

import { factRule, statedFacts, type Fact } from './fact-patterns.js';
import { placeNamed } from './places.js';
import type { Rule, SentenceContext } from './rule.js';
import { isPlace } from './zh-clauses.js';

const AT = /(?:住在|租在|在|来|到|回|base|坐标)\s*/giu;
const OWN_LIFE =
  /住|租|生活|定居|安家|落脚|扎根|上班|工作|报到|入职|读书|上学|base|坐标|这边|这儿|[\d一二两三四五六七八九十几半]+(?:个)?多?(?:年|月|周|星期|礼拜)(?:了|啦)/iu;
const AWAY =
  /出差|旅游|旅行|玩|度假|飞|机票|出发|参加|开会|打算|准备|考虑|想|要|将|搬|下个月|下周|明天|后天|假期|五一|国庆|春节|过年|探亲|老家|以前|之前|小时候|那时|去年|曾经|出生|是.{1,6}人/u;
const SOMEONE_ELSE = /他|她|妈|爸|父母|老公|老婆|男朋友|女朋友|对象|朋友|同事|闺蜜|哥|姐|弟|妹|儿子|女儿|孩子|客户/u;
const ASKING = /吗|呢|哪|什么|怎么|多少|几|？|\?/u;

/** A known place at the start of `text`: the longest of two to six characters (a Latin name up to its end). */
function placeAt(text: string): string | undefined {
  const latin = /^[A-Za-z][A-Za-z .'-]*[A-Za-z]/u.exec(text)?.[0];
  if (latin !== undefined) return placeNamed(latin) === undefined ? undefined : latin;
  for (let length = Math.min(6, text.length); length >= 2; length -= 1) {
    const phrase = text.slice(0, length);
    if (/^\p{Script=Han}+$/u.test(phrase) && (placeNamed(phrase) !== undefined || isPlace(phrase))) return phrase;
  }
  return undefined;
}

/** The user's home a Chinese sentence tells in passing; a city and its district together ("上海浦东"). */
function homePlace(context: SentenceContext): Fact[] {
  if (context.question) return [];
  if (statedFacts(context).has('location')) return [];
  for (const clause of context.text.split(/[，,。！!；;~～]/u)) {
    if (!OWN_LIFE.test(clause) || AWAY.test(clause) || SOMEONE_ELSE.test(clause) || ASKING.test(clause)) continue;
    AT.lastIndex = 0;
    for (let found = AT.exec(clause); found !== null; found = AT.exec(clause)) {
      const from = found.index + found[0].length;
      const place = placeAt(clause.slice(from));
      if (place === undefined) continue;
      const within = placeAt(clause.slice(from + place.length));
      return [{ k: 'location', v: within === undefined || within.length > 4 ? place : `${place}${within}` }];
    }
  }
  return [];
}

export const ZH_HOME_PLACE_RULES: readonly Rule[] = [
  { ...factRule('zh.profile.home_place', 'zh', /在|来|到|回|base|坐标/, homePlace), confidence: 0.7 },
];

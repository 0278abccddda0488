// Profile facts the user states in Chinese (MemoryTypes v0.1 §3.1): where they live, work and
// study, their family and pets, health, diet, tastes, belongings and routines. Read clause by clause
// (zh-clauses.ts), so a clause about someone else, a question, a wish or a hypothetical states
// nothing. All facts go to profile:user under the English rules' keys, merged by `k`.

import type { ItemCandidate } from '../../spec/items.js';
import { PROFILE_KEY, type Fact } from './profile.js';
import { emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';
import { clausesOf, ZH_CITIES } from './zh-clauses.js';
import type { ZhFact } from './zh-fact.js';
import { FAMILY_FACTS } from './zh-family.js';
import { BODY_FACTS } from './zh-health.js';
import { chosenEmployer, LIFE_FACTS } from './zh-life.js';
import { TASTE_FACTS } from './zh-tastes.js';

const FACTS: readonly ZhFact[] = [...LIFE_FACTS, ...FAMILY_FACTS, ...BODY_FACTS, ...TASTE_FACTS];

// Each pattern once more with the global flag, to read past a match its checks reject.
const GLOBAL = new Map<RegExp, RegExp>();
function everyMatch(pattern: RegExp): RegExp {
  let global = GLOBAL.get(pattern);
  if (global === undefined) {
    global = new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`);
    GLOBAL.set(pattern, global);
  }
  global.lastIndex = 0;
  return global;
}

/** The fact of a pattern's first match its checks accept: "我哥下个月结婚，嫂子叫林芳" reads past "我哥下个月". */
function factOf(pattern: ZhFact, text: string, date: string, within = text.length): Fact | undefined {
  const matches = everyMatch(pattern.pattern);
  for (let found = matches.exec(text); found !== null && found.index < within; found = matches.exec(text)) {
    if (found[0] === '') matches.lastIndex += 1;
    const fact = acceptedFact(pattern, found, date);
    if (fact !== undefined) return fact;
  }
  return undefined;
}

function acceptedFact(pattern: ZhFact, found: RegExpExecArray, date: string): Fact | undefined {
  const raw = found[pattern.group ?? 1];
  if (raw === undefined) return undefined;
  const captured = raw.trim();
  if (captured === '') return undefined;
  const value = pattern.accept === undefined ? captured : pattern.accept(captured, found);
  if (value === undefined || value === '') return undefined;
  const k = typeof pattern.k === 'string' ? pattern.k : pattern.k(captured, found);
  if (k === undefined || k === '') return undefined;
  if (pattern.ends === true) return { k, v: null, was: value, until: date } as unknown as Fact;
  return pattern.withSince === true ? { k, v: value, since: date } : { k, v: value };
}

/**
 * The profile facts a Chinese sentence states about the user: sentence patterns on the whole text,
 * clause patterns on each clause the user states about themself. A later clause's fact replaces an
 * earlier one of the same key ("在杭州，不对，是湖州" keeps the correction).
 *
 * @example
 * zhFactsOf('我在深圳一家做无人机的公司当硬件工程师', '2026-03-01') // location 深圳, employer, role 硬件工程师
 */
export function zhFactsOf(text: string, date: string): Fact[] {
  const facts = new Map<string, Fact>();
  const clauses = clausesOf(text);
  if (clauses.length === 0) return [];
  const hypothetical = clauses.every((clause) => clause.unstated);
  for (const pattern of FACTS) {
    if (pattern.sentence !== true) continue;
    if (hypothetical) break;
    const fact = factOf(pattern, text, date);
    if (fact !== undefined && !facts.has(fact.k)) facts.set(fact.k, fact);
  }
  for (const clause of clauses) {
    if (clause.about !== 'self' || clause.unstated) continue;
    const here = new Map<string, Fact>();
    for (const pattern of FACTS) {
      if (pattern.sentence === true) continue;
      const fact =
        pattern.spans === true
          ? factOf(pattern, text.slice(clause.start), date, clause.wish)
          : factOf(pattern, clause.text.slice(0, clause.wish), date);
      if (fact !== undefined && !here.has(fact.k)) here.set(fact.k, fact);
    }
    for (const [k, fact] of here) {
      facts.delete(k);
      facts.set(k, fact);
    }
  }
  return [...facts.values()];
}

const CITY_FIRST = new RegExp(`^(?:${ZH_CITIES})`, 'u');
// A city the message puts the user in before naming the district: "新公司在成都，房子就租在高新区",
// "已经在新加坡落地一个月了！住在裕廊东".
const CITY_BEFORE = new RegExp(
  `(?:公司在|单位在|人在|搬到了?|来到了?)(${ZH_CITIES})|在(${ZH_CITIES})(?:落地|安顿|安家|定居)`,
  'gu',
);

/** The profile facts earlier sentences of the same message produced. */
function thisMessage(context: SentenceContext): Fact[] {
  return context.memory.produced
    .filter((candidate) => candidate.key === PROFILE_KEY && candidate.source_event_ids.includes(context.event.event_id))
    .flatMap((candidate) => (Array.isArray(candidate.value['facts']) ? (candidate.value['facts'] as Fact[]) : []));
}

/** A district named as where the user lives, with the city the same message named before it. */
function inCity(fact: Fact, context: SentenceContext): Fact {
  if (fact.k !== 'location' || typeof fact.v !== 'string' || CITY_FIRST.test(fact.v) || /(?:市|省|州)$/u.test(fact.v))
    return fact;
  const at = context.text.indexOf(fact.v);
  const named = [...context.text.slice(0, at === -1 ? context.text.length : at).matchAll(CITY_BEFORE)].at(-1);
  const before = named?.[1] ?? named?.[2];
  const earlier = thisMessage(context)
    .filter((known) => known.k === 'location' && typeof known.v === 'string' && CITY_FIRST.test(known.v))
    .at(-1)?.v;
  const city = before ?? (typeof earlier === 'string' ? CITY_FIRST.exec(earlier)?.[0] : undefined);
  return city === undefined ? fact : { ...fact, v: `${city}${fact.v}` };
}

/** The candidate for the sentence's facts, folded into a profile candidate the sentence already has (a retraction's). */
function profileOf(context: SentenceContext, rule: Rule): ItemCandidate[] {
  // An end needs a profile to end something in.
  const facts = zhFactsOf(context.text, context.date).filter(
    (fact) => fact.v !== null || context.memory.exists(PROFILE_KEY),
  );
  const chosen = facts.some((fact) => fact.k === 'employer')
    ? undefined
    : chosenEmployer(context.text, context.event.text.slice(context.end, context.end + 40));
  if (chosen !== undefined) facts.push({ k: 'employer', v: chosen, since: context.date });
  // A retraction blanks "不喝咖啡了" as a denial of drinking coffee; said of a food or drink, it is
  // also what the user avoids from now on.
  if (context.written !== undefined) {
    for (const fact of zhFactsOf(context.written, context.date))
      if (fact.k.startsWith('avoids:') && fact.v !== null && !facts.some((known) => known.k === fact.k))
        facts.push(fact);
  }
  if (facts.length === 0) return [];
  for (const [index, fact] of facts.entries()) facts[index] = inCity(fact, context);
  // "最后选了蔚蓝银行！…今天把星途的离职手续办完了": the end names the old value, not the one this
  // message just set.
  const setHere = thisMessage(context).filter((fact) => fact.v !== null);
  const kept = facts.filter((fact) => {
    const was = (fact as { was?: unknown }).was;
    return (
      fact.v !== null ||
      typeof was !== 'string' ||
      !setHere.some((set) => set.k === fact.k && typeof set.v === 'string' && !set.v.includes(was))
    );
  });
  if (kept.length === 0) return [];
  facts.splice(0, facts.length, ...kept);
  const earlier = context.here.find((candidate) => candidate.key === PROFILE_KEY && candidate.action === 'upsert');
  if (earlier !== undefined && Array.isArray(earlier.value['facts'])) {
    const known = earlier.value['facts'] as Fact[];
    earlier.value['facts'] = [...known.filter((fact) => !facts.some((next) => next.k === fact.k)), ...facts];
    return [];
  }
  return [emit(context, rule, { key: PROFILE_KEY, value: { subject: 'user', facts } })];
}

export const ZH_PROFILE_RULE: Rule = {
  name: 'zh.profile.fact',
  languages: ['zh'],
  roles: USER_ONLY,
  type: 'profile',
  confidence: 0.85,
  gate: 'may',
  // Every clause of a question-marked sentence but a question one may state a fact.
  questions: true,
  trigger:
    /我|住|搬|来|到|人在|这边|这儿|这里|在|入职|加入|跳槽|进了|辞职|离职|职位|岗位|当|做|是|读|念|学|毕业|考|录取|报了|叫|家|老婆|老公|妻子|丈夫|爱人|媳妇|朋友|妈|爸|母亲|父亲|儿子|女儿|闺女|哥|姐|妹|弟|孙|嫂子|老大|老二|过敏|不耐受|病|症|炎|血|哮喘|痛风|失眠|药|吃|喝|戒|素|荤|碰|喜欢|爱|迷|最|讨厌|受不了|烦|反感|粉|死忠|有|买|入|换|卖|出掉|送人|辆|台|把|部|每|天天|习惯|循环|冲着|越|次|看到|看见|想到|闻到|怕|学院|系|选了|不是|医生|大夫|拜拜|再见|告别/u,
  match: profileOf,
};

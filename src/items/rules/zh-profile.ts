// Profile facts the user states in Chinese (MemoryTypes v0.1 §3.1): where they live, work and
// study, their family and pets, health, diet, tastes, belongings and routines. Read clause by clause
// (zh-clauses.ts), so a clause about someone else, a question, a wish or a hypothetical states
// nothing. All facts go to profile:user under the English rules' keys, merged by `k`.

import type { ItemCandidate } from '../../spec/items.js';
import { PROFILE_KEY, type Fact } from './profile.js';
import { emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';
import { clausesOf } from './zh-clauses.js';
import type { ZhFact } from './zh-fact.js';
import { FAMILY_FACTS } from './zh-family.js';
import { BODY_FACTS } from './zh-health.js';
import { LIFE_FACTS } from './zh-life.js';
import { TASTE_FACTS } from './zh-tastes.js';

const FACTS: readonly ZhFact[] = [...LIFE_FACTS, ...FAMILY_FACTS, ...BODY_FACTS, ...TASTE_FACTS];

function factOf(pattern: ZhFact, text: string, date: string, within = text.length): Fact | undefined {
  const found = pattern.pattern.exec(text);
  const raw = found?.[pattern.group ?? 1];
  if (found === null || raw === undefined || found.index >= within) return undefined;
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
      const fact = pattern.spans === true ? factOf(pattern, text.slice(clause.start), date, clause.wish) : factOf(pattern, clause.text.slice(0, clause.wish), date);
      if (fact !== undefined && !here.has(fact.k)) here.set(fact.k, fact);
    }
    for (const [k, fact] of here) {
      facts.delete(k);
      facts.set(k, fact);
    }
  }
  return [...facts.values()];
}

/** The candidate for the sentence's facts, folded into a profile candidate the sentence already has (a retraction's). */
function profileOf(context: SentenceContext, rule: Rule): ItemCandidate[] {
  // An end needs a profile to end something in.
  const facts = zhFactsOf(context.text, context.date).filter((fact) => fact.v !== null || context.memory.exists(PROFILE_KEY));
  if (facts.length === 0) return [];
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
    /我|住|搬|来|到|人在|这边|这儿|这里|在|入职|加入|跳槽|进了|辞职|离职|职位|岗位|当|做|是|读|念|学|毕业|考|录取|报了|叫|家|老婆|老公|妻子|丈夫|爱人|媳妇|朋友|妈|爸|母亲|父亲|儿子|女儿|闺女|哥|姐|妹|弟|孙|嫂子|老大|老二|过敏|不耐受|病|症|炎|血|哮喘|痛风|失眠|药|吃|喝|戒|素|荤|碰|喜欢|爱|迷|最|讨厌|受不了|烦|反感|粉|死忠|有|买|入|换|卖|出掉|送人|辆|台|把|部|每|天天/u,
  match: profileOf,
};

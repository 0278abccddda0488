// Profile facts (MemoryTypes v0.1 §3.1): stable things the user states about themself — name, role,
// employer, where they live and come from. All facts go to profile:user; the writer merges facts
// by `k`. Only explicit first-person statements by the user count.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase } from './text.js';

export const PROFILE_KEY = makeKey('profile', ['user']);

export interface Fact {
  k: string;
  v: string;
  since?: string;
}

// A capitalised name of up to four words ("Lisbon", "New York", "Acme Labs", "São Paulo").
const NAME = String.raw`(\p{Lu}[\p{L}\p{M}'’.&-]*(?:,?\s+(?:of\s+|de\s+|da\s+)?\p{Lu}[\p{L}\p{M}'’.&-]*){0,3})`;
// Roles end like roles: engineer, designer, scientist, analyst, student, founder, CEO.
const ROLE_END =
  /(?:er|or|ist|ian|ant|ent|ect|ive|ager|ess|ee|ster|ler|smith|wright|man|woman|person|ceo|cto|cfo|coo|pm|vp|lead|head|chef|nurse|founder|student|dev|intern|partner|director|officer|professor|doctor|artist|teacher|owner)$/i;
const NOT_ROLE = /^(?:bit|little|lot|fan|big|huge|total|complete|mess|fast|slow|quick|morning|night|real|good|bad|great|fine|new|old|native|speaker)\b/i;
const ZH_ROLE_END =
  /(?:工程师|程序员|设计师|经理|总监|老师|教师|学生|医生|律师|会计|护士|记者|作家|编辑|顾问|研究员|分析师|创始人|老板|主管|负责人|架构师|科学家|产品|运营|销售|实习生|教授|博士|硕士|本科生|研究生|CEO|CTO|PM|师|员|家)$/u;
const ZH_EMPLOYER_END = /(?:公司|集团|银行|大学|学院|医院|研究所|研究院|实验室|科技|工作室|事务所|部门|中心|局|厅|所)$/u;
const ZH_CITY = /^(?:北京|上海|广州|深圳|杭州|成都|南京|武汉|西安|苏州|天津|重庆|长沙|厦门|青岛|香港|澳门|台北|新加坡|东京|伦敦|纽约|旧金山|硅谷|巴黎|柏林|首尔|悉尼|多伦多|\p{Script=Han}{1,4}(?:市|省|区|县|州))$/u;

interface FactPattern {
  k: string | ((value: string) => string | undefined);
  pattern: RegExp;
  /** Checks or trims the captured value; undefined rejects the match. */
  accept?: (value: string) => string | undefined;
  withSince?: boolean;
}

const EN_FACTS: readonly FactPattern[] = [
  { k: 'name', pattern: new RegExp(String.raw`\b(?:[Mm]y name is|[Mm]y name's|[Cc]all me|I'm called|I am called)\s+${NAME}`, 'u') },
  {
    k: 'role',
    pattern: /\bI\s+work\s+as\s+(?:an?\s+|the\s+)?([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on)\b|[,.;!?]|$)/iu,
  },
  {
    k: 'role',
    pattern: /\bI(?:'m| am)\s+(?:an?|the)\s+([\p{L}\s-]{2,60}?)(?=\s+(?:at|for|in|with|on|and|who|based|from)\b|[,.;!?]|$)/iu,
    accept: (value) => (NOT_ROLE.test(value) || !ROLE_END.test(value) || value.split(/\s+/).length > 5 ? undefined : value),
  },
  { k: 'employer', pattern: new RegExp(String.raw`\bI\s+(?:work|am working|'m working)\s+(?:at|for)\s+${NAME}`, 'u') },
  { k: 'employer', pattern: new RegExp(String.raw`\bI(?:'m| am| work as)\s+an?\s+[\p{L}\s-]{2,40}?\s+(?:at|for)\s+${NAME}`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\bI\s+(?:live|reside|am based|'m based|am living|'m living|currently live)\s+in\s+${NAME}`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\bI(?:'ve| have)?\s+(?:just\s+)?moved\s+to\s+${NAME}`, 'u'), withSince: true },
  { k: 'origin', pattern: new RegExp(String.raw`\bI(?:'m| am| come| came)\s+(?:originally\s+)?from\s+${NAME}`, 'u') },
];

const ZH_FACTS: readonly FactPattern[] = [
  { k: 'name', pattern: /我(?:叫|的名字是|名叫)([\p{Script=Han}·]{2,4}?|[A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)(?=$|[，,。.！!；;\s]|是|在|住|来自|今年|做|从事)/u },
  { k: 'role', pattern: /(?:我|[，,])是(?:一名|一个|一位|名)([^，,。.！!；;？?]{1,16})/u, accept: (value) => (ZH_ROLE_END.test(value) ? value : undefined) },
  { k: 'role', pattern: /我(?:是|在做|从事|当)([^，,。.！!；;？?的]{1,12}?)(?:工作)?(?=$|[，,。.！!；;])/u, accept: (value) => (ZH_ROLE_END.test(value) && !/人$/u.test(value) ? value : undefined) },
  {
    // "我在北京工作" names a city, "我在字节跳动工作" an employer.
    k: (value) => (ZH_CITY.test(value) && !ZH_EMPLOYER_END.test(value) ? 'work_location' : 'employer'),
    pattern: /我(?:现在|目前)?在([^，,。.！!；;？?]{2,20}?)(?:工作|上班|任职)/u,
  },
  { k: 'location', pattern: /我(?:现在|目前)?(?:住在|生活在|定居在?|居住在)([^，,。.！!；;？?]{2,20})/u },
  { k: 'location', pattern: /我(?:最近)?搬到了?([^，,。.！!；;？?]{2,20})/u, withSince: true },
  { k: 'origin', pattern: /我(?:来自|老家是|老家在)([^，,。.！!；;？?]{2,20})/u },
  { k: 'origin', pattern: /我是(\p{Script=Han}{2,6})人(?=$|[，,。.！!；;])/u },
];

/** The profile facts a sentence states. */
export function factsOf(context: Pick<SentenceContext, 'text' | 'language' | 'date'>): Fact[] {
  const facts: Fact[] = [];
  for (const fact of context.language === 'zh' ? ZH_FACTS : EN_FACTS) {
    const found = fact.pattern.exec(context.text);
    if (found === null || found[1] === undefined) continue;
    const captured = cleanPhrase(found[1]);
    const value = fact.accept === undefined ? captured : fact.accept(captured);
    if (value === undefined || value === '') continue;
    const k = typeof fact.k === 'string' ? fact.k : fact.k(value);
    if (k === undefined || facts.some((known) => known.k === k)) continue;
    facts.push(fact.withSince === true ? { k, v: value, since: context.date } : { k, v: value });
  }
  return facts;
}

function profileRule(language: Language, trigger: RegExp): Rule {
  return {
    name: `${language}.profile.fact`,
    languages: [language],
    roles: USER_ONLY,
    type: 'profile',
    confidence: 0.85,
    gate: 'may',
    trigger,
    match: (context, rule): ItemCandidate[] => {
      const facts = factsOf(context);
      if (facts.length === 0) return [];
      return [emit(context, rule, { key: PROFILE_KEY, value: { subject: 'user', facts } })];
    },
  };
}

export const PROFILE_RULES: readonly Rule[] = [
  profileRule('en', /\bmy name|\bcall me|\bi'm called|\bi am called|\bi work|\bi'm an?\b|\bi am an?\b|\bi'm the\b|\bi am the\b|\bi live|\bi reside|\bbased in|\bliving in|moved to|\bfrom\b/),
  profileRule('zh', /我叫|名字|名叫|我是|我在|我从事|我当|我现在|我目前|住在|生活在|定居|居住|搬到|来自|老家/u),
];

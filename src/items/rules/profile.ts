// Profile facts (MemoryTypes v0.1 §3.1): stable things the user states about themself — name, role,
// employer, where they live and come from. All facts go to profile:user; the writer merges facts
// by `k`. Only explicit first-person statements by the user count.

import type { Rule, SentenceContext } from './rule.js';
import { factRule, factsBy, NAME, PHRASE_END, slug, type Fact, type FactPattern } from './fact-patterns.js';
import { topicOf } from './lexicon.js';

export { PROFILE_KEY, type Fact } from './fact-patterns.js';
// Roles end like roles: engineer, designer, scientist, analyst, student, founder, CEO.
const ROLE_END =
  /(?:er|or|ist|ian|ant|ent|ect|ive|ager|ess|ee|ster|ler|smith|wright|man|woman|person|ceo|cto|cfo|coo|pm|vp|lead|head|chef|nurse|founder|student|dev|intern|partner|director|officer|professor|doctor|artist|teacher|owner)$/i;
const NOT_ROLE = /^(?:bit|little|lot|fan|big|huge|total|complete|mess|fast|slow|quick|morning|night|real|good|bad|great|fine|new|old|native|speaker)\b/i;
const ZH_ROLE_END =
  /(?:工程师|程序员|设计师|经理|总监|老师|教师|学生|医生|律师|会计|护士|记者|作家|编辑|顾问|研究员|分析师|创始人|老板|主管|负责人|架构师|科学家|产品|运营|销售|实习生|教授|博士|硕士|本科生|研究生|CEO|CTO|PM|师|员|家)$/u;
const ZH_EMPLOYER_END = /(?:公司|集团|银行|大学|学院|医院|研究所|研究院|实验室|科技|工作室|事务所|部门|中心|局|厅|所)$/u;
const ZH_CITY = /^(?:北京|上海|广州|深圳|杭州|成都|南京|武汉|西安|苏州|天津|重庆|长沙|厦门|青岛|香港|澳门|台北|新加坡|东京|伦敦|纽约|旧金山|硅谷|巴黎|柏林|首尔|悉尼|多伦多|\p{Script=Han}{1,4}(?:市|省|区|县|州))$/u;

// The same name, not captured: the place a move starts from.
const NAME_SKIP = `(?:${NAME.slice(1)}`;
// Relatives with one of a kind (a new name replaces the old) and with several (each has its own fact).
const ONE_RELATIVE = String.raw`wife|husband|partner|boyfriend|girlfriend|fianc[ée]e?|mum|mom|mother|dad|father`;
const RELATIVES = String.raw`${ONE_RELATIVE}|son|daughter|sister|brother|niece|nephew|grandson|granddaughter|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|stepson|stepdaughter|twins|kids?|children|baby`;
const SINGLE_RELATIVE = new RegExp(`^(?:${ONE_RELATIVE})$`, 'iu');
const PETS = String.raw`dog|cat|puppy|kitten|parrot|budgie|hamster|rabbit|bunny|horse|pony|gelding|mare|tortoise|turtle|gecko|snake|goldfish|guinea pig|lab|labrador|retriever|shiba|beagle|corgi|poodle|terrier|collie|husky|dachshund|spaniel|pug|greyhound|kelpie|dalmatian`;
const CONDITIONS = String.raw`type [12] diabetes|diabetes|asthma|migraines?|psoriasis|eczema|celiac disease|coeliac disease|arthritis|high blood pressure|hypertension|epilepsy|adhd|anxiety|depression|hay fever|tinnitus|crohn's disease|ibs|endometriosis|pcos|insomnia`;
const DIETS = String.raw`vegetarian|vegan|pescatarian|gluten[- ]free|keto|halal|kosher|dairy[- ]free|teetotal`;
// What someone likes or dislikes, up to the end of the phrase; a pronoun or a clause is no object.
const TASTE_OBJECT = String.raw`([\p{L}\p{N}][\p{L}\p{N}\s'&-]{1,40}?)${PHRASE_END}`;
const NOT_TASTE = /^(?:it|that|this|these|those|them|him|her|you|yours|your|me|us|the idea|how|when|what|to|being|having|doing|getting|going|when|most|all|some|one|everything|anything|nothing|lots|a lot|a bit|working|living)\b/iu;
/**
 * A taste as a fact, or undefined: not for a pronoun or a long clause, and not for a thing of a
 * known preference topic (a drink, an editor, a tone), which the preference rules keep instead.
 */
const tasteOf = (verdict: 'likes' | 'dislikes') => (value: string) =>
  NOT_TASTE.test(value) || value.split(/\s+/u).length > 5 || topicOf(value.toLowerCase()) !== undefined ? undefined : `${verdict} ${value}`;

/** A relative's key: one per kind of relative that is unique, else one per name. */
function relativeKey(_name: string, found: RegExpExecArray): string {
  const relation = found[1]!.toLowerCase().replace('mom', 'mum').replace(/fianc[ée]e?/u, 'fiance');
  return SINGLE_RELATIVE.test(relation) ? `family:${relation}` : `family:${relation}:${slug(found[2]!)}`;
}

const ZH_ONE_RELATIVE = '老婆|老公|妻子|丈夫|爱人|媳妇|女朋友|男朋友|未婚妻|未婚夫|妈妈|妈|爸爸|爸|母亲|父亲';
const ZH_RELATIVES = `${ZH_ONE_RELATIVE}|儿子|女儿|哥哥|哥|姐姐|姐|妹妹|妹|弟弟|弟|孙子|孙女|外孙女|外孙|嫂子|弟媳|家老大|家老二|小女儿|小儿子|大女儿|大儿子`;
const ZH_SINGLE_RELATIVE = new RegExp(`^(?:${ZH_ONE_RELATIVE})$`, 'u');
const ZH_PETS = '狗|猫|猫咪|狗狗|金毛|柯基|泰迪|哈士奇|柴犬|边牧|英短|美短|布偶|橘猫|小橘猫|兔子|垂耳兔|仓鼠|鹦鹉|乌龟|龙猫';
// What follows a name in a sentence: a verb, a particle or a time word, not more of the name.
const ZH_AFTER_NAME = '的|是|在|说|最|也|都|和|跟|结|下|今|上|刚|又|生|过|要|去|来|那|这|老|特|很|还|就|把|被|给|从|每|总|已|五|六|七|八|九|十|满|考|读';

/** A relative's key in Chinese: one per kind of relative that is unique, else one per name. */
function relativeKeyZh(name: string, found: RegExpExecArray): string {
  const relation = found[1]!;
  return ZH_SINGLE_RELATIVE.test(relation) ? `family:${relation}` : `family:${relation}:${name}`;
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
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)\s+(?:now\s+|currently\s+|still\s+|actually\s+)?(?:live|reside|am based|'m based|are based|'re based|am living|'m living|are living|'re living|currently live)\s+(?:in|on)\s+${NAME}`, 'u'),
  },
  {
    k: 'location',
    pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:(?:'ve| have)?|\b[^.!?;]{0,80}?\band)\s+(?:just\s+|finally\s+|recently\s+|then\s+)?(?:moved|relocated)\s+(?:from\s+${NAME_SKIP}\s+)?(?:over\s+|back\s+)?to\s+${NAME}`, 'u'),
    withSince: true,
  },
  // "I'm in Galway now", "living in London now", "we've been in Stuttgart for two weeks", "here in Pune".
  { k: 'location', pattern: new RegExp(String.raw`\b(?:I'm|I am|[Ww]e're|[Ww]e are)\s+(?:now\s+)?in\s+${NAME}\s+now\b`, 'u'), withSince: true },
  { k: 'location', pattern: new RegExp(String.raw`\b[Ll]iving\s+in\s+${NAME}`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\b(?:I|[Ww]e)(?:'ve| have)\s+been\s+(?:living\s+)?in\s+${NAME}\s+for\b`, 'u') },
  { k: 'location', pattern: new RegExp(String.raw`\bhere\s+in\s+${NAME}`, 'u') },
  { k: 'origin', pattern: new RegExp(String.raw`\bI(?:'m| am| come| came)\s+(?:originally\s+)?from\s+${NAME}`, 'u') },
  // Family with names: "my wife Hannah", "my sister is called Ana", "my dad, Suresh".
  {
    k: relativeKey,
    group: 2,
    pattern: new RegExp(String.raw`\b[Mm]y\s+(${RELATIVES})(?:,)?\s+(?:is\s+called\s+|is\s+named\s+|named\s+|called\s+)?${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // Pets with names: "my dog Bruno", "our older cat Mitzi", "a beagle called Lola".
  {
    k: (value) => `pet:${slug(value.split(' ').at(-1)!)}`,
    group: 2,
    pattern: new RegExp(String.raw`\b(?:[Mm]y|[Oo]ur)\s+(?:own\s+|old\s+|older\s+|younger\s+|new\s+|little\s+|rescue\s+)?(${PETS})\s+(?:is\s+called\s+|called\s+|named\s+)?${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  {
    k: (value) => `pet:${slug(value.split(' ').at(-1)!)}`,
    group: 2,
    pattern: new RegExp(String.raw`\b(?:a|an)\s+(?:[\p{L}-]+\s+){0,3}?(${PETS})(?:\s+[\p{L}-]+){0,2}\s+(?:called|named)\s+${NAME}`, 'u'),
    accept: (value, found) => `${found[1]!.toLowerCase()} ${value}`,
  },
  // Work changes: "I accepted a job at Porsche", "I joined a firm called Taller Norte", "I'm at Meezan Bank now".
  {
    k: 'employer',
    pattern: new RegExp(String.raw`\b(?:I\s+(?:just\s+|finally\s+)?(?:accepted\s+(?:a|the)\s+(?:job|position|role|offer)\s+(?:at|with)|got\s+(?:a|the)\s+job\s+(?:at|with)|joined|started\s+(?:a\s+new\s+job\s+)?at)|(?:I'm|I am)\s+(?:now\s+)?working\s+(?:for|at)|(?:I'm|I am)\s+at)\s+(?:a\s+(?:firm|company|startup)\s+called\s+)?${NAME}`, 'u'),
    accept: (value) => (/^(?:The|A|An|My|Our|Home|Work|Least|Most|First|Last|Least)$/u.test(value) ? undefined : value),
    withSince: true,
  },
  // Tastes: one fact per thing, so "not a fan of X any more, I love it now" replaces the old verdict.
  {
    k: (value) => `taste:${slug(value)}`,
    pattern: new RegExp(String.raw`\b(?:I\s+(?:really\s+|absolutely\s+|just\s+|totally\s+)?(?:love|adore|enjoy|like)|I(?:'m| am|'ve been| have been)\s+(?:really\s+|super\s+|so\s+|totally\s+|kind of\s+|obsessed with|a\s+(?:big\s+|huge\s+)?fan\s+of|hooked\s+on|crazy\s+about|into|more\s+into)(?:\s+(?:into|obsessed with))?)\s+${TASTE_OBJECT}`, 'iu'),
    accept: (value) => tasteOf('likes')(value.replace(/^(?:into|obsessed with)\s+/iu, '')),
  },
  {
    k: (value) => `taste:${slug(value)}`,
    pattern: new RegExp(String.raw`\b(?:I\s+(?:really\s+)?(?:hate|dislike|detest|can't stand|cannot stand|don't (?:really\s+)?like|do not like)|not\s+(?:a\s+(?:big\s+)?fan\s+of|into)|I'm\s+not\s+into)\s+${TASTE_OBJECT}`, 'iu'),
    accept: tasteOf('dislikes'),
  },
  // Health: allergies, intolerances, conditions.
  {
    k: (value) => `allergy:${slug(value)}`,
    pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:also\s+|severely\s+|very\s+|really\s+|deathly\s+)?allergic\s+to\s+([\p{L}\s'-]{2,30}?)${PHRASE_END}`, 'u'),
    accept: (value) => `allergic to ${value}`,
  },
  {
    k: (value) => `intolerance:${slug(value)}`,
    pattern: /\bI(?:'m| am)\s+(?:also\s+|pretty sure I'm\s+)?([\p{L}-]{3,20})\s+intolerant\b/u,
    accept: (value) => `${value} intolerant`,
  },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: new RegExp(String.raw`\bI\s+(?:have|get|suffer from|was diagnosed with|got diagnosed with|live with)\s+(?:mild\s+|severe\s+|chronic\s+|bad\s+)?(${CONDITIONS})\b`, 'iu'),
  },
  // Diet: "I'm vegetarian", "I've gone vegan", "I don't drink alcohol", "stopped eating red meat".
  { k: 'diet', pattern: new RegExp(String.raw`\bI(?:'m| am)\s+(?:now\s+|also\s+|still\s+|strictly\s+|a\s+)?(${DIETS})\b`, 'iu'), withSince: true },
  { k: 'diet', pattern: new RegExp(String.raw`\bI(?:'ve| have)\s+(?:gone|become|turned|been)\s+(${DIETS})\b`, 'iu'), withSince: true },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(String.raw`\bI\s+(?:don't|do not|never|can't|cannot)\s+(?:eat|drink|take)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`, 'u'),
    accept: (value) => (/^(?:much|any|anything|that|it|them|this|a lot)\b/u.test(value) ? undefined : `no ${value}`),
  },
  {
    k: (value) => `avoids:${slug(value.replace(/^no /u, ''))}`,
    pattern: new RegExp(String.raw`\b(?:stopped|quit|gave up|given up)\s+(?:eating|drinking)\s+([\p{L}\s-]{2,25}?)${PHRASE_END}`, 'u'),
    accept: (value) => `no ${value}`,
    withSince: true,
  },
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
  { k: 'location', pattern: /(?:我|我们)(?:已经|最近|上周|上个月|刚)?(?:搬去|搬到|搬来)了?([^，,。.！!；;？?\s]{2,12}?)(?=$|[，,。.！!；;？?\s]|了|啦|住|工作|上班|生活)/u, withSince: true },
  { k: 'location', pattern: /(?:现在)?人在([^，,。.！!；;？?\s]{2,8}?)(?=$|[，,。.！!；;？?\s]|了|，)/u, withSince: true },
  { k: 'origin', pattern: /我(?:来自|老家是|老家在)([^，,。.！!；;？?]{2,20})/u },
  // Health, diet and the people and animals in the user's life.
  { k: (value) => `allergy:${slug(value)}`, pattern: /我?对([^，,。.！!；;？?]{1,10}?)过敏/u, accept: (value) => `对${value}过敏` },
  { k: (value) => `health:${slug(value)}`, pattern: /(乳糖不耐受)/u },
  {
    k: (value) => `health:${slug(value)}`,
    pattern: /我(?:去年|今年|前年|最近|之前|一直|从小)?(?:有|得了|患有|查出来?了?|确诊了?)?(?:[一二两三四五六七八九\d]型)?(糖尿病|高血压|哮喘|焦虑症|抑郁症|贫血|偏头痛|胃炎|鼻炎|湿疹|痛风|失眠症?|甲亢|甲减)/u,
  },
  { k: 'diet', pattern: /我(?:自己|现在|已经)?(?:开始)?(吃素|吃纯素|吃全素|是素食主义者|素食)/u, withSince: true },
  {
    k: (value) => `avoids:${slug(value)}`,
    pattern: /我(?:从来|平时|现在|已经)?(?:不|不再|戒了)(喝|吃)([^，,。.！!；;？?\s了的]{1,6})/u,
    group: 2,
    accept: (value, found) => `不${found[1]}${value}`,
  },
  {
    k: relativeKeyZh,
    group: 2,
    pattern: new RegExp(`我(?:的|和|跟)?(${ZH_RELATIVES})(?:叫|名叫|是)?([\\p{Script=Han}]{2,3}?|[A-Z][a-z]+)(?=$|[，,。.！!；;？?\\s]|${ZH_AFTER_NAME})`, 'u'),
    accept: (value, found) => `${found[1]}${value}`,
  },
  {
    k: (value) => `pet:${slug(value)}`,
    group: 2,
    pattern: new RegExp(`(?:我家|我们家|家里)(?:那只|的|又多了一只|新来的)?[^，,。.！!；;？?]{0,6}?(${ZH_PETS})(?:，|,)?(?:叫|名叫|起名叫)?([\\p{Script=Han}]{2}|[A-Z][a-z]+)(?=$|[，,。.！!；;？?\\s]|${ZH_AFTER_NAME}|[一二三四五六七八九十\\d])`, 'u'),
    accept: (value, found) => `${found[1]}${value}`,
  },
  { k: 'origin', pattern: /我是(\p{Script=Han}{2,6})人(?=$|[，,。.！!；;])/u },
];

/** The profile facts a sentence states. */
export function factsOf(context: Pick<SentenceContext, 'text' | 'language' | 'date'>): Fact[] {
  return factsBy(context.language === 'zh' ? ZH_FACTS : EN_FACTS, context);
}

export const PROFILE_RULES: readonly Rule[] = [
  factRule(
    'en.profile.fact',
    'en',
    /\bmy name|\bcall me|\bi'm called|\bi am called|\bi work|\bi'm an?\b|\bi am an?\b|\bi'm the\b|\bi am the\b|\b(?:i|we)(?: now| currently| still| actually)? live|\bi reside|\bbased in|\bliving in|moved|relocated|\bfrom\b|\bi'm in\b|\bi am in\b|\bwe're in\b|\bwe are in\b|been (?:living )?in\b|here in\b|\bmy |\bour |called|named|allergic|intolerant|\bi (?:have|get|suffer|was diagnosed|got diagnosed|live with)\b|vegetarian|vegan|pescatarian|gluten|keto|halal|kosher|dairy|teetotal|\bi (?:don't|do not|never|can't|cannot) (?:eat|drink|take)\b|stopped|quit|gave up|given up|accepted|joined|started|working (?:for|at)|\bi'm at\b|\bi am at\b|love|adore|enjoy|like|fan of|hooked|crazy about|into\b|hate|dislike|detest|can't stand|cannot stand/,
    factsOf,
  ),
  factRule('zh.profile.fact', 'zh', /我叫|名字|名叫|我是|我在|我从事|我当|我现在|我目前|住在|生活在|定居|居住|搬|人在|来自|老家|过敏|不耐受|糖尿病|高血压|哮喘|焦虑|抑郁|贫血|头痛|胃炎|鼻炎|湿疹|痛风|失眠|甲亢|甲减|吃素|纯素|全素|素食|不喝|不吃|不再|戒了|我[的和跟]?(?:老婆|老公|妻子|丈夫|爱人|媳妇|女朋友|男朋友|未婚|妈|爸|母亲|父亲|儿子|女儿|哥|姐|妹|弟|孙|外孙|嫂子|弟媳|家老|小女儿|小儿子|大女儿|大儿子)|我家|我们家|家里/u, factsOf),
];

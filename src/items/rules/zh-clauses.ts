// How the Chinese rules read a sentence: clause by clause, each with whom it is about. Chinese drops
// the subject whenever it is clear, so a clause without one is about the subject of the clause
// before it, and the first clause of a sentence about the speaker. A clause about someone else (我朋友,
// 她, 医生), a question (吗, 什么) or a wish (想, 打算) states no fact of the speaker's life.

/** One clause of a sentence and where it starts in it. */
export interface ZhClause {
  text: string;
  start: number;
  /** Who the clause is about: the speaker, or someone they name. */
  about: 'self' | 'other';
  /** A question or a hypothetical: nothing the speaker states as true. */
  unstated: boolean;
  /** Where a wish, plan or piece of advice starts (想, 打算, 建议): what follows is not so yet. */
  wish: number;
}

// Clauses end at punctuation; "、" lists things inside one clause.
const CLAUSE_BREAK = /[，,；;：:！!？?。…~～\n]+|\s{2,}/gu;

// Words that open a clause without being its subject: fillers, connectives and times.
const OPENERS = String.raw`(?:哈+|嗯+|啊+|哦+|诶|唉|嘿+|呃|对了|另外|还有|而且|其实|不过|但是?|可是|所以|于是|然后|结果|最后|终于|从今天起|从今天开始|从现在起|从现在开始|从明天起|今后|以后|从此|跟你说(?:个事)?|说实话|说真的|顺便说一下|对|好|那|就|也|又|还|都|才|刚刚?|已经|早就|一直|从小|平时|现在|目前|最近|如今|今年|去年|前年|明年|这学期|上学期|下学期|暑假|寒假|周末|上周|这周|下周|上个?月|这个?月|下个?月|今天|昨天|前几天|这几天|前段时间|之前|以前|后来)`;
const LEADING_OPENERS = new RegExp(`^(?:${OPENERS}\\s*)+`, 'u');

/** Relatives, pets and other people a clause may be about instead of the speaker. */
export const ZH_PEOPLE =
  '老婆|老公|妻子|丈夫|爱人|媳妇|对象|女朋友|男朋友|未婚妻|未婚夫|妈妈|妈|爸爸|爸|母亲|父亲|儿子|女儿|哥哥|哥|姐姐|姐|妹妹|妹|弟弟|弟|爷爷|奶奶|外公|外婆|姥姥|姥爷|孙子|孙女|嫂子|弟媳|姐夫|妹夫|公公|婆婆|岳父|岳母|孩子|宝宝|闺女|家人|亲戚|朋友|闺蜜|兄弟|同事|室友|邻居|同学|老板|领导|上司|老师|医生|大夫|护士|客户|男友|女友|公司|新公司|单位|学校|团队|部门|这边|那边|这里|那里|天气';
/** Pets by kind and breed. */
export const ZH_PETS =
  '狗|猫|猫咪|狗狗|金毛|柯基|泰迪|哈士奇|柴犬|边牧|拉布拉多|萨摩耶|比熊|博美|英短|美短|布偶|橘猫|狸花猫?|暹罗|兔子|垂耳兔|仓鼠|鹦鹉|乌龟|龙猫|金鱼';
const OTHER_SUBJECT = new RegExp(
  `^(?:你|您|他|她|它|他们|她们|它们|人家|别人|大家|有人|(?:我|我们|我家|我们家)?(?:的)?(?:${ZH_PEOPLE}|${ZH_PETS})(?!的)|(?:我|我们)家(?:那只|的|这只)?[^，,]{0,4}(?:${ZH_PETS})|[\\p{Script=Han}]{1,4}(?:说|觉得|认为|建议|让我|叫我|劝我|要我))`,
  'u',
);
// The user's home is the user's: "房子就租在高新区" says where they live.
const SELF_SUBJECT = /^(?:我|我们|咱们|咱|本人|房子|新家)/u;
// A company, a place or a doctor is the subject of its own clause only: the subject-less clause after
// "公司在多伦多开新工作室" or "医生让我暂停跑步" is the speaker's again ("…所以现在改成每天游泳了").
const PASSING_SUBJECT = new RegExp(
  `^(?:我的?|我们的?)?(?:公司|新公司|单位|学校|团队|部门|这边|那边|这里|那里|天气|医生|大夫|护士)(?!的)`,
  'u',
);

const QUESTION =
  /[吗么嘛呢]$|什么|怎么|哪里|哪儿|哪个|哪家|哪些|哪一|哪|谁|啥|咋|如何|为什么|为啥|是不是|要不要|能不能|可不可以|有没有|行不行|好不好|该不该|会不会|多久|几点/u;
// What is wanted, planned or advised is not (yet) so.
const WISH = /想|打算|计划|准备|希望|考虑|梦想|争取|盼着|要不|应该|建议|让我|叫我|劝我|试试|试着|可以/u;
// A condition makes the whole sentence hypothetical: "如果我以后养狗，就叫它旺财".
// 要是 of 主要是 or 只要是 is no condition.
const CONDITION = /如果|(?<![主只需重不想])要是|假如|假设|万一|倘若|的话|等我|一旦/u;

/** The sentence's clauses with whom each is about; a hypothetical sentence has none that state anything. */
export function clausesOf(text: string): ZhClause[] {
  const out: ZhClause[] = [];
  const hypothetical = CONDITION.test(text);
  let about: 'self' | 'other' = 'self';
  let at = 0;
  CLAUSE_BREAK.lastIndex = 0;
  for (let found = CLAUSE_BREAK.exec(text); ; found = CLAUSE_BREAK.exec(text)) {
    const end = found === null ? text.length : found.index;
    const raw = text.slice(at, end);
    const trimmed = raw.trim();
    if (trimmed !== '') {
      const start = at + raw.indexOf(trimmed);
      const body = trimmed.replace(LEADING_OPENERS, '');
      const passing = PASSING_SUBJECT.test(body);
      if (OTHER_SUBJECT.test(body) && !passing) about = 'other';
      else if (SELF_SUBJECT.test(body)) about = 'self';
      const question = found !== null && /[？?]/u.test(found[0]) ? true : QUESTION.test(trimmed);
      const wish = WISH.exec(trimmed)?.index ?? trimmed.length;
      out.push({ text: trimmed, start, about: passing ? 'other' : about, unstated: hypothetical || question, wish });
    }
    if (found === null) break;
    at = found.index + found[0].length;
  }
  return out;
}

/** A clause's text from its first subject-free word: "最近我在…" → "我在…". */
export function withoutOpeners(clause: string): string {
  return clause.replace(LEADING_OPENERS, '');
}

// Cities and regions a bare place name is known by; names ending in 市, 省, 区, 县 or 州 count too.
const PROVINCES =
  '湖南|湖北|广东|广西|四川|山东|山西|河南|河北|江苏|浙江|福建|江西|安徽|云南|贵州|陕西|甘肃|辽宁|吉林|黑龙江|海南|青海|内蒙古|宁夏|新疆|西藏|台湾|东北';
const CITIES =
  '北京|上海|广州|深圳|杭州|成都|南京|武汉|西安|苏州|天津|重庆|长沙|厦门|青岛|大连|沈阳|哈尔滨|长春|济南|郑州|合肥|福州|南昌|昆明|贵阳|南宁|海口|三亚|兰州|西宁|银川|乌鲁木齐|拉萨|呼和浩特|太原|石家庄|宁波|温州|无锡|常州|东莞|佛山|珠海|中山|惠州|湖州|嘉兴|绍兴|金华|台州|扬州|徐州|南通|烟台|潍坊|洛阳|宜昌|襄阳|桂林|丽江|大理|香港|澳门|台北|高雄|新加坡|吉隆坡|曼谷|东京|大阪|京都|首尔|釜山|伦敦|巴黎|柏林|慕尼黑|阿姆斯特丹|马德里|巴塞罗那|罗马|米兰|苏黎世|维也纳|斯德哥尔摩|都柏林|纽约|旧金山|洛杉矶|西雅图|波士顿|芝加哥|硅谷|湾区|温哥华|多伦多|蒙特利尔|悉尼|墨尔本|布里斯班|奥克兰|迪拜';
const CITY = new RegExp(`^(?:${CITIES}|${PROVINCES}|\\p{Script=Han}{1,5}(?:市|省|区|县|州|镇))$`, 'u');
/** Known city names as an alternation, for patterns that need a city where a company could be. */
export const ZH_CITIES = CITIES;

/** True when a place phrase is a city or region rather than, say, a company. */
export function isPlace(phrase: string): boolean {
  return CITY.test(phrase);
}

// Where the user lives, works and studies, in Chinese: 住在/搬到/来X三年了/人在X/X这边 for places,
// 在X工作/在X做Y/入职/跳槽到/我是…老师/当Y/职位是 for work, 在X读Y/学的是/毕业于/被X录取/考Y/报了Y课
// for study. Clause patterns: zh-profile.ts runs them only on clauses the user states about themself.

import { isPlace, ZH_CITIES } from './zh-clauses.js';
import { keyPart, ZH_DURATION, zhPhrase, type ZhFact } from './zh-fact.js';

// A place: a short name up to a verb, a particle, a time or a number.
const PLACE = String.raw`([\p{Script=Han}A-Za-z][\p{Script=Han}A-Za-z .'-]{0,14}?)`;
const PLACE_END = String.raw`(?=$|了|啦|呀|啊|住|工作|上班|生活|读书|上学|定居|发展|落地|安顿|这边|那边|这里|那里|的|已经|快|都|也|还|就|才|[一二两三四五六七八九十几半]|\d|个|来|去|和|跟|，|,|\s)`;
// Not places: relative spots (离公司近的地方), home and the workplace itself.
const NOT_PLACE =
  /^(?:离|这|那|哪|一个|附近|隔壁|家|公司|学校|宿舍|楼|单位|外地|本地|老家|市区|郊区|医院|床|屋|房间|客厅)|很|比较|附近|地方$/u;
const place = (value: string): string | undefined => {
  const cleaned = zhPhrase(value);
  return cleaned.length < 2 && !/[A-Za-z]/u.test(cleaned) ? undefined : NOT_PLACE.test(cleaned) ? undefined : cleaned;
};

// Roles end like roles; fields of work name a role after 做/干 ("做审计", "干产品").
const ROLE_END =
  /(?:工程师|程序员|设计师|经理|总监|老师|教师|教授|讲师|学生|医生|律师|会计师?|护士|记者|作家|编辑|顾问|研究员|分析师|创始人|老板|主管|主任|负责人|架构师|科学家|实习生|博士|硕士|本科生|研究生|助教|助理|秘书|店长|厨师|司机|警察|公务员|翻译|客服|专员|总裁|合伙人|CEO|CTO|PM|师|员|长|手)$/u;
const JOB_FIELD =
  /(?:产品|运营|销售|市场|设计|开发|研发|测试|后端|前端|全栈|算法|数据|审计|财务|会计|法务|人事|行政|咨询|翻译|编辑|文案|策划|客服|采购|投资|教育|医疗|外贸|电商|新媒体|UI|UX|运维|物流|供应链)/u;
const role = (value: string): string | undefined => {
  const cleaned = zhPhrase(value);
  return cleaned.length >= 2 && cleaned.length <= 16 && (ROLE_END.test(cleaned) || JOB_FIELD.test(cleaned))
    ? cleaned
    : undefined;
};

// An organisation: "一家…公司" whole, else a name up to the verb that follows it.
const ORG_END = String.raw`(?:公司|集团|银行|工作室|事务所|研究所|研究院|实验室|医院|学校|中学|小学|大学|学院|报社|杂志社|出版社|律所|机构|中心|工厂|厂|店|门店|酒店|餐厅|部门?|科)`;
// 在 of 现在, 正在, 实在 is no preposition.
const AT = String.raw`(?<![现正实存所好自])在`;
const ORG = String.raw`((?:${ZH_CITIES})?(?:一家|一所|家)[^，,。！!；;？?]{0,14}?${ORG_END}|[^，,。！!；;？?\s]{2,20}?)`;
const NOT_ORG =
  /^(?:家|家里|公司|单位|这|那|哪|外面|外地|本地|附近|楼下|办公室|里面|网上|线上|远程)$|^(?:这|那|哪|在)|租房|租了/u;
const employer = (value: string): string | undefined => {
  const cleaned = zhPhrase(value.replace(new RegExp(`^(?:${ZH_CITIES})(?=一家|一所|家)`, 'u'), ''));
  return cleaned.length < 2 || NOT_ORG.test(cleaned) || isPlace(cleaned) ? undefined : cleaned;
};
/** The city an organisation phrase starts with: "深圳一家做无人机的公司" → 深圳. */
const cityOf = (value: string): string | undefined =>
  new RegExp(`^(${ZH_CITIES})(?=一家|一所|家|的)`, 'u').exec(value)?.[1] ?? (isPlace(value) ? value : undefined);

// Where a phrase of study starts: 读 of 上海 or 阅读 is no study.
const STUDYING = String.raw`(?:^|我|在|正在|还在|一边|目前|现在|都|也)(?:读|念|上|就读于?)`;
const SCHOOL_END = String.raw`(?:大学|学院|学校|中学|高中|初中|小学|研究生院|党校|University|College|School)`;
const SCHOOL = String.raw`([\p{Script=Han}A-Za-z ]{2,16}?${SCHOOL_END})`;
const DEGREE = String.raw`(?:本科|专科|大专|硕士|博士|研究生|研|博|MBA|EMBA|MPA|大[一二三四]|研[一二三]|高[一二三]|初[一二三])`;

/** A study fact, one per school (`education:<school>`, as in English): the school and what is studied there (group `what`). */
const atSchool = (what?: number): Pick<ZhFact, 'k' | 'accept'> => ({
  k: (school) => `education:${keyPart(zhPhrase(school))}`,
  accept: (school, found) => {
    const part = what === undefined ? undefined : found[what];
    const study = part === undefined ? '' : zhPhrase(part);
    return study === '' ? zhPhrase(school) : `${zhPhrase(school)} ${study}`;
  },
});
const studied = (value: string): string => `education:${keyPart(zhPhrase(value).replace(/^考|课程$/gu, ''))}`;

// A choice between offers: "最后选了蔚蓝银行！下周一入职" (the start is told after the choice).
const CHOSE = new RegExp(
  `^(?:最后|最终|还是|我)*(?:选了|选择了|决定去|定了)((?:${ZH_CITIES})?[^，,。！!；;？?\\s]{1,14}?${ORG_END})(?:的offer)?(?=$|[，,。！!~～])`,
  'iu',
);
const STARTS = /入职|报到|上班|offer/iu;

/**
 * The employer a sentence chooses, when the message goes on to say the user starts there.
 *
 * @example
 * chosenEmployer('最后选了蔚蓝银行！', '下周一入职') // '蔚蓝银行'
 * chosenEmployer('最后选了蔚蓝银行！', '') // undefined
 */
export function chosenEmployer(sentence: string, after: string): string | undefined {
  const found = CHOSE.exec(sentence.trim());
  if (found === null || !STARTS.test(sentence.slice(found[0].length) + after)) return undefined;
  return employer(found[1]!);
}

export const LIFE_FACTS: readonly ZhFact[] = [
  {
    k: 'name',
    pattern:
      /我(?:叫|的名字是|名叫)([\p{Script=Han}·]{2,4}?|[A-Z][A-Za-z]+(?:\s[A-Z][A-Za-z]+)?)(?=$|[，,。.！!；;\s]|是|在|住|来自|今年|做|从事)/u,
  },
  { k: 'origin', pattern: /我(?:来自|老家是|老家在)([^，,。.！!；;？?]{2,20})/u, accept: zhPhrase },
  {
    k: 'origin',
    pattern: /^(?:我是)?([\p{Script=Han}]{2,6}?)人(?:[，,]|$)/u,
    accept: (value) => (isPlace(value) ? value : undefined),
  },
  // Places.
  {
    k: 'location',
    pattern: new RegExp(`(?:住在|家住|租在|生活在|定居在?|居住在|安家在|落户在?)${PLACE}${PLACE_END}`, 'u'),
    accept: place,
  },
  {
    k: 'location',
    pattern: new RegExp(`搬(?:家)?(?:到|去|来|进|回)了?${PLACE}${PLACE_END}`, 'u'),
    accept: place,
    withSince: true,
  },
  {
    k: 'location',
    pattern: new RegExp(
      `^(?:我们?)?(?:刚|已经)?(?:来|到)${PLACE}(?:已经|都|快|有)?[一二两三四五六七八九十几半\\d]+(?:多)?(?:年|个月|个多月)`,
      'u',
    ),
    accept: place,
  },
  { k: 'location', pattern: new RegExp(`(?<![一个])人在${PLACE}${PLACE_END}`, 'u'), accept: place, withSince: true },
  { k: 'location', pattern: new RegExp(`在${PLACE}(?:落地|安顿|扎根|安家)`, 'u'), accept: place, withSince: true },
  { k: 'location', pattern: new RegExp(`^(${ZH_CITIES})(?:这边|这儿|这里)`, 'u') },
  {
    k: 'location',
    pattern: new RegExp(
      `(?:^|我们?|还|也|一直|家(?:和店|和公司)?(?:都|也)?)在(${ZH_CITIES})(?=租房|租了|上班|工作|生活|读书|上学|打工|开了|一家|$)`,
      'u',
    ),
  },
  // With someone: "我跟我老公在杭州开了家奶茶店", "我和室友在上海合租".
  {
    k: 'location',
    pattern: new RegExp(
      `^我(?:跟|和|同)[^，,。！!；;？?]{1,8}?(?:一起)?在(${ZH_CITIES})(?=租房|租了|合租|上班|工作|生活|开了|定居|安家)`,
      'u',
    ),
  },
  { k: 'location', pattern: new RegExp(`(?:店和)?家(?:都|也)?在${PLACE}${PLACE_END}`, 'u'), accept: place },
  // Work: "在云帆科技做产品经理", "在事务所做审计快两年了", "在一家做服装的外贸公司做运营".
  {
    k: 'location',
    pattern: new RegExp(`${AT}${ORG}(?:工作(?!室|日|量|服|证)|上班|任职|实习|打工|做|当|干|写|搞)`, 'u'),
    accept: cityOf,
  },
  {
    k: 'employer',
    pattern: new RegExp(`${AT}${ORG}(?:工作(?!室|日|量|服|证)|上班|任职|实习|打工)`, 'u'),
    accept: employer,
  },
  {
    k: 'employer',
    pattern: new RegExp(`${AT}${ORG}(?:做|当|干|写|搞)(?!饭|菜|作业|家务|兼职)`, 'u'),
    accept: employer,
  },
  {
    k: 'role',
    pattern: new RegExp(`${AT}${ORG}(?:做|当|干|写|搞)([^，,。！!；;？?]{2,12}?)${ZH_DURATION}`, 'u'),
    group: 2,
    accept: role,
  },
  // "跳槽到本地一家游戏公司了，叫Northpine Studios": the name said after the kind of company, before the kind itself.
  {
    k: 'employer',
    pattern: new RegExp(
      `(?:入职|加入|跳槽到|跳槽去|跳到|进了|进入)了?[^，,。！!；;？?]{0,12}?${ORG_END}了?[，,](?:叫|名叫|名字叫)([A-Za-z][\\w .&'-]{1,40}|\\p{Script=Han}{2,10})`,
      'u',
    ),
    withSince: true,
    spans: true,
  },
  {
    k: 'employer',
    pattern:
      /(?:入职|加入|跳槽到|跳槽去|跳到|进了|进入|去)了?([^，,。！!；;？?\s]{2,16}?)(?=了?[，,](?:是)?一家|(?:上班|工作|入职)|了?[，,](?:叫|名叫|名字叫))/u,
    accept: employer,
    spans: true,
    withSince: true,
  },
  {
    k: 'employer',
    pattern: new RegExp(
      `(?:入职|加入|跳槽到|跳槽去|跳到|进了|进入)了?((?:一家|一所)?[^，,。！!；;？?]{0,12}?${ORG_END})(?!了?[，,](?:叫|名叫))`,
      'u',
    ),
    accept: employer,
    withSince: true,
  },
  {
    k: 'role',
    pattern: new RegExp(
      `(?:入职|加入|进了|进入)了?(?:一家|一所)?[^，,。！!；;？?]{0,12}?${ORG_END}(?:做|当|干|写)([^，,。！!；;？?]{2,12}?)${ZH_DURATION}`,
      'u',
    ),
    accept: role,
  },
  // Roles: "我是西安一所高中的数学老师", "当高一的年级主任了", "我的职位是…", "给一家公司做UI设计", "我是做产品的".
  {
    k: 'role',
    pattern:
      /^(?:我|我现在|我目前)?是(?:一名|一个|一位|名|个)?(?:[^，,。！!；;？?]{0,16}的)?([^，,。！!；;？?的]{2,12})$/u,
    accept: (value) => (ROLE_END.test(zhPhrase(value)) ? zhPhrase(value) : undefined),
  },
  { k: 'role', pattern: /(?:^|我)(?:是|在)?(?:做|干|搞)([^，,。！!；;？?的]{2,6})的(?:$|[，,])/u, accept: role },
  {
    k: 'role',
    pattern:
      /(?:当|当上了?|升为|升到|提拔为|担任)(?:了)?(?:[^，,。！!；;？?]{0,8}的)?([^，,。！!；;？?的]{2,10}?)(?:了|啦)?$/u,
    accept: (value) => (ROLE_END.test(zhPhrase(value)) ? zhPhrase(value) : undefined),
    withSince: true,
  },
  {
    k: 'role',
    pattern: /(?:职位|岗位|职务|头衔|工作)(?:是|为)([^，,。！!；;？?]{2,20})/u,
    accept: (value) => zhPhrase(value),
  },
  {
    k: 'role',
    pattern: new RegExp(`给[^，,。！!；;？?]{1,12}?(?:做|当|干)([^，,。！!；;？?]{2,10}?)${ZH_DURATION}`, 'u'),
    accept: role,
  },
  {
    k: 'employer',
    pattern: /(?:从|把)([^，,。！!；;？?\s]{2,12}?)(?:辞职|离职|的工作辞)/u,
    ends: true,
    accept: employer,
  },
  { k: 'employer', pattern: /(?:^|我)(?:已经)?(?:辞职|离职|裸辞)了/u, group: 0, ends: true },
  // Study: "在武汉大学读大二", "读国家开放大学的本科", "学的土木工程", "被上海财经大学的在职MBA录取了".
  {
    pattern: new RegExp(`${AT}${SCHOOL}(?:读|念|上|学)(?:的是)?(?:([^，,。！!；;？?]{2,12}?)${ZH_DURATION})?`, 'u'),
    ...atSchool(2),
  },
  { pattern: new RegExp(`${STUDYING}(?:的是)?${SCHOOL}(?:的)?(${DEGREE})?`, 'u'), ...atSchool(2) },
  {
    pattern: new RegExp(`(?:毕业于|考上了?|考进了?|被)${SCHOOL}(?:的([^，,。！!；;？?]{0,10}?))?(?:录取|录了)`, 'u'),
    ...atSchool(2),
    withSince: true,
  },
  { pattern: new RegExp(`(?:毕业于|考上了?|考进了?)${SCHOOL}`, 'u'), ...atSchool(), withSince: true },
  { pattern: new RegExp(`报(?:了|的是)${SCHOOL}(?:的([^，,。！!；;？?]{2,10}))?`, 'u'), ...atSchool(2) },
  // An announcement of a place: "南昌大学护理学硕士".
  {
    pattern: new RegExp(`^(?![我在])${SCHOOL}([\\p{Script=Han}]{1,8}(?:硕士|博士|本科|研究生|专业))$`, 'u'),
    ...atSchool(2),
    withSince: true,
  },
  // A school joined by its faculty: "下学期开始就是计算机学院的人了", "现在是法学院的学生了".
  {
    k: studied,
    pattern:
      /(?:就是|成了|成为|变成|转到了?|转进了?)([\p{Script=Han}A-Za-z]{2,8}?)(?:学院|系|专业)(?:的(?:人|学生|一员))?了/u,
  },
  // A subject, an exam or a course with no school named: one fact each.
  {
    k: studied,
    pattern:
      /(?:(?<![小中大科数化文])学的是?|读的是|专业是|主修|修的是)([^，,。！!；;？?]{2,12}?)(?:专业)?(?=$|[，,])/u,
    accept: (value) => (/^(?:什么|啥|这|那)/u.test(value) ? undefined : zhPhrase(value)),
  },
  { k: studied, pattern: /(?:^|[的，,])([\p{Script=Han}]{2,8})专业(?=$|[，,的])/u },
  {
    k: studied,
    pattern:
      /(?:在|正在|还在|准备)?(?:考|备考)(?!试|虑|完|过|得|了|上|进|到)([A-Za-z][A-Za-z0-9+.-]{1,12}|[\p{Script=Han}]{2,6}?证)(?=$|[，,。]|了)/u,
    accept: (value) => `考${value}`,
  },
  {
    k: studied,
    pattern: /报了(?:个|一个|一门)?([^，,。！!；;？?]{2,12}?)的?(?:网课|课程|课|班|培训)/u,
    accept: (value) => `${zhPhrase(value)}课程`,
  },
];

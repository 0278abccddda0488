// The user's family and pets by name, in Chinese: 我女儿朵朵, 老公陈刚, 嫂子叫林芳, 我妈…她叫王秀兰,
// 我家金毛旺财, 一只垂耳兔，叫年糕. Keys are the English rules' (family:wife, family:son:<name>,
// pet:<name>); a relative the user has one of (wife, mum) keeps one fact whatever the name.

import { ZH_PETS } from './zh-clauses.js';
import { keyPart, type ZhFact } from './zh-fact.js';

// Chinese words for relatives and the English key each one is kept under.
const RELATION_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['老婆|妻子|媳妇|太太', 'wife'],
  ['老公|丈夫|先生', 'husband'],
  ['爱人|对象', 'partner'],
  ['女朋友|女友', 'girlfriend'],
  ['男朋友|男友', 'boyfriend'],
  ['未婚妻|未婚夫', 'fiance'],
  ['妈妈|妈|母亲|老妈', 'mum'],
  ['爸爸|爸|父亲|老爸', 'dad'],
  ['小儿子|大儿子|儿子', 'son'],
  ['小女儿|大女儿|女儿|闺女', 'daughter'],
  ['哥哥|哥|弟弟|弟', 'brother'],
  ['姐姐|姐|妹妹|妹', 'sister'],
  ['外孙女|孙女', 'granddaughter'],
  ['外孙|孙子', 'grandson'],
  ['嫂子|弟媳|弟妹', 'sister_in_law'],
  ['姐夫|妹夫', 'brother_in_law'],
  ['家老大|家老二|家老三|老大|老二|老三', 'kid'],
  // Kin beyond the household, as chat names them: cousins, grandparents, in-laws, aunts, uncles, close friends.
  ['表哥|表弟|堂哥|堂弟|表姐|表妹|堂姐|堂妹', 'cousin'],
  ['爷爷|外公|姥爷', 'grandpa'],
  ['奶奶|外婆|姥姥', 'grandma'],
  ['公公|岳父|老丈人', 'father_in_law'],
  ['婆婆|岳母|丈母娘', 'mother_in_law'],
  ['叔叔|舅舅|伯伯|姑父|姨父', 'uncle'],
  ['阿姨|姑姑|姨妈|舅妈|婶婶', 'aunt'],
  ['侄子|外甥', 'nephew'],
  ['侄女|外甥女', 'niece'],
  ['闺蜜|好朋友|发小|室友|好兄弟', 'friend'],
];
const ONE_OF_A_KIND: ReadonlySet<string> = new Set([
  'wife',
  'husband',
  'partner',
  'girlfriend',
  'boyfriend',
  'fiance',
  'mum',
  'dad',
  'father_in_law',
  'mother_in_law',
]);
const RELATION_OF = new Map(
  RELATION_KEYS.flatMap(([words, key]) => words.split('|').map((word) => [word, key] as const)),
);
// Longest first, so 妈妈 is read before 妈 and 小女儿 before 女儿.
const RELATIVES = [...RELATION_OF.keys()].sort((a, b) => b.length - a.length).join('|');

// Common family names: a two- or three-character name starts with one; nicknames are 小X, 阿X or a
// doubled character (朵朵); names in Latin letters are capitalised.
const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任卢姚沈钟姜崔谭陆范汪廖石金韦贾夏付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱戴严莫孔向常汤康易乔赖文施洪温牛樊葛邢安齐伍庞颜倪';
// Two-character words that start like a name but are not one (高兴, 下个, 非要 …).
const NOT_NAME =
  /^(?:高兴|文件|方便|方面|安排|安全|安静|江湖|常常|于是|向来|万一|金额|石头|白天|白白|马上|任何|林子|叶子|孙子|夏天|秦朝|段时间|易燃|龙虾|温度|温柔|齐全|严重|毛病|程序|汤圆|乔迁|康复|史上)/u;
const NAME = String.raw`([\p{Script=Han}]{2,3}?|[A-Z][a-z]+)`;
// What follows a name: a verb, a particle, a time word or punctuation, not more of the name.
const AFTER_NAME = String.raw`(?=$|[，,。.！!；;？?\s~～（(]|的|是|在|说|最|也|都|和|跟|结|下|今|上|刚|又|生|过|要|去|来|那|这|老|特|很|还|就|把|被|给|从|每|总|已|才|满|考|读|记|带|马|给|喜|爱|怀|想|觉|让|陪|帮|请|问|找|买|送|做|吃|喝|看|玩|打|开|住|病|发|感|有|没|不|可|会|能|得|真|挺|超|非|好|劝|一|两|三|四|五|六|七|八|九|十|[0-9])`;

function isName(name: string): boolean {
  if (/^[A-Z][a-z]+$/u.test(name)) return true;
  if (NOT_NAME.test(name)) return false;
  if (name.length === 2 && name[0] === name[1]) return true;
  if (/^[小阿][\p{Script=Han}]$/u.test(name)) return true;
  return SURNAMES.includes(name[0]!) && name.length >= 2;
}

function relativeKey(relation: string, name: string): string | undefined {
  const key = RELATION_OF.get(relation);
  if (key === undefined) return undefined;
  return ONE_OF_A_KIND.has(key) ? `family:${key}` : `family:${key}:${keyPart(name)}`;
}

/** A relative fact from a pattern whose group 1 is the relation and group 2 the name. */
const relative = (group = 2): Pick<ZhFact, 'k' | 'group' | 'accept' | 'sentence'> => ({
  group,
  sentence: true,
  k: (name, found) => (isName(name) ? relativeKey(found[1]!, name) : undefined),
  accept: (name, found) => (isName(name) ? `${found[1]}${name}` : undefined),
});

// The user's own animals: "我家", "家里", "我养的", or a new one joining the family.
const OWN = String.raw`(?:我家|我们家|家里|我养的|我的|我养了|新成员)`;
const PET_NAME = String.raw`([\p{Script=Han}]{2}|[A-Z][a-z]+)`;
const pet = (group = 2): Pick<ZhFact, 'k' | 'group' | 'accept' | 'sentence'> => ({
  group,
  sentence: true,
  k: (name) => `pet:${keyPart(name)}`,
  accept: (name, found) => `${found[1]}${name}`,
});

// A day of the year as chat writes it: 6月1号, 4月11日, 3月12.
const MONTH_DAY = String.raw`(\d{1,2}月\d{1,2}[日号]?)`;

/** A relative's birthday, "我儿子乐乐6月1号生日" or "我妈生日是4月11号": group 1 the relation, 2 a name, 3 or 4 the day. */
const relativeBirthday: Pick<ZhFact, 'k' | 'group' | 'accept' | 'sentence'> = {
  group: 1,
  sentence: true,
  k: (relation, found) => {
    const key = RELATION_OF.get(relation);
    return key === undefined || (found[2] !== undefined && !isName(found[2])) ? undefined : `birthday:${key}`;
  },
  accept: (relation, found) => `${relation}${found[2] ?? ''}生日${found[3] ?? found[4]!}`,
};

export const FAMILY_FACTS: readonly ZhFact[] = [
  // Yearly days, under the English rules' keys (birthday, birthday:<relation>, anniversary).
  {
    pattern: new RegExp(
      `我(?:的|家)?(${RELATIVES})(?:${NAME})?(?:的)?(?:生日(?:是|在)?${MONTH_DAY}|${MONTH_DAY}(?:是(?:他|她)的)?(?:过)?生日)`,
      'u',
    ),
    ...relativeBirthday,
  },
  {
    k: 'birthday',
    sentence: true,
    pattern: new RegExp(`我(?:的)?(?:生日(?:是|在)?${MONTH_DAY}|${MONTH_DAY}(?:是我的)?(?:过)?生日)`, 'u'),
    group: 0,
    accept: (_, found) => `生日${found[1] ?? found[2]!}`,
  },
  {
    k: 'anniversary',
    sentence: true,
    pattern: new RegExp(
      `(?:我们|我俩|我和[^，,。！!；;？?]{1,5}?)的?结婚纪念日(?:是|在)?${MONTH_DAY}|${MONTH_DAY}是我(?:们|俩|和[^，,。！!；;？?]{1,5}?)的?结婚(?:[一二三四五六七八九十两\\d]+)?周年`,
      'u',
    ),
    group: 0,
    accept: (_, found) => `结婚纪念日${found[1] ?? found[2]!}`,
  },

  // "我女儿朵朵", "我和老婆小雯", "我哥叫唐军", "我的妹妹是小雨".
  { pattern: new RegExp(`我(?:的|和|跟|家)?(${RELATIVES})(?:叫|名叫|是)?${NAME}${AFTER_NAME}`, 'u'), ...relative() },
  // A relative who opens a clause: "老公陈刚记得…", "嫂子叫林芳", "小女儿甜甜也三岁了".
  {
    pattern: new RegExp(`(?:^|[，,。！!；;])(?:我|我们)?(${RELATIVES})(?:叫|名叫)?${NAME}${AFTER_NAME}`, 'u'),
    ...relative(),
  },
  // A relative the user looks after or is with: "我一个人带儿子豆豆", "陪老婆小雅去产检".
  { pattern: new RegExp(`(?:带|陪|和|跟|帮|接|送)(?:着)?(${RELATIVES})${NAME}${AFTER_NAME}`, 'u'), ...relative() },
  // The name in the next clause: "是我妈七十大寿，她叫王秀兰".
  {
    pattern: new RegExp(
      `我(?:的)?(${RELATIVES})[^，,。！!；;？?]{0,14}[，,](?:她|他)(?:叫|名叫|的名字是)${NAME}${AFTER_NAME}`,
      'u',
    ),
    ...relative(),
  },
  // A name corrected: "我妹叫小雨，下雨的雨，不是小玉" ends the fact under the old name.
  {
    pattern: new RegExp(
      `我(?:的)?(${RELATIVES})(?:叫|名叫|是)${NAME}${AFTER_NAME}[^。！!？?]*?(?:不是|不叫)${NAME}${AFTER_NAME}`,
      'u',
    ),
    group: 3,
    sentence: true,
    k: (old, found) => {
      const key = RELATION_OF.get(found[1]!);
      return key === undefined || ONE_OF_A_KIND.has(key) || !isName(old) || !isName(found[2]!) || old === found[2]
        ? undefined
        : relativeKey(found[1]!, old);
    },
    accept: (old, found) => `${found[1]}${old}`,
    ends: true,
  },
  // Pets: "我家金毛旺财", "家里那只英短团子", "一只垂耳兔，叫年糕", "…小橘猫…给它起名叫芒果".
  {
    pattern: new RegExp(
      `${OWN}(?:那只|这只|的|又多了一只|新来的|养了一只|养了只)?[^，,。！!；;？?]{0,6}?(${ZH_PETS})(?:[，,])?(?:叫|名叫|起名叫)?${PET_NAME}${AFTER_NAME}`,
      'u',
    ),
    ...pet(),
  },
  {
    pattern: new RegExp(
      `${OWN}[^。！!；;？?]{0,20}?一只(?:小)?(${ZH_PETS})[，,]?(?:叫|名叫|取名叫?|起名叫?)${PET_NAME}${AFTER_NAME}`,
      'u',
    ),
    ...pet(),
  },
  {
    pattern: new RegExp(
      `${OWN}[^。！!；;？?]{0,20}?(${ZH_PETS})[^。！!；;？?]{0,20}?给(?:它|他|她)(?:起名|取名|起了个名字)叫?${PET_NAME}${AFTER_NAME}`,
      'u',
    ),
    ...pet(),
  },
];

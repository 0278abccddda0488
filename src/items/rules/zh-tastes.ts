// What the user likes, dislikes, owns and does regularly, in Chinese: 我超爱X / 最喜欢的是X / X死忠,
// 讨厌X / 受不了X / 不太喜欢X, 我那辆X / 买了台X / 家里有台X (and 卖掉了 ending it), 每天/每周X…
// routines and 习惯：X. One fact per thing (taste:<thing>, owns:<thing>, routine:<activity>), so a
// changed mind or a moved time replaces it. Things of a known preference topic (a drink, a tone)
// stay preferences, as in English.

import { words } from '../../util/segment.js';
import { ANY_KIND } from '../values.js';
import { topicOf } from './lexicon.js';
import { withoutOpeners } from './zh-clauses.js';
import { keyPart, ZH_ADVERBS, zhPhrase, type ZhFact } from './zh-fact.js';

// When a taste or routine happens, said between the subject and the verb.
const WHEN = String.raw`(?:周末|平时|晚上|早上|下班后|没事的?时候|有空的?时候|闲的时候)?${ZH_ADVERBS}`;
const OBJECT = String.raw`([^，,。！!；;？?]{1,16}?)`;
// The verb before the thing liked stays in the value ("讨厌坐飞机"), not in the key.
const DOING = '(?:看|听|吃|喝|玩|去|打|逛|读|弹|追|坐)';
const NOT_TASTE = /^(?:你|它|这|那|他|她|上了|的是|什么|啥|怎么|吃饭|睡觉)|你|吗$/u;

// The words the preference rule reads a liked topic by ("我很喜欢喝茶" is a drink preference); a
// food or drink liked in other words ("我超爱喝精酿啤酒") is a taste.
const PREFERENCE_SAYS = /我(?:很|非常|最|比较|挺|真的|特别|一直)?(?:喜欢|爱|偏爱|习惯|讨厌|不喜欢)/u;

/** A taste as a fact value ("喜欢宫崎骏"), or undefined for a pronoun, a clause or a preference topic. */
const taste = (verdict: (found: RegExpExecArray) => string) => (value: string, found: RegExpExecArray) => {
  const thing = zhPhrase(value);
  if (thing.length < 1 || thing.length > 12 || NOT_TASTE.test(thing)) return undefined;
  const topic = topicOf(thing.toLowerCase(), true);
  if (topic !== undefined && (topic.scope !== 'other' || PREFERENCE_SAYS.test(found.input))) return undefined;
  return `${verdict(found)}${thing}`;
};
const tasteKey = (value: string): string | undefined => {
  const thing = zhPhrase(value.replace(new RegExp(`^${DOING}`, 'u'), ''));
  return thing === '' ? undefined : `taste:${keyPart(thing)}`;
};

// A thing owned: what follows a measure word, up to the verb or particle after it.
const THING = String.raw`([A-Za-z0-9\p{Script=Han}][A-Za-z0-9\p{Script=Han} .-]{0,16}?)`;
const THING_END = String.raw`(?=$|[，,。！!；;？?]|骑|用|开|想|已经|是|了|坏|还|也|都|被|放|跟|最近|又|太|很|特别|落|在|往|躺|上班|出门)`;
const MEASURE = '(?:辆|台|部|把|架|块|套|只|款|副|件)';
// Kinds of things owned, as the English rules name them (possession:car), by the thing's noun or,
// failing that, its brand; a new car replaces the old one.
const KINDS: ReadonlyArray<readonly [kind: string, nouns: string, brands: string]> = [
  [
    'car',
    '汽车|轿车|SUV|越野车|新能源车|小车|车',
    '特斯拉|比亚迪|宝马|奔驰|奥迪|丰田|本田|大众|蔚来|理想|小鹏|思域|凯美瑞|卡罗拉|Model 3|Model Y|Tesla',
  ],
  ['motorbike', '摩托车|摩托|踏板车', '哈雷|杜卡迪|川崎|春风'],
  [
    'bike',
    '自行车|单车|山地车|公路车|折叠车|电动车|电瓶车|电动自行车',
    '捷安特|美利达|崔克|迪卡侬|雅迪|爱玛|小牛|九号',
  ],
  [
    'camera',
    '相机|单反|微单|胶片机|拍立得|卡片机',
    '索尼|佳能|尼康|富士|理光|徕卡|哈苏|松下|Fujifilm|Canon|Nikon|Sony|Leica|Ricoh',
  ],
  ['piano', '立式钢琴|三角钢琴|电钢琴|电子琴|钢琴', '卡瓦依'],
  ['guitar', '电吉他|吉他|尤克里里|贝斯', '芬达|吉普森'],
  ['phone', '手机', 'iPhone|华为|小米|OPPO|vivo'],
  ['laptop', '笔记本电脑|笔记本|MacBook|ThinkPad', '联想'],
  ['computer', '台式机|电脑|主机', ''],
  ['tablet', '平板|iPad', ''],
  ['console', '游戏机|Switch|PS5|PS4|Xbox', ''],
  ['drone', '无人机', '大疆'],
  ['watch', '智能手表|手表', 'Apple Watch|佳明'],
  ['headphones', '耳机', 'AirPods'],
  ['tv', '电视|投影仪', ''],
  ['e-reader', '电纸书|Kindle', ''],
  ['coffee machine', '咖啡机', ''],
  ['home', '房子|公寓|别墅|房|[一二两三四五]室', ''],
];
const KIND_WORDS = KINDS.flatMap(([kind, nouns, brands]) => [
  ...nouns.split('|').map((word) => [word, kind, 0] as const),
  ...brands
    .split('|')
    .filter((word) => word !== '')
    .map((word) => [word, kind, 1] as const),
]);
// A model name in Latin letters and digits ("A7M3", "GR3", "X-T30").
const MODEL = /[A-Za-z][A-Za-z0-9-]*(?: ?[A-Z0-9][A-Za-z0-9-]*)*\d[A-Za-z0-9-]*|[A-Za-z]+-?\d[A-Za-z0-9-]*/u;

/** The thing itself: no "旧的", "那台", "闲鱼上"; Chinese and Latin apart ("索尼 A7M3"), so an end finds it by either. */
function thingOf(value: string): string {
  const thing = zhPhrase(
    value
      .replace(/^(?:[\p{Script=Han}]{1,4}上)?(?:旧的|新的|二手的?|那|这|我的)*/u, '')
      .replace(new RegExp(`^${MEASURE}`, 'u'), ''),
  );
  return thing.replace(/(?<=\p{Script=Han})(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=\p{Script=Han})/gu, ' ');
}

/** The key of a thing owned: its kind by noun, else by brand, else the thing's own name. */
export function ownedKey(value: string): string {
  const thing = thingOf(value);
  const lower = thing.toLowerCase();
  const found = KIND_WORDS.filter(([word]) => new RegExp(word.toLowerCase(), 'u').test(lower)).sort(
    (a, b) => a[2] - b[2],
  );
  const kind = found[0]?.[1] ?? MODEL.exec(thing)?.[0] ?? thing.replace(/^[^的]*的/u, '');
  return `possession:${keyPart(kind)}`;
}
const owned = (value: string): string | undefined => {
  const thing = thingOf(value);
  return thing.length < 2 || /^(?:个|点|些|次|下|一|什么|啥)/u.test(thing) ? undefined : thing;
};
/** What an end names: the model, else the thing, matched by words against current facts. */
const endedThing = (value: string): string | undefined => {
  const thing = thingOf(value);
  const name = MODEL.exec(thing)?.[0] ?? thing.replace(/^[^的]*的/u, '');
  return name.length < 2 ? undefined : `${ANY_KIND}${keyPart(name)}`;
};

// How often: "每天早上", "每周三晚上", "每周一三五", "天天", "一周至少三次".
const FREQUENCY = String.raw`(每天|每晚|每早|每周[一二三四五六日天末]*|每个?星期[一二三四五六日天]*|每个?周末|每个?月|每年|天天|每隔[^，,]{1,4}|一周(?:至少|最少|大概)?[一二两三四五六七\d]次|每逢[^，,]{1,4})`;
// Words that end a clause about something else than what is done: quantities (每周都要嗦一碗) and times.
const NOT_ACTIVITY =
  /^(?:[一二两三四五六七八九十几半\d]|都要|就是|可以|一下|这个|那个|我们|他们|自己|都会|还要|也要|晚上|早上|中午|下午|上午|傍晚|凌晨|周末|周[一二三四五六日天]|下雨|下雪|刮风|降温|堵车)/u;
const DURATION_END =
  /(?:[一二两三四五六七八九十几半\d]+(?:个)?(?:小时|分钟|公里|钟头|圈|次|遍|页)(?:左右)?|半小时|一会儿?)$/u;
const DURATION_INSIDE = /[一二两三四五六七八九十几半\d]+(?:个)?(?:小时|分钟|钟头)(?:左右)?(?:的)?/gu;
/** The activity a routine is about: the last word of what is done ("去珠江边跑步" → 跑步). */
function activityKey(activity: string): string | undefined {
  // How long is no part of what is done: "看二十分钟纸质书" is reading.
  const done = zhPhrase(activity.replace(DURATION_END, '').replace(DURATION_INSIDE, '')).replace(DURATION_END, '');
  if (/药|片|双胍|地平|沙坦|司特/u.test(done)) return undefined;
  const found = words(done).filter((word) => /\p{Script=Han}{2,}|[a-z]{2,}/u.test(word));
  // A segmenter that splits a rare noun into characters ("纸质书") leaves the words after the verb.
  const tail = /(?:看|听|读|练|弹|写|画|骑|跑|游|打|玩|去)([\p{Script=Han}]{2,5})$/u.exec(done)?.[1];
  const last = tail !== undefined && !done.endsWith(found.at(-1) ?? '') ? tail : found.at(-1);
  // A state reached ("眼睛都要瞎了") is no routine; a routine changed to ("改成每天游泳了") is.
  if (/了$/u.test(done) && !/改成|换成|开始/u.test(activity)) return undefined;
  return last === undefined || NOT_ACTIVITY.test(last) ? undefined : `routine:${keyPart(last)}`;
}

export const TASTE_FACTS: readonly ZhFact[] = [
  // Likes: "我超级喜欢宫崎骏的", "我周末很爱去爬山", "迷上了东野圭吾的小说", "我最喜欢的是久石让".
  {
    k: tasteKey,
    group: 2,
    pattern: new RegExp(
      `(?:^|我)${WHEN}(喜欢|爱(?!人|好|心|情|护|惜)|热爱|迷上了?|着迷于?|沉迷于?|痴迷于?|钟爱|偏爱)(${DOING}?${OBJECT.slice(1)}$`,
      'u',
    ),
    accept: taste(() => '喜欢'),
  },
  {
    k: tasteKey,
    pattern: new RegExp(`最(?:喜欢|爱)的(?:[^，,。]{0,6})?(?:是|就是)${OBJECT}$`, 'u'),
    accept: taste(() => '最喜欢'),
  },
  {
    k: tasteKey,
    pattern: /^(?:我是)?([^，,。！!；;？?的]{1,8}?)(?:的)?(?:死忠粉?|铁粉|忠实粉丝|粉丝)$/u,
    accept: taste(() => '喜欢'),
  },
  // Likes said by what the user does: "单曲循环了一整天周杰伦的《晴天》", "主要是冲着新裤子去的",
  // "他们的歌我听了十年了", "居然越喝越喜欢", "一周至少吃三次火锅", "…我每周都要嗦一碗".
  {
    k: tasteKey,
    pattern: /单曲循环了?(?:一整天|整整一天|一天|一下午|一晚上|一整晚|好几天|好久)?([^，,。！!；;？?]{2,16})/u,
    accept: taste(() => '喜欢'),
  },
  { k: tasteKey, pattern: /冲着([^，,。！!；;？?]{1,12}?)(?:去|来)的/u, accept: taste(() => '喜欢') },
  {
    k: tasteKey,
    pattern:
      /^([^，,。！!；;？?的]{2,10})的(?:歌|书|小说|剧|电影|作品|节目|视频|比赛)我(?:都|已经)?(?:听|看|读|追)了(?:[一二两三四五六七八九十几\d]+|好多|很多|好几)年/u,
    accept: taste(() => '喜欢'),
  },
  {
    k: tasteKey,
    pattern:
      /(?:壶|杯|碗|瓶|份|盒|喝|吃|听|看)([\p{Script=Han}A-Za-z]{2,6})[，,]\s*(?:我)?(?:居然|竟然|真是|真的|现在)?越(?:喝|吃|听|看|玩|用)越(?:喜欢|爱|上头|上瘾)/u,
    accept: taste(() => '喜欢'),
    sentence: true,
  },
  {
    k: tasteKey,
    pattern:
      /^([\p{Script=Han}A-Za-z]{2,6}?)(?:我)?(?:居然|竟然|真是|真的|现在)?越(?:喝|吃|听|看|玩|用)越(?:喜欢|爱|上头|上瘾)/u,
    accept: (value, found) =>
      /^(?:居然|竟然|真是|真的|现在|越)/u.test(value) ? undefined : taste(() => '喜欢')(value, found),
  },
  {
    k: tasteKey,
    pattern:
      /(?:一周|每周|一个星期|每个星期)(?:至少|最少|起码|都)?(?:要|得|会)?(吃|喝)[一二两三四五六七\d]次([\p{Script=Han}A-Za-z]{2,6}?)(?=$|[，,。！!])/u,
    group: 2,
    accept: (value, found) => (/药|饭$/u.test(value) ? undefined : taste(() => `喜欢${found[1]}`)(value, found)),
  },
  {
    k: tasteKey,
    pattern:
      /(?:吃|喝|嗦)(?:一|个)?(?:碗|杯|顿|份)([\p{Script=Han}A-Za-z]{2,6}?)(?=[，,]|吧|了|安慰|犒劳|解馋|庆祝|压惊|补补|暖暖)[^。！!？?]*?[，,](?:我)?(?:每天|每周|一周|天天)(?:都|至少)?(?:要|得|会)?(?:吃|喝|嗦|来)(?:上)?(?:一|两)?(?:碗|杯|顿|份)/u,
    accept: (value, found) => (/药/u.test(value) ? undefined : taste(() => '喜欢')(value, found)),
    sentence: true,
  },
  // Dislikes: "我特别讨厌坐飞机", "我不太喜欢爵士", "我真的受不了香菜", "现在看到火锅就怕".
  {
    k: tasteKey,
    group: 2,
    pattern: new RegExp(
      `(?:^|我)${WHEN}(不喜欢|不太喜欢|不怎么喜欢|不爱|讨厌|受不了|接受不了|反感|厌恶|最烦|吃不惯|喝不惯)(${DOING}?${OBJECT.slice(1)}$`,
      'u',
    ),
    accept: taste((found) => found[1]!),
  },
  {
    k: tasteKey,
    pattern:
      /(?<![他她它你们])(?:看到|看见|想到|闻到|听到|提到)([^，,。！!；;？?]{1,8}?)就(?:怕|烦|恶心|想吐|头疼|头大|难受|反胃|发怵)/u,
    accept: taste(() => '怕'),
  },
  // Belongings: "我那辆捷安特", "买了辆雅迪的电动车", "又入了一把尤克里里", "家里有台雅马哈的立式钢琴".
  {
    k: ownedKey,
    pattern: new RegExp(`我(?:的)?(?:那|这)${MEASURE}(?!猫|狗|兔)${THING}${THING_END}`, 'u'),
    accept: owned,
    withSince: true,
  },
  {
    k: ownedKey,
    pattern: new RegExp(
      `(?:买了|新买了|入了|入手了?|购入了?|换了|提了|收了|淘了|添了)(?:一|个)?${MEASURE}(?:二手的?|新的?|全新的?)?${THING}${THING_END}`,
      'u',
    ),
    accept: owned,
    withSince: true,
  },
  {
    k: ownedKey,
    pattern: new RegExp(`(?:^|家里|我)(?:有|还有)(?:一)?${MEASURE}${THING}${THING_END}`, 'u'),
    accept: owned,
  },
  {
    k: endedThing,
    pattern: new RegExp(
      `${THING}(?:在[\\p{Script=Han}]{1,4}上)?(?:已经|也|终于)?(?:卖掉了|卖了|出掉了|送人了|转手了|转卖了)`,
      'u',
    ),
    accept: thingOf,
    ends: true,
  },
  // A farewell to what the user leaves behind: "土木拜拜👋", "再见了北京", "告别996".
  {
    k: (_, found) => `${ANY_KIND}${keyPart((found[1] ?? found[2])!)}`,
    pattern:
      /(?:^|[，,])\s*(?:(?:再见了?|告别了?|拜拜了?)([\p{Script=Han}A-Za-z\d]{2,6})|([\p{Script=Han}A-Za-z\d]{2,6}?)(?:拜拜|再见了?)(?!吧|啦))(?=$|[，,。！!~～\s\p{Extended_Pictographic}])/u,
    group: 0,
    accept: (value, found) => found[1] ?? found[2],
    ends: true,
  },
  // A routine moved to another time: "我们的羽毛球只能挪到每周四晚上".
  {
    k: (_, found) => (withoutOpeners(found[1]!) === found[1] ? `routine:${keyPart(found[1]!)}` : undefined),
    pattern: new RegExp(
      `^(?:我们?的)?([\\p{Script=Han}]{2,6}?)(?:只能|也|就|都)?(?:挪到|改到|换到|调到|改成)${FREQUENCY}[^，,。！!；;？?]*`,
      'u',
    ),
    group: 0,
    accept: (value) => zhPhrase(value.replace(/^(?:我们?的)/u, '')),
  },
  // A routine stopped for another: "医生让我暂停跑步，所以现在改成每天早上去游泳了" ends 跑步.
  {
    k: (value) => activityKey(value),
    pattern:
      /(?:暂停|停了|停掉|不再|不能再|放弃了?)([\p{Script=Han}]{2,4}?)[^。！!？?]*?[，,](?:所以|于是|就)?(?:我)?(?:现在|目前)?(?:改成|换成|改为)/u,
    sentence: true,
    ends: true,
  },
  // Routines: "我每天早上六点半都去珠江边跑步", "每周三晚上都跟同事去打羽毛球", "现在改成每天早上去游泳了".
  {
    k: (_, found) => activityKey(found[2]!),
    pattern: new RegExp(`(?<!挪到|改到|换到|调到)${FREQUENCY}([^，,。！!；;？?]{2,30})$`, 'u'),
    group: 0,
    accept: (value) => zhPhrase(value.replace(/^(?:现在)?改成了?/u, '')),
  },
  // "加了个新习惯：睡前看二十分钟纸质书".
  {
    k: (value) => activityKey(value),
    pattern: /习惯(?:是|就是)?[：:]\s*([^，,。！!；;？?]{2,30})/u,
    sentence: true,
    accept: zhPhrase,
  },
];

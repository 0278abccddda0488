import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18.
const TS = '2026-02-18T10:00:00Z';

function extract(
  texts: readonly string[],
  role: 'user' | 'assistant' = 'user',
  knownKeys: readonly string[] = [],
): ItemCandidate[] {
  const events = texts.map((text, index) => ({
    event_id: `evt_${index + 1}`,
    kind: 'message' as const,
    role,
    text,
    ts: TS,
  }));
  return createRuleExtractor().extract({ events, known_keys: knownKeys }) as ItemCandidate[];
}

/** The profile facts of one user message, as [k, v] pairs. */
function facts(text: string, knownKeys: readonly string[] = []): Array<[string, unknown]> {
  return extract([text], 'user', knownKeys)
    .filter((candidate) => candidate.type === 'profile')
    .flatMap((candidate) =>
      (candidate.value['facts'] as Array<{ k: string; v: unknown }>).map((fact): [string, unknown] => [fact.k, fact.v]),
    );
}

describe('zh.profile.fact', () => {
  it.each([
    // Names, places and origins.
    [
      '我叫周晓燕，在银行上班。',
      [
        ['name', '周晓燕'],
        ['employer', '银行'],
      ],
    ],
    ['我住在上海浦东。', [['location', '上海浦东']]],
    ['我们去年搬到了厦门，离海边很近。', [['location', '厦门']]],
    ['来青岛快五年了，还是吃不惯海鲜。', [['location', '青岛']]],
    ['人在伦敦，这边天天下雨。', [['location', '伦敦']]],
    ['广州这边最近回南天，衣服都干不了。', [['location', '广州']]],
    ['我是广东人。', [['origin', '广东']]],
    // Kin beyond the household, a name before a verb, a relative the user looks after.
    ['我表哥阿杰又劝我买黄金', [['family:cousin:阿杰', '表哥阿杰']]],
    ['我女朋友林悦喜欢吃日料', [['family:girlfriend', '女朋友林悦']]],
    ['这周我一个人带儿子豆豆，累死了', [['family:son:豆豆', '儿子豆豆']]],
    // Work.
    ['我在字节跳动工作。', [['employer', '字节跳动']]],
    [
      '我在华为做硬件测试，快三年了。',
      [
        ['employer', '华为'],
        ['role', '硬件测试'],
      ],
    ],
    [
      '我在杭州一家做跨境电商的公司当运营主管。',
      [
        ['location', '杭州'],
        ['employer', '做跨境电商的公司'],
        ['role', '运营主管'],
      ],
    ],
    ['我是一名软件工程师。', [['role', '软件工程师']]],
    ['我是成都一所小学的语文老师。', [['role', '语文老师']]],
    ['下个月跳槽去蓝鲸科技，一家做储能的。', [['employer', '蓝鲸科技']]],
    ['我的职位是区域销售经理。', [['role', '区域销售经理']]],
    // Study.
    [
      '我在浙江大学读研二，学的是材料科学。',
      [
        ['education:浙江大学', '浙江大学 研二'],
        ['education:材料科学', '材料科学'],
      ],
    ],
    ['被香港大学的金融硕士录取了！', [['education:香港大学', '香港大学 金融硕士']]],
    ['最近在考CFA，压力好大。', [['education:cfa', '考CFA']]],
    ['寒假报了个日语的网课。', [['education:日语', '日语课程']]],
    // Family and pets, with English keys.
    ['我老公赵磊今天出差了。', [['family:husband', '老公赵磊']]],
    ['我儿子豆豆刚上幼儿园。', [['family:son:豆豆', '儿子豆豆']]],
    ['今天是我妈生日，她叫刘桂芳。', [['family:mum', '妈刘桂芳']]],
    ['我家柴犬可乐特别能吃。', [['pet:可乐', '柴犬可乐']]],
    ['家里新来了一只仓鼠，叫布丁。', [['pet:布丁', '仓鼠布丁']]],
    // Yearly days.
    [
      '另外我儿子乐乐6月1号生日，正好儿童节',
      [
        ['birthday:son', '儿子乐乐生日6月1号'],
        ['family:son:乐乐', '儿子乐乐'],
      ],
    ],
    ['我妈生日是4月11号，想给她订个蛋糕', [['birthday:mum', '妈生日4月11号']]],
    ['我的生日是11月3号', [['birthday', '生日11月3号']]],
    [
      '3月12号是我和老婆小雯结婚五周年',
      [
        ['anniversary', '结婚纪念日3月12号'],
        ['family:wife', '老婆小雯'],
      ],
    ],
    ['10月8号是我们结婚10周年', [['anniversary', '结婚纪念日10月8号']]],
    // Health and diet.
    ['我对芒果过敏。', [['allergy:芒果', '对芒果过敏']]],
    ['体检查出高血脂，医生让我少吃油。', [['health:高血脂', '高血脂']]],
    ['医生说是过敏性鼻炎。', [['health:过敏性鼻炎', '过敏性鼻炎']]],
    ['我每天早上吃一片阿托伐他汀。', [['medication:阿托伐他汀', '吃阿托伐他汀']]],
    ['我自己吃素，三年了。', [['diet', '吃素']]],
    ['我平时不喝奶茶。', [['avoids:奶茶', '不喝奶茶']]],
    ['甜食我已经不碰了。', [['avoids:甜食', '不碰甜食']]],
    // Tastes: known preference topics (a drink) stay preferences.
    ['我特别喜欢王家卫的电影。', [['taste:王家卫的电影', '喜欢王家卫的电影']]],
    ['我周末很爱去钓鱼。', [['taste:钓鱼', '喜欢去钓鱼']]],
    ['我最喜欢的是陈奕迅。', [['taste:陈奕迅', '最喜欢陈奕迅']]],
    ['我真的受不了榴莲，闻着就难受。', [['taste:榴莲', '受不了榴莲']]],
    ['我很讨厌排队。', [['taste:排队', '讨厌排队']]],
    // Belongings and routines.
    ['上周买了辆二手的思域。', [['possession:car', '思域']]],
    ['家里有台雅马哈的电钢琴。', [['possession:piano', '雅马哈的电钢琴']]],
    ['我那台iPad Pro用了四年了。', [['possession:tablet', 'iPad Pro']]],
    ['我每周六上午都去游泳馆游泳。', [['routine:游泳', '每周六上午都去游泳馆游泳']]],
    ['我们的读书会改到每个月最后一个周日了。', [['routine:读书会', '读书会改到每个月最后一个周日']]],
  ])('%s', (text, expected) => {
    expect(facts(text)).toEqual(expected);
  });

  it.each([
    // Questions, wishes, hypotheticals and advice.
    '你知道我住在哪吗？',
    '如果我以后养狗，叫什么名字好？',
    '我想搬到大理住一阵子。',
    '我打算明年考研。',
    '医生建议我每天快走半小时。',
    // Other people's facts.
    '我朋友是素食者。',
    '我同事在腾讯上班。',
    '她喜欢香水。',
    '我妈非要塞给我两袋酸菜。',
    '我哥下个月结婚。',
    // Things that look like facts and are not.
    '我是无辣不欢的人。',
    '一个人在家吃泡面。',
    '我把年份记错了。',
    '每天对着电脑眼睛都要瞎了。',
    '我喜欢你这样回答。',
    '我儿子今天6月1号去春游。',
    '我朋友的生日是5月2号。',
  ])('is no fact of the user: %s', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it.each([
    // A company or a doctor is the subject of its own clause only.
    ['公司在多伦多开新工作室，把我调过去了，上个月已经搬到多伦多。', [['location', '多伦多']]],
    ['医生给我加了个新药，孟鲁司特，每晚一片。', [['medication:孟鲁司特', '吃孟鲁司特']]],
    [
      '医生说是乳糖不耐受，那以后牛奶就不喝了。',
      [
        ['intolerance:乳糖', '乳糖不耐受'],
        ['avoids:牛奶', '不喝牛奶'],
      ],
    ],
    [
      '体检查出贫血，医生建议吃点肉，现在荤素都吃了。',
      [
        ['health:贫血', '贫血'],
        ['diet', '荤素都吃'],
      ],
    ],
    // A district with the city named before it; places with someone or "still".
    ['新公司在成都，房子就租在高新区。', [['location', '成都高新区']]],
    ['我跟我老公在杭州开了家奶茶店。', [['location', '杭州']]],
    ['不过现在还在上海租房上班。', [['location', '上海']]],
    // Work and study.
    ['我跳槽到本地一家游戏公司了，叫Northpine Studios。', [['employer', 'Northpine Studios']]],
    ['下学期开始就是计算机学院的人了。', [['education:计算机', '计算机']]],
    // Health and diet.
    ['医生把药换成缬沙坦了。', [['medication:缬沙坦', '吃缬沙坦']]],
    ['主食我现在都换成杂粮饭了。', [['diet:主食', '主食杂粮饭']]],
    // A retraction blanks "我不喝咖啡了"; what the user avoids is read from the sentence as written.
    ['医生让我把咖啡戒掉，从今天起我不喝咖啡了。', [['avoids:咖啡', '不喝咖啡']]],
    // Likes and dislikes said by what the user does.
    ['我超爱喝精酿啤酒。', [['taste:精酿啤酒', '喜欢喝精酿啤酒']]],
    ['今天单曲循环了一整天陈奕迅的《十年》。', [['taste:陈奕迅的_十年', '喜欢陈奕迅的《十年》']]],
    ['主要是冲着五月天去的。', [['taste:五月天', '喜欢五月天']]],
    ['现在早上一杯乌龙茶，居然越喝越喜欢。', [['taste:乌龙茶', '喜欢乌龙茶']]],
    ['一周至少吃三次烧烤。', [['taste:烧烤', '喜欢吃烧烤']]],
    ['还是吃碗牛肉面安慰一下自己吧，我每周都要吃一碗。', [['taste:牛肉面', '喜欢牛肉面']]],
    ['现在看到烧烤就怕。', [['taste:烧烤', '怕烧烤']]],
    // Routines.
    ['又加了个新习惯：睡前看二十分钟纸质书。', [['routine:纸质书', '睡前看二十分钟纸质书']]],
    [
      '我妹叫小雨，不是小玉。',
      [
        ['family:sister:小雨', '妹小雨'],
        ['family:sister:小玉', null],
      ],
    ],
    // One mum: her name corrected replaces the fact, nothing to end.
    ['我妈叫王芳，不是王方。', [['family:mum', '妈王芳']]],
  ])('reads what the user does: %s', (text, expected) => {
    expect(facts(text, ['profile:user'])).toEqual(expected);
  });

  it.each([
    // Someone else's, a question, a hypothetical, a time that is over.
    '我妈超爱喝精酿啤酒。',
    '如果单曲循环一整天周杰伦会腻吗？',
    '我朋友一周至少吃三次火锅。',
    '我同事跳槽到本地一家游戏公司了，叫Northpine Studios。',
    '不喝咖啡那几个月真难熬。',
    '我哥看到火锅就怕。',
    '医生说要是再不戒烟就麻烦了。',
    '最后选了红色那件！',
    '居然越喝越喜欢。',
  ])('is still no fact of the user: %s', (text) => {
    expect(facts(text, ['profile:user'])).toEqual([]);
  });

  it('ends a routine the user switched from', () => {
    expect(facts('医生让我暂停跑步，所以现在改成每天早上去游泳了。', ['profile:user'])).toEqual([
      ['routine:跑步', null],
      ['routine:游泳', '每天早上去游泳'],
    ]);
  });

  it('takes an employer chosen when the message says the user starts there', () => {
    expect(facts('最后选了蔚蓝银行！下周一入职。')).toEqual([['employer', '蔚蓝银行']]);
    expect(facts('最后选了蔚蓝银行！下周一入职，今天把星途的离职手续办完了。', ['profile:user'])).toEqual([
      ['employer', '蔚蓝银行'],
    ]);
  });

  it('puts a district in the city the message named first', () => {
    expect(facts('已经在新加坡落地一个月了！住在裕廊东。')).toEqual([
      ['location', '新加坡'],
      ['location', '新加坡裕廊东'],
    ]);
    expect(facts('我在上海工作，住在昆山。')).toEqual([['location', '昆山']]);
  });

  it('reads a statement before the question in the same sentence', () => {
    expect(facts('我在深圳工作，周末去哪玩比较好？')).toEqual([['location', '深圳']]);
  });

  it('never reads the assistant', () => {
    expect(extract(['你可以试试每天早上跑步。', '我叫小助手，住在云端。'], 'assistant')).toEqual([]);
  });

  it('ends what the user no longer has, does or takes', () => {
    const known = ['profile:user'];
    expect(facts('旧的山地车在闲鱼上卖掉了。', known)).toEqual([['*:山地车', null]]);
    expect(facts('我从蓝鲸科技辞职了。', known)).toEqual([['employer', null]]);
    expect(facts('阿司匹林不吃了。', known)).toEqual([['medication:阿司匹林', null]]);
    expect(facts('我又开始喝咖啡了。', known)).toEqual([['avoids:咖啡', null]]);
    expect(facts('转专业申请过了！！下学期开始就是计算机学院的人了，土木拜拜👋', known)).toEqual([
      ['education:计算机', '计算机'],
      ['*:土木', null],
    ]);
    expect(facts('再见了北京，明天的飞机。', known)).toEqual([['*:北京', null]]);
    // A goodbye to the assistant ends nothing.
    expect(facts('那就先这样，拜拜啦', known)).toEqual([]);
  });
});

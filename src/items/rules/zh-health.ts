// The user's health and diet in Chinese: allergies (对花生过敏), conditions (查出贫血, 医生说是焦虑),
// medicines by the endings of their names (二甲双胍, 氨氯地平, 孟鲁司特), diets (吃素, 荤素都吃) and
// what they do not eat or drink (不喝咖啡, 牛奶就不喝了, 辣的也都戒了). Keys as the English rules':
// allergy:, intolerance:, health:, diet, avoids:, and medication: for medicines.

import { keyPart, ZH_ADVERBS, zhPhrase, type ZhFact } from './zh-fact.js';

const CONDITIONS =
  '[一二两12]型糖尿病|糖尿病|高血压|高血脂|高血糖|低血压|低血糖|哮喘|焦虑症|焦虑|抑郁症|抑郁|双相|贫血|偏头痛|胃炎|胃溃疡|胃出血|肠胃炎|鼻炎|过敏性鼻炎|湿疹|荨麻疹|痛风|失眠症?|甲亢|甲减|心脏病|冠心病|心律不齐|脂肪肝|乙肝|肾结石|胆结石|颈椎病|腰椎间盘突出|关节炎|风湿|癫痫|多动症|自闭症|近视|弱视|色盲|乳腺增生|甲状腺结节|多囊卵巢|哮喘病|睡眠障碍|耳鸣|干眼症|腱鞘炎|骨质疏松';
// Medicines are named by their stems' endings (INN names in Chinese) or are well known by name.
const MEDICINE = String.raw`((?:[\p{Script=Han}]{1,5}(?:双胍|地平|沙坦|司特|洛尔|普利|他汀|霉素|西林|沙星|替丁|拉唑|唑仑|西汀)|胰岛素|布洛芬|对乙酰氨基酚|阿司匹林|褪黑素|左甲状腺素钠|甲巯咪唑|泼尼松|地塞米松))`;
const MEDICINE_VERB = String.raw`(?:吃|服用|服|用|开了|加了个新药|新药|换成了?|改吃|改用|打)`;

// A diet given up ("不吃纯素了") ends the diet; it avoids no food.
const NOT_AVOIDED = /^(?:纯素|全素|素|荤|肉)$/u;
// "不喝咖啡那几个月真难熬" looks back on a time that is over.
const PAST_PERIOD = /^(?:那|的(?:那|日子|时候)|期间)/u;

export const BODY_FACTS: readonly ZhFact[] = [
  {
    k: (value) => `allergy:${keyPart(value)}`,
    pattern: /(?:^|我|我们?也)?对([^，,。.！!；;？?了我]{1,10}?)(?:也)?(?:严重|有点|轻微)?过敏/u,
    accept: (value) => `对${zhPhrase(value)}过敏`,
  },
  {
    k: (value) => `allergy:${keyPart(value)}`,
    pattern: /([\p{Script=Han}]{1,6}?)过敏(?:体质)?(?=$|[，,。])/u,
    accept: (value) => (/^(?:有点|容易|会|也|季节性|严重)|对|我/u.test(value) ? undefined : `对${value}过敏`),
  },
  {
    k: (value) => `intolerance:${keyPart(value)}`,
    pattern: /(乳糖|麸质|果糖|酒精)不耐受?/u,
    accept: (value) => `${value}不耐受`,
  },
  {
    k: (value) => `intolerance:${keyPart(value)}`,
    pattern: /(?:医生|大夫)(?:说|讲|诊断)(?:我)?(?:是|有)?(乳糖|麸质|果糖|酒精)不耐受?/u,
    accept: (value) => `${value}不耐受`,
    sentence: true,
  },
  {
    k: (value) => `health:${keyPart(value)}`,
    pattern: new RegExp(
      `(?:^|我${ZH_ADVERBS}(?:去年|今年|前年|从小)?(?:有|得了|得过|患有|查出来?了?|确诊了?|被诊断为?)?|查出(?:来)?了?|确诊(?:为|了)?|诊断(?:为|出))(${CONDITIONS})`,
      'u',
    ),
    accept: (value) => value.replace(/^[一二两12]型/u, ''),
  },
  // What a doctor found is the user's, though the doctor is the clause's subject.
  {
    k: (value) => `health:${keyPart(value)}`,
    pattern: new RegExp(`(?:医生|大夫)(?:说|讲|诊断)(?:我)?(?:是|有|得了)?(${CONDITIONS})`, 'u'),
    sentence: true,
  },
  // Medicines the user takes: "每天吃二甲双胍", "加了个新药，孟鲁司特", "把药换成缬沙坦了".
  {
    k: (value) => `medication:${keyPart(value)}`,
    pattern: new RegExp(
      `${MEDICINE_VERB}(?:一片|一粒|一颗|两片|半片|点)?${MEDICINE}(?![^，,]*(?:不吃了|停了|停掉))`,
      'u',
    ),
    accept: (value) => `吃${value}`,
  },
  {
    k: (value) => `medication:${keyPart(value)}`,
    pattern: new RegExp(`^${MEDICINE}$`, 'u'),
    accept: (value) => `吃${value}`,
  },
  // What the doctor prescribes the user: "医生把药换成缬沙坦了", "医生给我加了个新药，孟鲁司特".
  {
    k: (value) => `medication:${keyPart(value)}`,
    pattern: new RegExp(
      `(?:医生|大夫)(?:给我|帮我)?(?:把(?:我的)?药)?(?:换成了?|改成了?|开了|加了)(?:个|一种|一个)?(?:新药)?[，,]?${MEDICINE}`,
      'u',
    ),
    accept: (value) => `吃${value}`,
    sentence: true,
  },
  {
    k: (value) => `medication:${keyPart(value)}`,
    pattern: new RegExp(`${MEDICINE}(?:就|也|已经)?(?:不吃了|停了|停掉了|不用了)`, 'u'),
    ends: true,
  },
  // Diets: "我自己吃素", "开始吃纯素了", "现在荤素都吃".
  {
    k: 'diet',
    pattern: new RegExp(
      `(?:^|我)${ZH_ADVERBS}(?:开始|改|改成)?(吃纯素|吃全素|吃素|吃斋|是素食主义者|素食|生酮|吃清真)`,
      'u',
    ),
    withSince: true,
  },
  { k: 'diet', pattern: /(荤素都吃|什么都吃|不挑食|不忌口)/u, withSince: true },
  // A staple switched: "主食我现在都换成杂粮饭了", "早餐改成燕麦了".
  {
    k: (_, found) => `diet:${keyPart(found[1]!)}`,
    pattern: new RegExp(
      `^(?:我的?)?(主食|早餐|早饭|午饭|晚饭|晚餐|零食|饮料)(?:我)?${ZH_ADVERBS}(?:换成|改成|改吃|改喝|只吃|只喝)了?([^，,。！!；;？?]{2,8}?)(?:了|啦)?$`,
      'u',
    ),
    group: 2,
    accept: (value, found) => `${found[1]}${zhPhrase(value)}`,
    withSince: true,
  },
  // What the user does not eat or drink: "我不喝咖啡", "戒了酒", "牛奶就不喝了", "辣的也都戒了".
  {
    k: (value) => `avoids:${keyPart(value)}`,
    pattern: new RegExp(
      `(?:^|我)${ZH_ADVERBS}(?:不|不再|不能|没法|戒了|很少|从不|从来不)(喝|吃|碰)(?!了|过|完|饭|东西|早饭|早餐|午饭|晚饭|得|下|多|太)([^，,。.！!；;？?\\s了的那这时就也都]{1,6})`,
      'u',
    ),
    group: 2,
    accept: (value, found) =>
      NOT_AVOIDED.test(value) || PAST_PERIOD.test(found.input.slice(found.index + found[0].length))
        ? undefined
        : `不${found[1]}${value}`,
  },
  {
    k: (value) => `avoids:${keyPart(value)}`,
    pattern:
      /^(?:那|以后|现在|从今天起|从此)*([\p{Script=Han}]{1,5}?)(?:我)?(?:就|也|都|基本|基本上|再也|以后|彻底|已经)*(?:不(喝|吃|碰)了?|戒(?:掉)?了)$/u,
    accept: (value, found) =>
      /^(?:什么|啥|这|那|饭|东西|药|肉)$/u.test(value) || new RegExp(`^${MEDICINE}$`, 'u').test(value)
        ? undefined
        : `不${found[2] ?? '吃'}${value}`,
  },
  {
    k: (value) => `avoids:${keyPart(value)}`,
    pattern: /(?:我|^)(?:已经|把)?(?:戒掉?了)([\p{Script=Han}]{1,4})(?=$|[，,。])/u,
    accept: (value) => `不吃${value}`,
  },
  // Eating or drinking again ends an avoidance: "我又开始喝咖啡了".
  {
    k: (value) => `avoids:${keyPart(value)}`,
    pattern: /(?:又|重新)开始(?:吃|喝)([\p{Script=Han}]{1,4}?)了/u,
    ends: true,
  },
];

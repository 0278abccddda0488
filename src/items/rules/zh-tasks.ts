// Chinese tasks (MemoryTypes v0.1 §3.4), from the user only: what the assistant tells the user to do
// ("记得办个ETC") is advice, not the user's to-do. Created by a list after 待办：or 要办的事：, 提醒我/记得/别忘了 and a present
// obligation (得/需要/必须, 要把…, 要交/要办/要去换…); closed by a done statement that names an open
// task (个税弄完了, 护照已经续好了, 体检表交了); dropped when it is no longer needed (那事不用办了).

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { findDate } from './dates.js';
import { projectOf } from './project.js';
import { emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';
import { bestTasks, findTask, titleAndDue } from './tasks.js';
import { cleanPhrase, idFrom } from './text.js';
import { clausesOf, type ZhClause } from './zh-clauses.js';

// Errands a plain 要 names as a to-do; 要 alone is also "want" and "will" (要去东京玩).
const ERRAND =
  '交|办|换|续|买|订|预约|约|打印|寄|还|缴|报名|填|提交|准备|做|写|改|修|补|取|拿|体检|退|申请|整理|清理|导|备份|挂|发|回复|联系|打电话|找|复习|复查|检查|洗|收拾|签|注册|登记|更新|修复|完成|处理|安排|确认|搬';
const OBLIGATION = new RegExp(
  `^(?:我们?)?([^，,]{0,8}?)(?:还|也|就|又|先|都|一定|必须)?(?:需要|必须|得(?=把|去|先|赶紧|尽快|马上|[${ERRAND.replace(/\|/gu, '')}])|要(?=把|(?:去|赶紧|尽快|先)?(?:${ERRAND})))`,
  'u',
);
const REMIND = /(?:^|[，,])(?:请)?(?:提醒我|别忘了|不要忘了|不要忘记|帮我记(?:一下|着|住)?|记得)(?:要)?/u;
const TIME_LEAD =
  /(?:前|后|时|内|之内|之前|以前|以后|的时候)$|^(?:这周|这个?月|下个?月|今天|明天|后天|今晚|周末|月底|年底|最近|现在|马上|回头|下周|本周|今年)$/u;
const FILLER = /^(?:一下|一声|下|哈+|啊|呀|哦|吧|呗|喔|嗷|噢|好吗|好不好)*$/u;

/** A title as a to-do reads: no leading 把, no trailing particles. */
function titleText(raw: string): string {
  return cleanPhrase(raw.replace(/^(?:赶紧|尽快|马上|先)?把/u, '')).replace(/(?:哈+|吧|啊|呀|哦|呗)+$/u, '');
}

function taskOf(context: SentenceContext, rule: Rule, raw: string, clause: string): ItemCandidate | undefined {
  const { title: cleaned, due: inTitle } = titleAndDue(context, raw, 'zh');
  const title = titleText(cleaned);
  const due = inTitle ?? findDate(clause, 'zh', context.date)?.date;
  // A bare verb ("休息") is no errand unless a date says when.
  // Something done with the assistant's help ("拿你的内容当参考") is a request, not an errand.
  if (title.length < 2 || (title.length < 3 && due === undefined) || /你|您/u.test(title)) return undefined;
  const project = projectOf(context).name;
  const taskId = idFrom(title, 6);
  if (taskId === '') return undefined;
  const key = findTask(context.memory, project, title, true) ?? makeKey('tasks', [project, taskId]);
  const value: Record<string, unknown> = {
    project,
    task_id: key.slice(key.lastIndexOf(':') + 1),
    title,
    status: 'todo',
  };
  if (due !== undefined) value['due'] = due;
  return emit(context, rule, { key, value });
}

const stated = (clause: ZhClause): boolean => clause.about === 'self' && !clause.unstated;

/** "提醒我…", "记得…": the clause after the cue, or with nothing there, the rest of the sentence. */
function reminders(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const found = REMIND.exec(context.text);
  if (found === null) return [];
  // 记得 after a subject is remembering, not a request ("老公记得我们的纪念日").
  if (found[0].endsWith('记得') && !/^[，,]?记得/u.test(found[0]) && found.index > 0) return [];
  const from = found.index + found[0].length;
  const rest = context.text.slice(from);
  const comma = rest.search(/[，,。！!；;]/u);
  const own = comma === -1 ? rest : rest.slice(0, comma);
  const raw = FILLER.test(cleanPhrase(own)) && comma !== -1 ? rest.slice(comma + 1) : own;
  const task = taskOf(context, rule, raw.replace(/[。！!]+$/u, ''), rest);
  return task === undefined ? [] : [task];
}

/** "这周要把它挂到闲鱼上", "还得把体检表交给驾校", "我周五前要交季度报告": one task per clause. */
function obligations(context: SentenceContext, rule: Rule): ItemCandidate[] {
  if (context.here.some((candidate) => candidate.type === 'tasks')) return [];
  const out: ItemCandidate[] = [];
  for (const clause of clausesOf(context.text)) {
    if (!stated(clause) || (clause.wish < clause.text.length && !/^[^想]*(?:需要|必须|得|要把)/u.test(clause.text)))
      continue;
    const found = OBLIGATION.exec(clause.text);
    if (found === null) continue;
    // What opens the clause is the task's object ("美术馆必须安排上") unless it is a time ("出发前").
    const lead = cleanPhrase(found[1] ?? '');
    const time = lead === '' || TIME_LEAD.test(lead) || findDate(lead, 'zh', context.date) !== undefined;
    // 得 after anything but a time is a complement ("控制得还行", "数学得补"), not "must".
    if (!time && found[0].endsWith('得')) continue;
    const object = time ? '' : lead;
    // An open errand said again by its thing ("护照必须搞定" after "得去续护照") is not a second task.
    if (object !== '' && findTask(context.memory, projectOf(context).name, object, false) !== undefined) continue;
    const raw = object + clause.text.slice(found.index + found[0].length);
    // A state to reach ("得减肥了"), not a thing to do; 把…了 is a thing done to something.
    if (/了[哈啊呀吧]*$/u.test(raw) && !/^(?:赶紧|尽快|马上|先)?把/u.test(raw)) continue;
    const task = taskOf(context, rule, raw, clause.text);
    if (task !== undefined && !out.some((known) => known.key === task.key)) out.push(task);
  }
  return out;
}

// How a clause says a task is done: the thing, then what was done to it ("个税弄完了", "护照已经续好了").
const DONE_VERBS = '弄|做|办|写|修|续|导|填|寄|搞|处理|准备|整理|清理|预约|约|买|订|换|还|卖|更新|改|交|发|好|完|清空';
const DONE = new RegExp(
  `^(?:我们?)?(?:终于|总算|已经)?(?:把)?(.+?)(?:已经|都|也|终于|总算|刚刚?)?(?:${DONE_VERBS})*(?:完成|搞定|办妥|好|完|掉|交|出去|清空|提交|寄出|付|缴)(?:了|啦)[哈啊呀！!~～]*$`,
  'u',
);
const CANCELLED =
  /^(?:我们?)?(.+?)(?:那事|这事|的事|那件事)?(?:也|就)?(?:不用|不需要|不必|用不着)(?:再)?(?:办|做|去|弄|交|续|换)?了[哈啊呀！!~～]*$|^(?:我们?)?(.+?)(?:取消了|不办了|不做了)$/u;
// A demonstrative and its measure word carry nothing of the task ("那台A7M3").
const DEMONSTRATIVE = /(?:那|这)(?:台|辆|个|件|份|本|把|部|张|些)?/gu;

function statusChanges(
  context: SentenceContext,
  rule: Rule,
  pattern: RegExp,
  change: (key: string) => ItemCandidate,
): ItemCandidate[] {
  const out: ItemCandidate[] = [];
  const project = projectOf(context).name;
  for (const clause of clausesOf(context.text)) {
    if (!stated(clause)) continue;
    const found = pattern.exec(clause.text);
    const named = found?.[1] ?? found?.[2];
    if (named === undefined) continue;
    const title = cleanPhrase(named.replace(DEMONSTRATIVE, ''));
    const keys = title === '' ? [] : bestTasks(context.memory, project, title, false);
    // Several open tasks fit as well ("保险续好了" with 车险 and 房屋险 open): each reading waits for a person.
    const why =
      keys.length > 1 ? `"${title}" matches ${keys.length} open tasks equally: ${keys.join(', ')}` : undefined;
    for (const key of keys)
      if (!out.some((known) => known.key === key))
        out.push(why === undefined ? change(key) : { ...change(key), review: why });
  }
  return out;
}

/**
 * Words without which a Chinese sentence closes, drops or ends nothing the user told before (a task
 * done, an errand no longer needed, a thing sold, a job left): what tells the writer to load the
 * current keys.
 */
export const ZH_STATUS_CUE =
  /(?:好|完|掉|交|定|妥|清空|出去|提交|寄出|付|缴)(?:了|啦)|不用|不需要|不必|用不着|取消|不办|不做|辞职|离职|卖|出掉|送人|又开始|重新开始|不吃了|不喝了|停了/u;

const taskRule = (name: string, trigger: RegExp, match: Rule['match'], questions = false): Rule => ({
  name,
  languages: ['zh'],
  roles: USER_ONLY,
  type: 'tasks',
  confidence: 0.85,
  gate: 'must',
  trigger,
  ...(questions ? { questions: true } : {}),
  match,
});

// A list of errands after a colon: "这个月要办的事：换驾照，交报销单，还有帮我爸预约手术", "要搞定三件事：…", "待办：…".
const LIST_HEAD =
  /(?:待办(?:事项)?|todo|(?:要|得|需要)(?:办|做|搞定|处理|弄|忙)(?:的)?(?:[一二两三四五六七八九十几\d]+件)?(?:事|事情)(?:有|是)?)\s*[：:]\s*/iu;
const LIST_SEPARATOR = /[，,、；;]|还有|以及|另外/u;

/** The errands of a list after a colon, one task each; a list of one is a single errand ("待办：交房租"). */
function listedTasks(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const found = LIST_HEAD.exec(context.text);
  if (found === null) return [];
  const rest = context.text.slice(found.index + found[0].length).replace(/[。！!？?]+$/u, '');
  const out: ItemCandidate[] = [];
  for (const part of rest.split(LIST_SEPARATOR)) {
    const item = part.replace(/^(?:然后|再|和|跟|也)/u, '').trim();
    if (item === '') continue;
    const task = taskOf(context, rule, item, item);
    if (task !== undefined && !out.some((known) => known.key === task.key)) out.push(task);
  }
  return out;
}

export const ZH_TASK_RULES: readonly Rule[] = [
  taskRule('zh.task.daiban', /[：:]/u, listedTasks),
  taskRule('zh.task.tixing', /提醒我|忘|记/u, reminders, true),
  taskRule('zh.task.xuyao', /需要|得|必须|要/u, obligations),
  taskRule('zh.task.done', /了/u, (context, rule) =>
    statusChanges(context, rule, DONE, (key) =>
      emit(context, rule, { key, value: { task_id: key.slice(key.lastIndexOf(':') + 1), status: 'done' } }),
    ),
  ),
  taskRule('zh.task.cancelled', /不用|不需要|不必|用不着|取消|不办|不做/u, (context, rule) =>
    statusChanges(context, rule, CANCELLED, (key) => emit(context, rule, { key, action: 'retract', value: {} })),
  ),
];

// Tasks being created (MemoryTypes v0.1 §3.4): "TODO:", "I need to…", "remind me to…", "待办…",
// "我需要…". The task id is a slug of the title's content words, so a later status change
// ("the docs update is done") finds the same key; see task-status.ts. An open task is injected
// into every packet, so the English rules are strict: a present obligation of the speaker ("I need
// to…", not "I got to…" or "how much work we have to do") and a request to be reminded ("remind me
// to…", not "it reminds me of…" or "don't forget to enjoy the journey").

import { stemmer } from 'stemmer';

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey, slug } from '../keys.js';
import { findDate } from './dates.js';
import { projectOf } from './project.js';
import { emit, USER_ONLY, type ExtractionMemory, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase, clauseEnd, contentWords, hasHan, idFrom, matchTokens, shorten } from './text.js';

/** Titles and descriptions are one line of a task or goal, not a paragraph. */
const TITLE_MAX = 200;

// Verbs shared by many tasks: two titles sharing only "update" are different tasks.
const TASK_VERBS: ReadonlySet<string> = new Set(
  (
    'update fix write add make create finish review check send do get set test build run clean move remove delete prepare ' +
    'call email book buy read plan ship deploy merge start complete draft submit refactor implement publish release ' +
    '更新 修复 完成 编写 写好 提交 发送 准备 检查 部署 合并 发布 修改 添加 删除 处理'
  ).split(' '),
);

// Words that name a task rather than what it is about: "the passport task is done".
const TASK_NOUNS: ReadonlySet<string> = new Set([
  'task',
  'todo',
  'thing',
  'stuff',
  'item',
  'ticket',
  'job',
  'errand',
  '任务',
  '事情',
]);

/** A title's tokens for matching a status change to its task: stems, without the word "task". */
function statusTokens(title: string): Set<string> {
  return new Set(
    matchTokens(title)
      .filter((token) => !TASK_NOUNS.has(token))
      .map((token) => (hasHan(token) ? token : stemmer(token))),
  );
}

/**
 * The key of a task already known or produced whose title matches `title`: all tokens equal
 * (`exact`), or, for a status change, at least half of the shorter title's words (by stem: "renewed
 * my passport" names "renew passport before the trip") including one that is not a common verb.
 * Ties prefer the same project; a tie beyond that matches nothing (never guess: see bestTasks).
 */
export function findTask(memory: ExtractionMemory, project: string, title: string, exact: boolean): string | undefined {
  const best = bestTasks(memory, project, title, exact);
  return best.length === 1 ? best[0] : undefined;
}

/**
 * The keys of the known or produced tasks that match `title` best (findTask's reading): one, none,
 * or several tied ("the insurance is renewed" with car and home insurance both open).
 *
 * @example
 * bestTasks(memory, 'general', 'insurance renewed', false) // ['task:general:renew_car_insurance', 'task:general:renew_home_insurance']
 */
export function bestTasks(memory: ExtractionMemory, project: string, title: string, exact: boolean): string[] {
  const tokens = exact ? new Set(matchTokens(title)) : statusTokens(title);
  if (tokens.size === 0) return [];
  const projectSlug = slug(project);
  const scored: Array<readonly [string, number]> = [];
  for (const key of memory.keysWith('task:')) {
    const [, keyProject, id] = key.split(':');
    const other = exact ? new Set(matchTokens(id ?? '')) : statusTokens(id ?? '');
    let shared = 0;
    let sharedNoun = false;
    for (const token of other) {
      if (!tokens.has(token)) continue;
      shared += 1;
      if (!TASK_VERBS.has(token) && !TASK_VERBS.has(stemmer(token))) sharedNoun = true;
    }
    const overlap = exact
      ? shared / Math.max(tokens.size, other.size)
      : shared / Math.max(1, Math.min(tokens.size, other.size));
    if (exact ? overlap < 1 : overlap < 0.5 || !sharedNoun) continue;
    scored.push([key, overlap + (keyProject === projectSlug ? 0.01 : 0)]);
  }
  const top = Math.max(0, ...scored.map(([, score]) => score));
  return scored.filter(([, score]) => score === top).map(([key]) => key);
}

const EN_DUE_BEFORE = /\s*(?:,\s*)?(?:by|before|on|until|till|due|no later than|for)?\s*$/i;
const ZH_DUE_BEFORE = /(?:在|于|截止到?|最晚)?$/u;
const ZH_DUE_AFTER = /^(?:之前|以前|前|截止)?/u;

export interface Titled {
  title: string;
  due?: string;
}

/** A task or goal title without its due date and project phrase, and the due date it named. */
export function titleAndDue(context: SentenceContext, object: string, language: Language): Titled {
  let title = object;
  const project = projectOf(context);
  if (project.span !== undefined) title = title.replace(context.text.slice(project.span[0], project.span[1]), ' ');
  const mention = findDate(title.toLowerCase(), language, context.date);
  if (mention === undefined) return { title: shorten(cleanPhrase(title), TITLE_MAX) };
  const before = title.slice(0, mention.index).replace(language === 'zh' ? ZH_DUE_BEFORE : EN_DUE_BEFORE, '');
  // After the day, a comma starts another thought ("by end of October, always leave it late"),
  // unless it joins another thing to do (", and also do the transfer at DVLA").
  const after = title
    .slice(mention.index + mention.length)
    .replace(language === 'zh' ? ZH_DUE_AFTER : /^\s*,(?!\s*(?:and|also|then|plus)\b).*$/su, '');
  return {
    title: shorten(cleanPhrase(`${before}${language === 'zh' ? '' : ' '}${after}`), TITLE_MAX),
    due: mention.date,
  };
}

interface CreationSpec {
  name: string;
  language: Language;
  confidence: number;
  trigger: RegExp;
  pattern: RegExp;
  /** Least content words (English) or characters (Chinese) of a title with no due date. */
  minimum: number;
  questions?: boolean;
  /** True when the match is not a task after all, from the text before it and the clause after it. */
  reject?: (found: RegExpExecArray, before: string, object: string) => boolean;
  /** What the message must already have produced for the match to be a task. */
  after?: (context: SentenceContext) => boolean;
  /** Where the object splits into several things to do (default: a second errand joined by "and"). */
  split?: RegExp;
}

// Verbs of errands: what may start a second thing to do joined to the first.
const ERRAND = String.raw`(?:get|buy|book|call|email|send|draft|write|finish|file|pick up|renew|cancel|clean|fix|sort out|pay|check|find|return|order|submit|prepare|apply|register|clear|update|bring|collect|arrange|organi[sz]e|print|sign|schedule|pack|post|ring|text|reply to|take)\b`;
// Two things to do joined in one obligation: "buy a gift, and get my dress altered", "finish the
// reviews and also draft the roadmap". Only a verb of errands starts the second.
const JOINED_TASK = new RegExp(String.raw`\s*,?\s+and\s+(?:also\s+|then\s+|still\s+)?(?=${ERRAND})`, 'giu');
// The same, a sentence later: "I need to get the gutters cleared. and file my tax return by October".
const JOINED_SENTENCE = new RegExp(
  String.raw`^(?:oh\s+)?(?:and|also|plus)\s+(?:also\s+|then\s+|still\s+)?(?=${ERRAND})`,
  'iu',
);

/** Whether the message has produced a task of the user's before this sentence. */
const taskBefore = (context: SentenceContext): boolean =>
  context.memory.produced.some(
    (candidate) =>
      candidate.type === 'tasks' &&
      candidate.value['status'] === 'todo' &&
      candidate.source_event_ids.includes(context.event.event_id),
  );

function createTask(context: SentenceContext, rule: Rule, spec: CreationSpec): ItemCandidate[] {
  const found = spec.pattern.exec(context.text);
  if (found === null || spec.after?.(context) === false) return [];
  const from = found.index + found[0].length;
  const object = context.text.slice(from, clauseEnd(context.text, from));
  if (spec.reject?.(found, context.text.slice(0, found.index), object) === true) return [];
  const parts = context.language === 'en' ? object.split(spec.split ?? JOINED_TASK) : [object];
  return parts.flatMap((part) => taskOf(context, rule, spec, part));
}

function taskOf(context: SentenceContext, rule: Rule, spec: CreationSpec, object: string): ItemCandidate[] {
  const { title, due } = titleAndDue(context, object, context.language);
  const size = context.language === 'zh' ? title.length : contentWords(title).length;
  if (title === '' || (due === undefined && size < spec.minimum)) return [];
  const project = projectOf(context).name;
  const taskId = idFrom(title, 6);
  if (taskId === '') return [];
  const key = findTask(context.memory, project, title, true) ?? makeKey('tasks', [project, taskId]);
  const value: Record<string, unknown> = {
    project,
    task_id: key.slice(key.lastIndexOf(':') + 1),
    title,
    status: 'todo',
  };
  if (due !== undefined) value['due'] = due;
  return [emit(context, rule, { key, value })];
}

// The user's own tasks, from the user's words: an assistant's "I need to…" is its own, and its "don't
// forget to…" or to-do list is advice; a task the assistant records doing arrives as a tool result.
function creationRule(spec: CreationSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: USER_ONLY,
    type: 'tasks',
    confidence: spec.confidence,
    gate: 'must',
    trigger: spec.trigger,
    ...(spec.questions === true ? { questions: true } : {}),
    match: (context, rule) => createTask(context, rule, spec),
  };
}

// "I need to…": the speaker's present obligation, never a past one ("I got to feed a horse", "I had
// to", "I needed to" are not read at all). Figures of speech ("I have to say", "we need to talk")
// and reactions to someone else's news ("I need to try that!") are not tasks; "must have" and
// "must be" are guesses ("I must have left it at home").
// Chat drops the subject at the start of a clause: "Need to take the laptop in for repair this week"
// (not "Got to meet the team today!", a chance taken).
const EN_NEED_TO =
  /(?:\b(?:I|we)(?:['’]ve\s+got\s+to|\s+(?:still\s+|really\s+|also\s+|definitely\s+)?(?:(?:need|have)\s+to|have\s+got\s+to|must(?!\s+(?:have|be)\b)))|(?:^|(?<=[,;.!?]\s|\s[-–—]\s))(?:still\s+|really\s+|also\s+|and\s+)?(?:need\s+to|have\s+to|gotta))\s+(?!say\b|know\b|admit\b|agree\b|ask\b|wonder\b|talk\b|think\b|be honest\b|go\b|leave\b|sleep\b|rest\b|run\b|dash\b|head\s+(?:off|out)\b|get\s+(?:back\s+to\s+(?:work|it)|going)\b|tell\s+you\b|thank\b|confess\b|laugh\b|hand\s+it\s+to\b|(?:try|check|see|watch|read|visit|get)\s+(?:[\w'-]+\s+)?(?:that|this|it|those|these|them|one)(?:\s+out)?\s*(?:[.!,;]|$))(?=\w)/i;

// A frame of mind the speaker means to keep, not a thing to do: "Gotta stay resilient and focused",
// "I need to keep making a difference", "we need to show our support however we can", "I have to
// be patient". A place or a time after the verb is a plan ("I have to stay at the office until 8",
// "I need to be at the airport by 6") and stays a task, as does keeping on at a named thing ("keep
// building the app", "keep everything in one folder"): only the words of encouragement are listed.
const EN_FRAME_OF_MIND =
  /^\s*(?:(?:stay|remain|be|keep)\s+(?:(?:more|really|so|super|very|extra|strong\s+and|positive\s+and)\s+)?(?:resilient|strong|safe|focused|positive|calm|patient|humble|motivated|healthy|grateful|thankful|open(?:-minded)?|careful|hydrated|consistent|organi[sz]ed|sane|sharp|optimistic|hopeful|brave|confident|determined|dedicated|disciplined|productive|present|kind|true|tough|grounded|balanced|mindful)\b|keep\s+(?:going|pushing|trying|fighting|smiling|moving\s+forward|learning|growing|believing|hoping|dreaming|making\s+a\s+difference|working\s+hard|it\s+up|at\s+it|the\s+faith|my\s+head\s+up|my\s+chin\s+up)\b|(?:believe|trust)\s+in\s+(?:myself|ourselves|yourself|the\s+process)\b|(?:focus|concentrate)\s+on\s+(?:success|the\s+positives?|the\s+good|myself|ourselves|the\s+future|what\s+matters|why|the\s+big\s+picture)\b|show\s+(?:our|my|some|them\s+our|them\s+my)\s+support\b)/i;

// The subject of "I need to" inside a question ("do we have to…"), a condition or time clause ("if I
// have to…", "when we have to…"), a noun phrase ("how much work we still have to do", "all I need
// to do is", "so much I need to learn") or reported words ("it reminds me we need to…"): the words
// just before it say so.
const EN_NEED_TO_EMBEDDED =
  /\b(?:what|whatever|how|all|everything|anything|something|nothing|much|many|lot|lots|things?|stuff|which|if|when|whenever|unless|whether|once|until|till|than|do|does|did|don't|doesn't|didn't|should|shouldn't|would|wouldn't|could|couldn't|can|can't|will|won't|might|why|where)\s+(?:[\w'’]+\s+){0,2}$|\b(?:remind(?:s|ed|ing)|show(?:s|ed|ing)|teach(?:es|ing)|taught|tell(?:s|ing)|told)\s+me\s+(?:that\s+)?$/i;

// "have to do" with nothing done: the object was a noun before it ("the work we have to do for…");
// or a thing not named ("I need to correct something lol", "I have to tell you something").
const EN_EMPTY_DO =
  /^\s*do\s*(?:$|[.,;:!?]|(?:for|with|about|to|in|on|at|by|from|and|but|or|so|before|after|until|here|there|now|today|anymore)\b)|^\s*[\w'-]+(?:\s+(?:you|u))?\s+(?:something|anything|stuff|smth|sth)\b(?:\s+(?:lol|haha|first|quickly|real quick))*\s*(?:$|[.,;:!?])/i;

// Where a request starts: the sentence, or a clause after punctuation, then fillers and politeness
// ("Oh, and please remind me…", "Can you remind me…"); a subject before the verb makes it a
// description ("they remind me to…", "I don't forget to…").
const EN_REQUEST_START = String.raw`(?:^|[,;:.!?]|\s[-–—])[\s"'“‘(]*(?:(?:oh|hey|ok|okay|and|also|so|but|then|btw|now|please|pls|plz|just|(?:can|could|would|will)\s+you)[\s,]+)*`;
// A day between "remind me" and "to" stays in the title, where titleAndDue reads it as the due date.
const EN_REMIND_DAY = String.raw`(?:today|tonight|tomorrow|the\s+day\s+after\s+tomorrow|(?:(?:next|this|on)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))`;
const EN_REMIND = new RegExp(
  String.raw`${EN_REQUEST_START}(?:remind\s+me\s+(?:(?:to|about)\s+|(?=${EN_REMIND_DAY}\s+(?:to|about)\s))` +
    String.raw`|(?:don['’]t|do\s+not|dont)\s+(?:let\s+me\s+forget\s+(?:to\s+|about\s+)?|(?<advice>forget\s+(?:to|about)\s+)))`,
  'i',
);

// "Don't forget to…" said as advice or a kind word to the listener, not a thing to do.
const EN_ADVICE =
  /^\s*(?:enjoy|relax|rest|smile|breathe|laugh|stay|be|live|love|believe|trust|celebrate|appreciate|cherish|chill|unwind|pace|treat|dream|have\s+(?:some\s+|lots\s+of\s+|a\s+lot\s+of\s+)?fun|have\s+a\s+(?:good|great|nice|wonderful|lovely)|take\s+(?:care|it\s+easy|(?:a\s+|some\s+)?(?:breaks?|time|rest)|(?:(?:some|lots\s+of|plenty\s+of|a\s+few|many)\s+)?(?:(?:nice|great|good|cute|lovely|beautiful)\s+)?(?:pictures|photos|pics)\b(?!\s+of))|look\s+after|keep\s+(?:smiling|going|pushing|it\s+up|your\s+(?:head|chin)\s+up)|get\s+(?:enough|some|plenty\s+of)\s+(?:sleep|rest)|prepare\s+(?:yourself|emotionally)|follow\s+your|focus\s+on\s+yourself|make\s+time\s+for\s+yourself)\b|\byourself\b|\byourselves\b/i;

// A list of things to do: "adulting list for jan: renew my passport, get the boiler serviced, and pay
// the deposit", "stuff hanging over me: the insurance claim, clearing the gutters…". Each item is one.
const EN_TODO_LIST =
  /\b(?:(?:to-?do|adulting|errands?|chores?|admin|life admin)\s+list|list\s+of\s+(?:things|stuff|errands|chores)(?:\s+to\s+do)?|things\s+(?:I\s+(?:need|have)\s+to\s+do|to\s+do|on\s+my\s+plate)|(?:stuff|things)\s+hanging\s+over\s+me|my\s+(?:errands|chores))(?:\s+(?:for|this|next)\s+[\p{L}\p{N}\s]{1,20}?)?\s*:\s*/iu;
const LIST_ITEM = /\s*,\s*(?:and\s+|then\s+)?|\s+and\s+(?:then\s+)?/u;

export const TASK_CREATION_RULES: readonly Rule[] = [
  creationRule({
    name: 'en.task.todo',
    language: 'en',
    confidence: 0.9,
    trigger: /\btodo\b|\bto-do\b|\bto do\s*:/,
    pattern: /(?:\b(?:todo|to-do|to do)\s*[:\-–]\s*|^todo\s+)/i,
    minimum: 1,
  }),
  creationRule({
    name: 'en.task.need-to',
    language: 'en',
    confidence: 0.8,
    trigger: /\b(?:need|have|got) to\b|\bmust\b|\bgotta\b/,
    pattern: EN_NEED_TO,
    minimum: 2,
    reject: (_, before, object) =>
      EN_NEED_TO_EMBEDDED.test(before) || EN_EMPTY_DO.test(object) || EN_FRAME_OF_MIND.test(object),
  }),
  creationRule({
    name: 'en.task.list',
    language: 'en',
    confidence: 0.75,
    trigger: /list|to-?do|things|stuff|errands|chores/,
    pattern: EN_TODO_LIST,
    minimum: 2,
    questions: true,
    split: LIST_ITEM,
  }),
  creationRule({
    name: 'en.task.joined',
    language: 'en',
    confidence: 0.75,
    trigger: /^(?:oh )?(?:and|also|plus)\b/,
    pattern: JOINED_SENTENCE,
    minimum: 2,
    after: taskBefore,
  }),
  creationRule({
    name: 'en.task.remind',
    language: 'en',
    confidence: 0.85,
    trigger: /remind me|forget/,
    pattern: EN_REMIND,
    minimum: 1,
    questions: true,
    reject: (found, _, object) => found.groups?.['advice'] !== undefined && EN_ADVICE.test(object),
  }),
];

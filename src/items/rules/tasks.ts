// Tasks being created (MemoryTypes v0.1 §3.4): "TODO:", "I need to…", "remind me to…", "待办…",
// "我需要…". The task id is a slug of the title's content words, so a later status change
// ("the docs update is done") finds the same key; see task-status.ts.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey, slug } from '../keys.js';
import { findDate } from './dates.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, type ExtractionMemory, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase, clauseEnd, contentWords, idFrom, matchTokens, shorten } from './text.js';

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

/**
 * The key of a task already known or produced whose title matches `title`: all tokens equal
 * (`exact`), or at least half of them shared including one that is not a common verb. Ties
 * prefer the same project; a tie beyond that matches nothing (never guess).
 */
export function findTask(memory: ExtractionMemory, project: string, title: string, exact: boolean): string | undefined {
  const tokens = new Set(matchTokens(title));
  if (tokens.size === 0) return undefined;
  const projectSlug = slug(project);
  const scored: Array<readonly [string, number]> = [];
  for (const key of memory.keysWith('task:')) {
    const [, keyProject, id] = key.split(':');
    const other = new Set(matchTokens(id ?? ''));
    let shared = 0;
    let sharedNoun = false;
    for (const token of other) {
      if (!tokens.has(token)) continue;
      shared += 1;
      if (!TASK_VERBS.has(token)) sharedNoun = true;
    }
    const overlap = shared / Math.max(tokens.size, other.size);
    if (exact ? overlap < 1 : overlap < 0.5 || !sharedNoun) continue;
    scored.push([key, overlap + (keyProject === projectSlug ? 0.01 : 0)]);
  }
  const top = Math.max(0, ...scored.map(([, score]) => score));
  const best = scored.filter(([, score]) => score === top);
  return best.length === 1 ? best[0]![0] : undefined;
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
  const after = title.slice(mention.index + mention.length).replace(language === 'zh' ? ZH_DUE_AFTER : /^/, '');
  return { title: shorten(cleanPhrase(`${before}${language === 'zh' ? '' : ' '}${after}`), TITLE_MAX), due: mention.date };
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
}

function createTask(context: SentenceContext, rule: Rule, spec: CreationSpec): ItemCandidate[] {
  const found = spec.pattern.exec(context.text);
  if (found === null) return [];
  const from = found.index + found[0].length;
  const { title, due } = titleAndDue(context, context.text.slice(from, clauseEnd(context.text, from)), context.language);
  const size = context.language === 'zh' ? title.length : contentWords(title).length;
  if (title === '' || (due === undefined && size < spec.minimum)) return [];
  const project = projectOf(context).name;
  const taskId = idFrom(title, 6);
  if (taskId === '') return [];
  const key = findTask(context.memory, project, title, true) ?? makeKey('tasks', [project, taskId]);
  const value: Record<string, unknown> = { project, task_id: key.slice(key.lastIndexOf(':') + 1), title, status: 'todo' };
  if (due !== undefined) value['due'] = due;
  return [emit(context, rule, { key, value })];
}

function creationRule(spec: CreationSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: CONVERSATION,
    type: 'tasks',
    confidence: spec.confidence,
    gate: 'must',
    trigger: spec.trigger,
    ...(spec.questions === true ? { questions: true } : {}),
    match: (context, rule) => createTask(context, rule, spec),
  };
}

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
    trigger: /\b(?:need|have|got) to\b|\bmust\b/,
    // "I have to say", "we need to talk": figures of speech, not tasks.
    pattern: /\b(?:I|we)(?:'ve\s+got\s+to|\s+(?:still\s+|really\s+|also\s+|definitely\s+)?(?:(?:need|have|got)\s+to|must))\s+(?!say\b|admit\b|agree\b|ask\b|wonder\b|talk\b|think\b|be honest\b|go\b|leave\b|sleep\b|rest\b)(?=\w)/i,
    minimum: 2,
  }),
  creationRule({
    name: 'en.task.remind',
    language: 'en',
    confidence: 0.85,
    trigger: /remind me|forget/,
    pattern: /\bremind\s+me\s+(?:to\s+|about\s+)?|\b(?:don't|do not|dont)\s+(?:let\s+me\s+)?forget\s+(?:to\s+|about\s+)?/i,
    minimum: 1,
    questions: true,
  }),
  creationRule({
    name: 'zh.task.daiban',
    language: 'zh',
    confidence: 0.9,
    trigger: /待办|todo/u,
    pattern: /(?:待办(?:事项)?|todo|TODO)\s*[：:]?\s*/u,
    minimum: 2,
  }),
  creationRule({
    name: 'zh.task.xuyao',
    language: 'zh',
    confidence: 0.8,
    trigger: /需要|得|必须/u,
    pattern: /我们?(?:还|也|必须)?(?:需要|得|必须)/u,
    minimum: 4,
  }),
  creationRule({
    name: 'zh.task.tixing',
    language: 'zh',
    confidence: 0.85,
    trigger: /提醒我|忘|记得/u,
    pattern: /提醒我|别忘了|不要忘了|不要忘记|记得/u,
    minimum: 2,
    questions: true,
  }),
];

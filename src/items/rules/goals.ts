// Goals (MemoryTypes v0.1 §3.3): long-term aims the user states — "my goal is…", "I want to… by
// <date>", "we aim to…", "我的目标是…". The goal's name is a slug of its content words; the project
// is the one named ("our goal for Atlas is…"), else the sentence's project.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { projectOf } from './project.js';
import { emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { clauseEnd, idFrom } from './text.js';
import { titleAndDue } from './tasks.js';

interface GoalSpec {
  name: string;
  language: Language;
  confidence: number;
  trigger: RegExp;
  pattern: RegExp;
  /** A capture group naming the project ("our goal for <Atlas> is"). */
  projectGroup?: number;
  /** Only with a target date ("I want to … by June"): a want without one is not a goal. */
  needsDate?: boolean;
}

function goalOf(context: SentenceContext, rule: Rule, spec: GoalSpec): ItemCandidate[] {
  const found = spec.pattern.exec(context.text);
  if (found === null) return [];
  const from = found.index + found[0].length;
  const { title, due } = titleAndDue(
    context,
    context.text.slice(from, clauseEnd(context.text, from)),
    context.language,
  );
  if (title === '' || (spec.needsDate === true && due === undefined)) return [];
  const named = spec.projectGroup === undefined ? undefined : found[spec.projectGroup];
  const project = named !== undefined && /^\p{Lu}/u.test(named) ? named : projectOf(context).name;
  const name = idFrom(title, 4);
  if (name === '') return [];
  const value: Record<string, unknown> = { project, name, description: title, status: 'active' };
  if (due !== undefined) value['due'] = due;
  return [emit(context, rule, { key: makeKey('goals', [project, name]), value })];
}

function goalRule(spec: GoalSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: USER_ONLY,
    type: 'goals',
    confidence: spec.confidence,
    gate: 'may',
    trigger: spec.trigger,
    match: (context, rule) => goalOf(context, rule, spec),
  };
}

export const GOAL_RULES: readonly Rule[] = [
  goalRule({
    name: 'en.goal.statement',
    language: 'en',
    confidence: 0.85,
    trigger: /\b(?:goal|aim|objective|target)\b/,
    pattern:
      /\b(?:my|our|the)\s+(?:main\s+|primary\s+|long[- ]term\s+|ultimate\s+|big\s+|key\s+|overall\s+)?(?:goal|aim|objective)\s+(?:for\s+(?:the\s+)?([\p{L}\p{N} _.-]{1,40}?)\s+)?(?:is|are|will be)\s+(?:to\s+)?/iu,
    projectGroup: 1,
  }),
  goalRule({
    name: 'en.goal.want-by',
    language: 'en',
    confidence: 0.75,
    trigger: /\b(?:want|like|hope|plan) to\b/,
    pattern: /\b(?:I|we)\s+(?:want|'d like|would like|hope|plan)\s+to\s+/i,
    needsDate: true,
  }),
  goalRule({
    name: 'en.goal.aim',
    language: 'en',
    confidence: 0.8,
    trigger: /\baim|\bintend|\bstriving|working towards?/,
    pattern:
      /\b(?:we|I)(?:'re| are| am|'m)?\s+(?:aim(?:ing)?|intend(?:ing)?|striving|working towards?)\s+(?:to\s+|for\s+)?/i,
  }),
  goalRule({
    name: 'zh.goal.mubiao',
    language: 'zh',
    confidence: 0.85,
    trigger: /目标/u,
    pattern: /(?:我的|我们的|今年的|长期|主要|最终|总体)*目标(?:是|就是)/u,
  }),
  goalRule({
    name: 'zh.goal.xiang',
    language: 'zh',
    confidence: 0.75,
    trigger: /想|希望|打算|计划|争取/u,
    pattern: /我们?(?:想要?|希望|打算|计划|争取)/u,
    needsDate: true,
  }),
];

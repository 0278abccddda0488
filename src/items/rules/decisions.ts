// Decisions (MemoryTypes v0.1 §3.5): "we decided…", "let's go with…", "we'll use…", "I chose…",
// "决定…", "我们用…". The topic is what was decided about — the "for <topic>" the sentence names,
// else the kind of thing chosen (database, hosting), else the choice's words — so a revised
// decision on the same topic is a new version of the same key.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { decisionTopicOf } from './lexicon.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, type Language, type Rule, type SentenceContext } from './rule.js';
import { cleanPhrase, clauseEnd, idFrom, shorten } from './text.js';

interface DecisionSpec {
  name: string;
  language: Language;
  confidence: number;
  trigger: RegExp;
  pattern: RegExp;
  /** Words put before the choice so the decision reads whole ("we'll use Vercel" → "use Vercel"). */
  prefix?: string;
  /**
   * The pattern's (first matched) group is the verb of choosing, kept before the choice instead of a prefix:
   * "I chose headphones from Sennheiser" is the decision "chose headphones from Sennheiser", and
   * "I chose to go to networking events" is not "use go to networking events".
   */
  keepsVerb?: boolean;
}

// "for <topic>" up to the next preposition: "Vitest for tests in the repo" → "tests".
const EN_FOR_TOPIC =
  /\s(?:for|as)\s+(?:the\s+|our\s+|my\s+|all\s+|a\s+|an\s+)?([\p{L}\p{N}-]+(?:\s+(?!(?:in|on|at|with|from|by|to|of|and|because|since|until|before|after)\b)[\p{L}\p{N}-]+){0,3})/iu;
const ZH_FOR_TOPIC = /(?:来做|来当|做|作为|用于|用来做?|当作?)([^，,。.！!；;]{1,12})$/u;
const EN_CHOICE_VERB =
  /^(?:use|using|go with|adopt|switch to|move to|migrate to|stick with|pick|choose|build|keep)\s+/i;
const RATIONALE_EN = /\b(?:because|since|so that)\s+([^.;!?]+)/i;
const RATIONALE_ZH = /(?:因为|由于|为了)([^。！!；;]+)/u;

function topicOf(choice: string, language: Language): { topic: string; choice: string } {
  const named = (language === 'zh' ? ZH_FOR_TOPIC : EN_FOR_TOPIC).exec(choice);
  if (named?.[1] !== undefined) {
    const topic = idFrom(named[1], 3);
    if (topic !== '') return { topic, choice };
  }
  const kind = decisionTopicOf(choice.toLowerCase());
  if (kind !== undefined) return { topic: kind, choice };
  return { topic: idFrom(choice.replace(EN_CHOICE_VERB, ''), 3), choice };
}

/**
 * The choice after the verb that chose it, with the article or demonstrative cleanPhrase dropped
 * from its head: "picked a date and go hiking", not "picked date and go hiking".
 *
 * @example
 * withVerb('Picked', 'that spot because it had views', 'spot') // 'picked that spot'
 */
function withVerb(verb: string, clause: string, choice: string): string {
  const at = clause.indexOf(choice);
  const head = at < 0 ? choice : clause.slice(0, at + choice.length).trim();
  return `${verb.toLowerCase().replace(/\s+/gu, ' ')} ${head}`;
}

function decisionOf(context: SentenceContext, rule: Rule, spec: DecisionSpec): ItemCandidate[] {
  const found = spec.pattern.exec(context.text);
  if (found === null) return [];
  const from = found.index + found[0].length;
  const clause = context.text.slice(from, clauseEnd(context.text, from));
  const raw = shorten(cleanPhrase(clause), 300);
  if (raw === '') return [];
  const project = projectOf(context);
  const withoutProject =
    project.span === undefined
      ? raw
      : cleanPhrase(raw.replace(context.text.slice(project.span[0], project.span[1]), ' '));
  const { topic } = topicOf(withoutProject, context.language);
  if (topic === '') return [];
  const verb = spec.keepsVerb === true ? found.slice(1).find((group) => group !== undefined) : undefined;
  const decision = verb === undefined ? `${spec.prefix ?? ''}${raw}` : withVerb(verb, clause, raw);
  const value: Record<string, unknown> = { project: project.name, topic, decision, made_at: context.date };
  const rationale = (context.language === 'zh' ? RATIONALE_ZH : RATIONALE_EN).exec(context.text.slice(from));
  if (rationale?.[1] !== undefined) value['rationale'] = cleanPhrase(rationale[1]);
  return [emit(context, rule, { key: makeKey('decisions', [project.name, topic]), value })];
}

function decisionRule(spec: DecisionSpec): Rule {
  return {
    name: spec.name,
    languages: [spec.language],
    roles: CONVERSATION,
    type: 'decisions',
    confidence: spec.confidence,
    gate: 'must',
    trigger: spec.trigger,
    match: (context, rule) => decisionOf(context, rule, spec),
  };
}

export const DECISION_RULES: readonly Rule[] = [
  decisionRule({
    name: 'en.decision.decided',
    language: 'en',
    confidence: 0.9,
    trigger: /\bdecided\b|\bdecision\b/,
    pattern:
      /\b(?:(?:we|i|the team|they)\s+(?:have\s+|'ve\s+|just\s+|finally\s+|already\s+)*decided\s+(?:to\s+|that\s+(?:we(?:'ll| will| should)?\s+)?|on\s+)?|(?:the\s+|our\s+|final\s+)?decision\s*(?:is|was|:)\s*(?:to\s+|that\s+)?)/i,
  }),
  decisionRule({
    name: 'en.decision.go-with',
    language: 'en',
    confidence: 0.85,
    trigger: /\blet'?s (?:go with|use|pick|stick with)|\bgoing with\b/,
    pattern: /\blet'?s\s+(go\s+with|use|pick|stick\s+with)\s+|\bwe(?:'re| are)\s+(going\s+with)\s+/i,
    keepsVerb: true,
  }),
  decisionRule({
    name: 'en.decision.will-use',
    language: 'en',
    confidence: 0.85,
    trigger: /\bwe(?:'ll| will|'re going to| are going to) use\b/,
    // "We'll use the following steps" explains, it does not decide.
    pattern:
      /\bwe(?:'ll| will|'re going to| are going to)\s+use\s+(?!(?:the\s+)?following\b|this\b|these\b|that\b|those\b|it\b|them\b|some\b|a few\b)/i,
    prefix: 'use ',
  }),
  decisionRule({
    name: 'en.decision.chose',
    language: 'en',
    confidence: 0.85,
    trigger: /\b(?:chose|picked|selected|went with|settled on|opted for)\b/,
    // "I picked up a few recipes" got them; "I chose them" names no choice out of its context; "we
    // went with my parents" went along with them.
    pattern:
      /\b(?:I|we|the team)\s+(?:have\s+|'ve\s+|finally\s+)?(chose(?:\s+to(?=\s))?|picked|selected|went\s+with(?!\s+(?:me|us|him|her|them|my|our|his|their|friends|family)\b)|settled\s+on|opted\s+for)\s+(?!(?:up|it|them|him|her|one)\b)/i,
    keepsVerb: true,
  }),
  decisionRule({
    name: 'zh.decision.jueding',
    language: 'zh',
    confidence: 0.9,
    trigger: /决定|定了|确定/u,
    // "这个决定很明智" speaks of a decision; it does not make one.
    pattern:
      /(?:我们|我|团队|大家)?(?:最终|已经|最后)?(?<!这个|那个|的)(?:决定|确定)(?![很真太挺是对好不])了?(?:要)?|(?:就这么)?定了[：:，,]?/u,
  }),
  decisionRule({
    name: 'zh.decision.yong',
    language: 'zh',
    confidence: 0.85,
    trigger: /用|选/u,
    pattern: /我们(?:就|还是|最终|最后)?(?:用|使用|采用|选用|选择|选)|^(?:那)?就(?:用|选)/u,
    prefix: '用',
  }),
];

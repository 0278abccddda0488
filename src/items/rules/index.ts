// The rule-based extractor: MemoryTypes v0.1 items from a turn's messages and tool results with no
// language model, in English and Chinese. Deterministic and cheap enough to run inside every
// commit: each sentence is checked for silence (small talk, venting, speculation), then one
// combined keyword test decides whether any rule family is worth running at all.

import { EngramError } from '../../spec/errors.js';
import type { ExtractionEvent, ExtractionInput, Extractor, ItemCandidate } from '../../spec/items.js';
import { sentences, wellFormed } from '../../util/segment.js';
import { eventDate } from './dates.js';
import { DECISION_RULES } from './decisions.js';
import { REF_CUE, REF_RULES, REF_SCAN } from './entities.js';
import { EVENT_RULES } from './events.js';
import { GOAL_RULES } from './goals.js';
import { NAME_RULE, NameTracker } from './names.js';
import { PREFERENCE_RULES } from './preferences.js';
import { PROFILE_RULES } from './profile.js';
import { EN_RETRACTION, retract, ZH_RETRACTION } from './retractions.js';
import type { ExtractionMemory, Language, Rule, SentenceContext } from './rule.js';
import { silenceOf } from './speculation.js';
import { TASK_STATUS_RULES } from './task-status.js';
import { TASK_CREATION_RULES } from './tasks.js';
import { hasHan } from './text.js';
import { TOOL_RULE, toolCandidates } from './tool-results.js';

export type { Rule, SentenceContext } from './rule.js';
export { silenceOf } from './speculation.js';

export interface RuleExtractorOptions {
  /** The project of tasks, decisions, goals and events whose sentence names none. Default `general`. */
  project?: string;
  /** Names of rules to leave out (for example `any.entity.name`). */
  disable?: readonly string[];
}

// Order matters: events defer to a task or goal made from the same sentence.
const SENTENCE_RULES: readonly Rule[] = [
  ...PROFILE_RULES,
  ...PREFERENCE_RULES,
  ...DECISION_RULES,
  ...TASK_CREATION_RULES,
  ...TASK_STATUS_RULES,
  ...GOAL_RULES,
  ...EVENT_RULES,
];

/**
 * Every rule, for documentation and provenance checks: name, languages, gate and confidence.
 *
 * @example
 * RULES.find((rule) => rule.name === 'en.preference.prefer')?.gate // 'may'
 */
export const RULES: readonly Rule[] = [EN_RETRACTION, ZH_RETRACTION, ...REF_RULES, NAME_RULE, ...SENTENCE_RULES, TOOL_RULE];

interface RuleSet {
  rules: readonly Rule[];
  /** Any rule's trigger: when it fails, no rule of the set can match. */
  any: RegExp;
}

function ruleSet(rules: readonly Rule[], language: Language): RuleSet {
  const own = rules.filter((rule) => rule.languages.includes(language));
  return { rules: own, any: new RegExp(own.map((rule) => `(?:${rule.trigger.source})`).join('|'), 'u') };
}

class Memory implements ExtractionMemory {
  readonly produced: ItemCandidate[] = [];
  lastKeys: readonly string[] = [];
  private readonly upserted = new Set<string>();
  private readonly retracted = new Set<string>();

  constructor(readonly known: ReadonlySet<string>) {}

  exists(key: string): boolean {
    return !this.retracted.has(key) && (this.known.has(key) || this.upserted.has(key));
  }

  keysWith(prefix: string): string[] {
    const out = new Set<string>();
    for (const key of this.known) if (key.startsWith(prefix) && !this.retracted.has(key)) out.add(key);
    for (const key of this.upserted) if (key.startsWith(prefix) && !this.retracted.has(key)) out.add(key);
    return [...out];
  }

  /** Records candidates; one repeating an earlier candidate exactly only adds its evidence to it. */
  record(candidates: readonly ItemCandidate[]): void {
    for (const candidate of candidates) {
      const same = this.produced.findLast((earlier) => earlier.key === candidate.key);
      if (same !== undefined && same.action === candidate.action && JSON.stringify(same.value) === JSON.stringify(candidate.value)) {
        for (const id of candidate.source_event_ids) if (!same.source_event_ids.includes(id)) same.source_event_ids.push(id);
        const evidence = same.evidence_refs ?? [];
        for (const ref of candidate.evidence_refs ?? []) if (evidence.length < 8 && ref.kind === 'event') evidence.push(ref);
        continue;
      }
      this.produced.push(candidate);
      if (candidate.action === 'retract') this.retracted.add(candidate.key);
      else {
        this.upserted.add(candidate.key);
        this.retracted.delete(candidate.key);
      }
    }
  }
}

const QUESTION = /[?？]\s*$/u;
const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;

/** Fenced code blanked out (offsets kept): "// TODO: handle errors" in a snippet is not a task. */
function withoutCode(text: string): string {
  if (!text.includes('```')) return text;
  return text.replace(FENCED_CODE, (code) => code.replace(/[^\n]/g, ' '));
}

/** Adds candidates a rule returned, skipping a key the sentence already has for the same action. */
function addAll(here: ItemCandidate[], found: readonly ItemCandidate[]): void {
  for (const candidate of found) {
    if (!here.some((known) => known.key === candidate.key && known.action === candidate.action)) here.push(candidate);
  }
}

/** Runs a rule; a key or value its match cannot build (odd input) means no candidate, not a failure. */
function run(rule: Rule, context: SentenceContext): readonly ItemCandidate[] {
  try {
    return rule.match(context, rule);
  } catch (error) {
    if (EngramError.isInstance(error)) return [];
    throw error;
  }
}

class Extraction {
  readonly memory: Memory;
  private readonly names = new NameTracker();

  constructor(
    input: ExtractionInput,
    private readonly sets: Readonly<Record<Language, RuleSet>>,
    private readonly project: string,
    private readonly namesOn: boolean,
  ) {
    this.memory = new Memory(new Set(input.known_keys ?? []));
  }

  event(event: ExtractionEvent): void {
    if (event.kind === 'tool_result' || event.role === 'tool') {
      this.memory.record(toolCandidates(event, this.memory));
      return;
    }
    if (event.text.trim() === '') return;
    const date = eventDate(event.ts);
    const text = withoutCode(wellFormed(event.text));
    let cursor = 0;
    for (const sentence of sentences(text)) {
      const found = text.indexOf(sentence, cursor);
      const start = found === -1 ? cursor : found;
      cursor = start + sentence.length;
      this.sentence(event, sentence, start, date);
    }
  }

  private sentence(event: ExtractionEvent, text: string, start: number, date: string): void {
    const lowered = text.toLowerCase();
    // Lower-casing that changes the length (rare letters such as İ) would shift offsets.
    const lower = lowered.length === text.length ? lowered : text;
    const chinese = hasHan(text);
    if (silenceOf(lower, chinese) !== undefined) return;
    const language: Language = chinese ? 'zh' : 'en';
    const here: ItemCandidate[] = [];
    let context: SentenceContext = {
      event,
      text,
      lower,
      start,
      end: start + text.length,
      language,
      question: QUESTION.test(text),
      date,
      defaultProject: this.project,
      memory: this.memory,
      here,
      probe: (statement) => this.probe(context, statement),
    };
    if (event.role === 'user') {
      const denied = retract(context);
      addAll(here, denied.candidates);
      if (denied.text !== text) context = { ...context, text: denied.text, lower: denied.lower };
    }
    if (REF_CUE.test(context.text)) addAll(here, run(REF_SCAN, context));
    if (this.namesOn) this.names.scan(context);
    const set = this.sets[language];
    if (set.any.test(context.lower)) {
      for (const rule of set.rules) {
        if (!rule.roles.includes(event.role) || (context.question && rule.questions !== true) || !rule.trigger.test(context.lower)) continue;
        addAll(here, run(rule, context));
      }
    }
    this.finish(here);
  }

  /** Links the sentence's candidates to the entities it names, records them, and remembers its keys. */
  private finish(here: ItemCandidate[]): void {
    if (here.length === 0) return;
    const entities = here.filter((candidate) => candidate.type === 'entities').map((candidate) => candidate.key);
    const facts = here.filter((candidate) => candidate.type !== 'entities');
    if (entities.length > 0) for (const candidate of facts) candidate.entities = [...new Set([...(candidate.entities ?? []), ...entities])];
    this.memory.record(here);
    const kept = facts.filter((candidate) => candidate.action === 'upsert').map((candidate) => candidate.key);
    if (kept.length > 0) this.memory.lastKeys = kept;
  }

  /** The positive rules' candidates for a reconstructed statement; nothing is recorded. */
  private probe(context: SentenceContext, statement: string): ItemCandidate[] {
    const lowered = statement.toLowerCase();
    const probe: SentenceContext = {
      ...context,
      text: statement,
      lower: lowered.length === statement.length ? lowered : statement,
      question: false,
      here: [],
      probe: () => [],
    };
    const out: ItemCandidate[] = [];
    for (const rule of this.sets[context.language].rules) {
      if (rule.type === 'events' || !rule.roles.includes(context.event.role) || !rule.trigger.test(probe.lower)) continue;
      addAll(out, run(rule, probe));
    }
    return out;
  }

  candidates(): ItemCandidate[] {
    if (this.namesOn) this.memory.record(this.names.candidates(this.memory));
    return this.memory.produced;
  }
}

/**
 * The rule-based extractor (`rules@1`): preferences, profile facts, goals, tasks and their status,
 * decisions, references and names, dated events, retractions and state-changing tool results,
 * from English and Chinese text, with no model.
 *
 * @example
 * const extractor = createRuleExtractor({ project: 'atlas' });
 * const candidates = await extractor.extract({ events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text: 'I prefer a formal tone.', ts: '2026-02-20T10:00:00Z' }] });
 * candidates[0]?.key // 'pref:writing:tone'
 */
export function createRuleExtractor(options: RuleExtractorOptions = {}): Extractor {
  const disabled = new Set(options.disable ?? []);
  const rules = SENTENCE_RULES.filter((rule) => !disabled.has(rule.name));
  const sets: Record<Language, RuleSet> = { en: ruleSet(rules, 'en'), zh: ruleSet(rules, 'zh') };
  const project = options.project ?? 'general';
  const namesOn = !disabled.has(NAME_RULE.name);
  return {
    specificationVersion: 'v1',
    name: 'rules@1',
    extract(input: ExtractionInput): ItemCandidate[] {
      const extraction = new Extraction(input, sets, project, namesOn);
      for (const event of input.events) extraction.event(event);
      return extraction.candidates();
    },
  };
}

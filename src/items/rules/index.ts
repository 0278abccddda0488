// The rule-based extractor: MemoryTypes v0.1 items from a turn's messages and tool results with no
// language model, in English and Chinese. Deterministic and cheap enough to run inside every
// commit: one pass over each sentence (literals.ts) tells which of the silence checks (small talk,
// venting, speculation) and which rules' triggers can match it at all; only those run.

import { EngramError } from '../../spec/errors.js';
import type { ExtractionEvent, ExtractionInput, Extractor, ItemCandidate } from '../../spec/items.js';
import { sentences, wellFormed } from '../../util/segment.js';
import { ANSWER_STYLE_RULES } from './answer-style.js';
import { eventDate } from './dates.js';
import { DATED_PLAN_RULES } from './dated-plans.js';
import { DECISION_RULES } from './decisions.js';
import { REF_CUE, REF_RULES, REF_SCAN } from './entities.js';
import { EDUCATION_RULES } from './education.js';
import { ENDING_RULES } from './endings.js';
import { EVENT_RULES } from './events.js';
import { GOAL_RULES } from './goals.js';
import { HEALTH_RULES } from './health.js';
import { HOME_PLACE_RULES } from './home-place.js';
import { ZH_HOME_PLACE_RULES } from './zh-home-place.js';
import { NAME_RULE, NameTracker } from './names.js';
import { OCCASION_RULES } from './occasions.js';
import { PLAN_CHANGE_RULES, PLAN_REDATED_RULES } from './plans.js';
import { POSSESSION_RULES } from './possessions.js';
import { REPLACEMENT_RULES } from './replacements.js';
import { PREFERENCE_RULES } from './preferences.js';
import { PROFILE_RULES } from './profile.js';
import { LiteralIndex } from './literals.js';
import { EN_RETRACTION, retract, ZH_RETRACTION } from './retractions.js';
import { Memory } from './memory.js';
import type { Language, Rule, SentenceContext } from './rule.js';
import { ROUTINE_RULES } from './routines.js';
import { readingOf, SILENCE_PATTERNS } from './speculation.js';
import { TASK_STATUS_RULES } from './task-status.js';
import { TASTE_RULES } from './tastes.js';
import { TASK_CREATION_RULES } from './tasks.js';
import { blank, endsWithQuestionMark, hasHan, isWellFormed } from './text.js';
import { TOOL_RULE, toolCandidates } from './tool-results.js';
import { ZH_PROFILE_RULE } from './zh-profile.js';
import { ZH_TASK_RULES } from './zh-tasks.js';

export type { Rule, SentenceContext } from './rule.js';
export { silenceOf } from './speculation.js';

export interface RuleExtractorOptions {
  /** The project of tasks, decisions, goals and events whose sentence names none. Default `general`. */
  project?: string;
  /** Names of rules to leave out (for example `any.entity.name`). */
  disable?: readonly string[];
}

// Order matters: a fact's end comes before a new fact of the same sentence, tastes defer to a
// preference, events to a task or goal made from the same sentence.
const SENTENCE_RULES: readonly Rule[] = [
  ...ENDING_RULES,
  ...REPLACEMENT_RULES,
  ...PROFILE_RULES,
  ...HOME_PLACE_RULES,
  ...HEALTH_RULES,
  ...POSSESSION_RULES,
  ...ROUTINE_RULES,
  ...EDUCATION_RULES,
  ...OCCASION_RULES,
  ZH_PROFILE_RULE,
  ...ZH_HOME_PLACE_RULES,
  ...PREFERENCE_RULES,
  ...ANSWER_STYLE_RULES,
  ...TASTE_RULES,
  ...DECISION_RULES,
  ...TASK_CREATION_RULES,
  ...TASK_STATUS_RULES,
  ...ZH_TASK_RULES,
  ...GOAL_RULES,
  ...PLAN_CHANGE_RULES,
  ...EVENT_RULES,
  ...DATED_PLAN_RULES,
  ...PLAN_REDATED_RULES,
];

/**
 * Every rule, for documentation and provenance checks: name, languages, gate and confidence.
 *
 * @example
 * RULES.find((rule) => rule.name === 'en.preference.prefer')?.gate // 'may'
 */
export const RULES: readonly Rule[] = [
  EN_RETRACTION,
  ZH_RETRACTION,
  ...REF_RULES,
  NAME_RULE,
  ...SENTENCE_RULES,
  TOOL_RULE,
];

interface RuleSet {
  rules: readonly Rule[];
  retraction: Rule;
  /**
   * Which expressions a sentence may match, from one pass over it: the silence patterns (first, as
   * silenceOf reads the mask), the retraction's trigger (at `silences`), then the rules' triggers.
   */
  literals: LiteralIndex;
  silences: number;
}

// Built once per language and list of rules: deriving the literal automaton takes a millisecond or two.
const RULE_SETS = new Map<string, RuleSet>();

function ruleSet(rules: readonly Rule[], language: Language): RuleSet {
  const own = rules.filter((rule) => rule.languages.includes(language));
  const key = `${language}:${own.map((rule) => rule.name).join(',')}`;
  const known = RULE_SETS.get(key);
  if (known !== undefined) return known;
  const retraction = language === 'zh' ? ZH_RETRACTION : EN_RETRACTION;
  const silences = SILENCE_PATTERNS[language];
  const literals = new LiteralIndex([...silences, retraction.trigger, ...own.map((rule) => rule.trigger)]);
  const set: RuleSet = { rules: own, retraction, literals, silences: silences.length };
  RULE_SETS.set(key, set);
  return set;
}

const NON_ASCII = /[^\0-\x7f]/;
const NO_RULES: readonly Rule[] = [];
// The pronoun written in lower case: "i", "i'm", "i've", "i'd", "i'll".
const LOWER_I = /(?<![\p{L}\p{N}'’])i(?=(?:['’](?:m|ve|d|ll))?(?![\p{L}\p{N}'’]))/gu;
const HEDGED_TAIL = /^[\s?？!！.。]*$/u;

const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;

/** Fenced code blanked out (offsets kept): "// TODO: handle errors" in a snippet is not a task. */
function withoutCode(text: string): string {
  if (!text.includes('```')) return text;
  return text.replace(FENCED_CODE, (code) => code.replace(/[^\n]/g, ' '));
}

/**
 * Adds candidates a rule returned, skipping a key the sentence already has for the same action;
 * profile facts of several rules (a denial, then the new fact) each count, in order.
 */
function addAll(here: ItemCandidate[], found: readonly ItemCandidate[]): void {
  for (const candidate of found) {
    const same = (known: ItemCandidate) =>
      known.key === candidate.key &&
      known.action === candidate.action &&
      (known.type !== 'profile' || known.rule === candidate.rule);
    if (!here.some(same)) here.push(candidate);
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

// Chat often starts a sentence in lower case ("I have asthma. any tips?"): a stop followed by a
// lower-case word ends a sentence too, unless the stop ends an abbreviation. Without it, the
// statement would be read as part of the question that follows and produce nothing.
const LOWER_CASE_BREAK =
  /(?<=[\p{L}\p{N})\]'"’”][.!?]+)(?<!\b(?:e\.g|i\.e|etc|vs|dr|mr|mrs|ms|st|no|approx|incl|jr|sr|co|inc|ltd)\.)\s+(?=\p{Ll})/iu;

// A question run onto a statement after a comma or a dash ("I live in Dublin, are there any good
// vegan places?"): the statement is read on its own, unless it is the condition of the question.
const RUN_ON_QUESTION =
  /(?:,|;|\s[—–-])\s+(?=(?:are|is|do|does|did|can|could|would|should|will|what|how|where|which|who|why|any|anything)\b[^,;—–]*\?\s*$)/iu;
const CONDITION =
  /^\W*(?:if|when|whenever|whether|once|unless|suppose|supposing|in case|what if|should|before|after|until)\b/iu;

function runOnQuestion(part: string): string[] {
  const found = RUN_ON_QUESTION.exec(part);
  if (found === null || CONDITION.test(part)) return [part];
  return [part.slice(0, found.index), part.slice(found.index + found[0].length)];
}

/**
 * A sentence split again where chat starts the next one in lower case, and where a question is run
 * onto a statement.
 *
 * @example
 * chatSentences('I have asthma. any tips?') // ['I have asthma.', 'any tips?']
 * chatSentences('Use a tool, e.g. a linter.') // ['Use a tool, e.g. a linter.']
 * chatSentences('I live in Dublin, are there good vegan places?') // ['I live in Dublin', 'are there good vegan places?']
 */
export function chatSentences(sentence: string): string[] {
  return sentence
    .split(LOWER_CASE_BREAK)
    .flatMap((part) => (part.trimEnd().endsWith('?') ? runOnQuestion(part) : [part]))
    .filter((part) => part.trim() !== '');
}

class Extraction {
  readonly memory: Memory;
  private readonly names = new NameTracker();
  private ts: string | undefined;
  private date = '';
  // The sentence whose rules are running: probes only happen inside them, so one function serves
  // every sentence instead of a closure made for each.
  private current: SentenceContext | undefined;
  private readonly probeCurrent = (statement: string): ItemCandidate[] => this.probe(this.current!, statement);

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
    // The events of one input mostly share their time.
    if (event.ts !== this.ts) {
      this.ts = event.ts;
      this.date = eventDate(event.ts);
    }
    const date = this.date;
    const text = withoutCode(isWellFormed(event.text) ? event.text : wellFormed(event.text));
    let cursor = 0;
    for (const sentence of sentences(text).flatMap(chatSentences)) {
      const found = text.indexOf(sentence, cursor);
      const start = found === -1 ? cursor : found;
      cursor = start + sentence.length;
      this.sentence(event, sentence, start, date);
    }
  }

  // Most sentences produce nothing, so a context is built only once some rule is worth running.
  private sentence(event: ExtractionEvent, written: string, start: number, date: string): void {
    const lowered = written.toLowerCase();
    // Lower-casing that changes the length (rare letters such as İ) would shift offsets.
    let lower = lowered.length === written.length ? lowered : written;
    // Plain ASCII spares the slow Unicode-property scans (Han, capitals).
    const ascii = !NON_ASCII.test(written);
    const chinese = !ascii && hasHan(written);
    const language: Language = chinese ? 'zh' : 'en';
    const set = this.sets[language];
    let may = set.literals.scan(lower);
    // The silence patterns come first: their bits are the first word's lowest.
    const reading = readingOf(lower, chinese, may[0]!);
    if (reading.silence !== undefined) return;
    // What a hedge governs is blanked (offsets kept); the rest of the sentence still states facts.
    // Chat writes the pronoun in lower case ("i'm a junior dev at Monzo"): the rules read it as "I".
    let text = language === 'en' ? written.replace(LOWER_I, 'I') : written;
    // A question whose asking clause a hedge governs ("…on the side, maybe too much?") asks nothing
    // of the statement before it.
    const last = reading.hedged.at(-1);
    const asked = endsWithQuestionMark(written) && (last === undefined || !HEDGED_TAIL.test(written.slice(last[1])));
    if (reading.hedged.length > 0) {
      for (const [from, to] of reading.hedged) {
        text = blank(text, from, to);
        lower = blank(lower, from, to);
      }
      if (!/[\p{L}\p{N}]/u.test(lower)) return;
      may = set.literals.scan(lower);
    }
    let context: SentenceContext | undefined;
    if (event.role === 'user' && LiteralIndex.may(may, set.silences) && set.retraction.trigger.test(lower)) {
      context = this.context(event, text, lower, start, date, language, asked);
      const denied = retract(context);
      addAll(context.here, denied.candidates);
      if (denied.text !== text) {
        context = { ...context, text: denied.text, lower: denied.lower, written: text };
        this.current = context;
        // Blanking can join words into new literals ("i no longer" → "i   "): scan again.
        lower = denied.lower;
        may = set.literals.scan(lower);
      }
    }
    // The sentence as the later rules read it: a denied clause blanked out.
    const visible = context?.text ?? text;
    if (REF_CUE.test(visible)) {
      context ??= this.context(event, text, lower, start, date, language, asked);
      addAll(context.here, run(REF_SCAN, context));
    }
    if (this.namesOn) this.names.scan({ event, start, text: visible, language }, ascii);
    const rules = LiteralIndex.anyFrom(may, set.silences + 1) ? set.rules : NO_RULES;
    for (let index = 0; index < rules.length; index += 1) {
      const rule = rules[index]!;
      if (!LiteralIndex.may(may, set.silences + 1 + index) || !rule.roles.includes(event.role)) continue;
      if ((asked && rule.questions !== true) || !rule.trigger.test(lower)) continue;
      context ??= this.context(event, text, lower, start, date, language, asked);
      addAll(context.here, run(rule, context));
    }
    if (context !== undefined) this.finish(context.here);
  }

  private context(
    event: ExtractionEvent,
    text: string,
    lower: string,
    start: number,
    date: string,
    language: Language,
    question: boolean,
  ): SentenceContext {
    const context: SentenceContext = {
      event,
      text,
      lower,
      start,
      end: start + text.length,
      language,
      question,
      date,
      defaultProject: this.project,
      memory: this.memory,
      here: [],
      probe: this.probeCurrent,
    };
    this.current = context;
    return context;
  }

  /** Links the sentence's candidates to the entities it names, records them, and remembers its keys. */
  private finish(here: ItemCandidate[]): void {
    if (here.length === 0) return;
    const entities = here.filter((candidate) => candidate.type === 'entities').map((candidate) => candidate.key);
    const facts = here.filter((candidate) => candidate.type !== 'entities');
    if (entities.length > 0)
      for (const candidate of facts) candidate.entities = [...new Set([...(candidate.entities ?? []), ...entities])];
    this.memory.record(here);
    const kept = facts.filter((candidate) => candidate.action === 'upsert').map((candidate) => candidate.key);
    if (kept.length > 0) this.memory.lastKeys = kept;
  }

  /** The positive rules' candidates for a reconstructed statement; nothing is recorded. */
  private probe(context: SentenceContext, statement: string): ItemCandidate[] {
    const lowered = statement.toLowerCase();
    // As in a sentence, later rules see what earlier ones found in the statement (and may defer to it).
    const out: ItemCandidate[] = [];
    const probe: SentenceContext = {
      ...context,
      text: statement,
      lower: lowered.length === statement.length ? lowered : statement,
      question: false,
      here: out,
      probe: () => [],
    };
    for (const rule of this.sets[context.language].rules) {
      if (rule.type === 'events' || !rule.roles.includes(context.event.role) || !rule.trigger.test(probe.lower))
        continue;
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

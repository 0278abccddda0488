// The contract every rule of the rule-based extractor follows, and the one place where a rule's
// match becomes an ItemCandidate (evidence span, salience, validity, the assistant discount), so the
// rule files only decide keys and values.

import type { EvidenceRef, ExtractionEvent, ItemCandidate, MemoryType, Salience } from '../../spec/items.js';

export type Language = 'en' | 'zh';
export type Speaker = ExtractionEvent['role'];

/** What one extraction has seen so far: the scope's current keys and the candidates produced. */
export interface ExtractionMemory {
  readonly known: ReadonlySet<string>;
  readonly produced: ItemCandidate[];
  /** Keys of the last sentence that produced candidates other than entities ("scratch that" denies them). */
  lastKeys: readonly string[];
  /** True when `key` is a current item or was upserted earlier in this input. */
  exists(key: string): boolean;
  /** Known and produced keys starting with `prefix`, known first, each once. */
  keysWith(prefix: string): string[];
}

/** Where a candidate's evidence is: an event and a span of its text. */
export interface Source {
  readonly event: ExtractionEvent;
  readonly start: number;
  readonly end: number;
}

/** What a rule sees: one sentence of one message, and what the extraction has produced so far. */
export interface SentenceContext extends Source {
  /** The sentence as written (possibly with a retracted clause blanked out). */
  readonly text: string;
  /** The sentence as written before a denied clause was blanked, when one was ("not 15 May anymore"). */
  readonly written?: string;
  /** The sentence in lower case, same length and offsets as `text`. */
  readonly lower: string;
  readonly language: Language;
  /** The sentence ends with a question mark. */
  readonly question: boolean;
  /** The event's calendar date (YYYY-MM-DD), the anchor of relative dates. */
  readonly date: string;
  readonly defaultProject: string;
  readonly memory: ExtractionMemory;
  /** Candidates produced from this sentence so far (later rules may defer to earlier ones). */
  readonly here: ItemCandidate[];
  /** Runs the positive rules on a reconstructed statement (for retractions). */
  readonly probe: (statement: string) => ItemCandidate[];
}

/**
 * One rule: a stable dotted name, the languages and speakers it reads, its claim to the retention
 * gate, a cheap trigger tested on the lower-cased sentence, and the match that builds candidates.
 * Rules whose candidates are built outside the sentence loop (tool results, repeated names, the
 * kinds of reference) have a match that returns nothing: they exist for their name, gate and
 * confidence, which the candidates carry.
 */
export interface Rule {
  readonly name: string;
  readonly languages: readonly Language[];
  readonly roles: readonly Speaker[];
  /** The type it produces (a retraction produces the type of the key it denies). */
  readonly type: MemoryType;
  readonly confidence: number;
  readonly gate: 'must' | 'may';
  /** Tested on `context.lower` before `match`; keep it a plain keyword alternation. */
  readonly trigger: RegExp;
  /** Whether the rule also reads questions ("Could you please use a formal tone?"). */
  readonly questions?: boolean;
  match(context: SentenceContext, rule: Rule): ItemCandidate[];
}

export const USER_ONLY: readonly Speaker[] = ['user'];
export const CONVERSATION: readonly Speaker[] = ['user', 'assistant'];
export const BOTH_LANGUAGES: readonly Language[] = ['en', 'zh'];

/** Defaults per type: decisions and tasks carry consequence, preferences reuse and some feeling. */
export const SALIENCE: Readonly<Record<MemoryType, Salience>> = {
  profile: { consequence: 0.5, emotional_charge: 0.3, reusability: 0.9 },
  preferences: { consequence: 0.4, emotional_charge: 0.5, reusability: 0.9 },
  goals: { consequence: 0.7, emotional_charge: 0.4, reusability: 0.8 },
  tasks: { consequence: 0.8, emotional_charge: 0.2, reusability: 0.6 },
  decisions: { consequence: 0.85, emotional_charge: 0.2, reusability: 0.7 },
  entities: { consequence: 0.3, emotional_charge: 0.1, reusability: 0.6 },
  events: { consequence: 0.6, emotional_charge: 0.3, reusability: 0.5 },
  cases: { consequence: 0.5, emotional_charge: 0.2, reusability: 0.7 },
  patterns: { consequence: 0.5, emotional_charge: 0.1, reusability: 0.8 },
  procedure: { consequence: 0.5, emotional_charge: 0.1, reusability: 0.8 },
};

// What the assistant says is weaker evidence than what the user says about their own work.
const ASSISTANT_DISCOUNT = 0.85;

export interface Emission {
  key: string;
  value: Record<string, unknown>;
  action?: 'upsert' | 'retract';
  /** Defaults to the rule's type. */
  type?: MemoryType;
  /** Defaults to the rule's confidence. */
  confidence?: number;
  /** Replaces the event-span evidence (names seen in several places). */
  evidence?: EvidenceRef[];
  /** Added after the event-span evidence (artifact URLs and files). */
  moreEvidence?: EvidenceRef[];
  salience?: Partial<Salience>;
  entities?: string[];
}

/**
 * The candidate for one match: provenance, evidence span of the sentence, salience defaults, and
 * for user-level facts (profile, preferences) the scope level and the time they hold from.
 *
 * @example
 * emit(context, rule, { key: 'pref:writing:tone', value: { scope: 'writing', name: 'tone', value: 'formal' } })
 */
export function emit(source: Source, rule: Rule, emission: Emission): ItemCandidate {
  const type = emission.type ?? rule.type;
  const base = emission.confidence ?? rule.confidence;
  const confidence = Math.round((source.event.role === 'assistant' ? base * ASSISTANT_DISCOUNT : base) * 100) / 100;
  const action = emission.action ?? 'upsert';
  const candidate: ItemCandidate = {
    action,
    type,
    key: emission.key,
    value: emission.value,
    confidence,
    rule: rule.name,
    gate: rule.gate,
    source_event_ids: [source.event.event_id],
    evidence_refs: emission.evidence ?? [
      { kind: 'event', ref: source.event.event_id, span: [source.start, source.end] },
      ...(emission.moreEvidence ?? []),
    ],
    salience: { ...SALIENCE[type], ...emission.salience },
  };
  if (type === 'preferences' || type === 'profile') candidate.scope_level = 'user';
  if (action === 'retract') candidate.valid_to = source.event.ts;
  else if (type === 'preferences' || type === 'profile') candidate.valid_from = source.event.ts;
  if (emission.entities !== undefined && emission.entities.length > 0) candidate.entities = emission.entities;
  return candidate;
}

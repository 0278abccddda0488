// What the rules of a reflection compare: the statements a run makes about keys (one per profile
// fact), turn by turn as the commit path extracts them, and the value each key had before, from the
// run or the scope's current items; with the shared helpers that turn them into proposals.

import type { EventRecord } from '../spec/event.js';
import type {
  ExtractionEvent,
  ExtractionInput,
  Extractor,
  ItemCandidate,
  MemoryItem,
  MemoryType,
  Salience,
} from '../spec/items.js';
import type { CandidateTarget, MemoryCandidate } from '../spec/reflection.js';
import { extractionEvents } from '../items/extraction-events.js';

/** One value the run states (or denies) for a key; a profile fact is its own statement. */
export interface Statement {
  /** The key, or `key (fact)` for a profile fact. */
  label: string;
  key: string;
  type: MemoryType;
  /** The value compared and shown ("concise"); undefined for types whose values are not compared. */
  principal: string | undefined;
  /** What writing it would write. */
  value: Record<string, unknown>;
  retract: boolean;
  confidence: number;
  salience: Partial<Salience>;
  events: string[];
  first: number;
  last: number;
}

/** The value a label has before some point of the run: its latest statement, else its current items. */
export interface Prior {
  label: string;
  principal: string;
  value: Record<string, unknown>;
  type: MemoryType;
  key: string;
  item_ids: string[];
  /** The item holds evidence from outside this run (it was said before). */
  earlier: boolean;
  events: string[];
}

/** A memory candidate of the run, what approving it writes, and where in the run it was said. */
export interface Proposal {
  /** The label a correction changes. */
  label?: string;
  memory: Omit<MemoryCandidate, 'source_episode_indexes'>;
  target: CandidateTarget;
  item_ids: string[];
  events: string[];
  at: number;
}

/** What the rules of a reflection read: the run's events and statements, and the values known before it. */
export interface RunContext {
  events: readonly EventRecord[];
  order: ReadonlyMap<string, number>;
  statements: readonly Statement[];
  known: ReadonlyMap<string, Prior>;
  extractor: Extractor;
  knownKeys: readonly string[];
}

/**
 * A score clamped to [0, 1] and rounded to two decimals.
 *
 * @example
 * r2(0.956) // 0.96
 */
export const r2 = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
/**
 * A value as compared: NFKC, lower case, punctuation and runs of spaces as one space.
 *
 * @example
 * norm('Dark  Mode!') // 'dark mode'
 */
export const norm = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\p{P}]+/gu, ' ')
    .trim();
/**
 * Two normalised values name the same thing: equal, or one (of 2+ characters) inside the other.
 *
 * @example
 * related('dark mode', 'dark') // true
 */
export const related = (a: string, b: string): boolean =>
  a === b || (Math.min(a.length, b.length) >= 2 && (a.includes(b) || b.includes(a)));
/**
 * A value as text: strings as they are, lists joined with commas, anything else as JSON.
 *
 * @example
 * show(['vim', 'emacs']) // 'vim, emacs'
 */
export const show = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? value.map(show).join(', ') : (JSON.stringify(value) ?? '');

/**
 * The candidates of a synchronous extractor (the rule extractor); an asynchronous one gives none.
 *
 * @example
 * const found = extractSync(extractor, { events: [probe], known_keys: [] });
 */
export function extractSync(extractor: Extractor, input: ExtractionInput): ItemCandidate[] {
  const result = extractor.extract(input);
  return Array.isArray(result) ? result : [];
}

/**
 * The rule candidates of a run, turn by turn as the commit path extracts them, each turn knowing the keys before it.
 *
 * @example
 * const candidates = extractRun(events, knownKeys, createRuleExtractor());
 */
export function extractRun(
  events: readonly EventRecord[],
  knownKeys: readonly string[],
  extractor: Extractor,
): ItemCandidate[] {
  const turnOf = new Map(events.map((event) => [event.id, event.turn_id ?? '']));
  const turns: ExtractionEvent[][] = [];
  let current: string | undefined;
  for (const event of extractionEvents(events)) {
    const turn = turnOf.get(event.event_id) ?? '';
    if (turns.length === 0 || turn !== current) turns.push([]);
    turns[turns.length - 1]!.push(event);
    current = turn;
  }
  const keys = new Set(knownKeys);
  const out: ItemCandidate[] = [];
  for (const turn of turns) {
    const found = extractSync(extractor, { events: turn, known_keys: [...keys] });
    for (const candidate of found) if (candidate.action === 'upsert') keys.add(candidate.key);
    out.push(...found);
  }
  return out;
}

// The field of a value that a new value disputes: a preference's value, a decision, a goal's description.
export const PRINCIPAL_FIELD: Partial<Record<MemoryType, string>> = {
  preferences: 'value',
  decisions: 'decision',
  goals: 'description',
  procedure: 'steps',
};

/** The compared value of a type: a preference's value, a decision, a goal's description, a procedure's steps. */
function principalOf(type: MemoryType, value: Record<string, unknown>): string | undefined {
  const field = PRINCIPAL_FIELD[type];
  const found = field === undefined ? undefined : value[field];
  return found === undefined || found === null || show(found) === '' ? undefined : show(found);
}

/** A value split into labelled parts: one per profile fact, else the value itself. */
function partsOf(
  key: string,
  type: MemoryType,
  value: Record<string, unknown>,
): Array<{ label: string; principal: string | undefined; value: Record<string, unknown>; cleared: boolean }> {
  if (type !== 'profile' || !Array.isArray(value['facts']))
    return [{ label: key, principal: principalOf(type, value), value, cleared: false }];
  return (value['facts'] as unknown[]).flatMap((fact) => {
    if (typeof fact !== 'object' || fact === null) return [];
    const { k, v } = fact as Record<string, unknown>;
    return [
      {
        label: `${key} (${show(k)})`,
        principal: v === null || v === undefined ? undefined : show(v),
        value: { subject: value['subject'] ?? 'user', facts: [fact] },
        cleared: v === null,
      },
    ];
  });
}

/**
 * The statements of rule candidates about the run's events, in log order of their first event.
 *
 * @example
 * const statements = statementsOf(candidates, order);
 */
export function statementsOf(candidates: readonly ItemCandidate[], order: ReadonlyMap<string, number>): Statement[] {
  const out: Statement[] = [];
  for (const candidate of candidates) {
    if (candidate.type === 'entities') continue;
    const at = candidate.source_event_ids
      .map((id) => order.get(id))
      .filter((index): index is number => index !== undefined);
    if (at.length === 0) continue;
    const events = [...new Set(candidate.source_event_ids.filter((id) => order.has(id)))];
    for (const part of partsOf(candidate.key, candidate.type, candidate.value)) {
      const retract = candidate.action === 'retract' || part.cleared;
      out.push({
        ...part,
        key: candidate.key,
        type: candidate.type,
        retract,
        confidence: candidate.confidence,
        salience: candidate.salience ?? {},
        events,
        first: Math.min(...at),
        last: Math.max(...at),
      });
    }
  }
  return out.sort((a, b) => a.first - b.first);
}

/**
 * Current values of the scope's shareable active items, by label.
 *
 * @example
 * const known = knownValues(items, new Set(order.keys()));
 */
export function knownValues(items: readonly MemoryItem[], runIds: ReadonlySet<string>): Map<string, Prior> {
  const out = new Map<string, Prior>();
  for (const item of items) {
    for (const part of partsOf(item.key, item.type, item.value)) {
      if (part.principal === undefined) continue;
      const earlier = item.source_event_ids.some((id) => !runIds.has(id));
      const same = out.get(part.label);
      if (same === undefined)
        out.set(part.label, {
          ...part,
          principal: part.principal,
          type: item.type,
          key: item.key,
          item_ids: [item.id],
          earlier,
          events: [],
        });
      else same.item_ids.push(item.id);
    }
  }
  return out;
}

/**
 * Every label's value just before log position `at`.
 *
 * @example
 * priorsAt(context, at).get('pref:writing:tone')?.principal // 'concise'
 */
export function priorsAt(context: RunContext, at: number): Map<string, Prior> {
  const out = new Map(context.known);
  for (const statement of context.statements) {
    if (statement.first >= at || statement.retract || statement.principal === undefined) continue;
    const items = context.known.get(statement.label)?.item_ids ?? [];
    out.set(statement.label, { ...statement, principal: statement.principal, item_ids: items, earlier: false });
  }
  return out;
}

/**
 * When a memory of a type applies: its scope, task type, project or topic, when it names one.
 *
 * @example
 * appliesWhen('procedure', { task_type: 'deploy_release' }) // ['deploy release']
 */
export function appliesWhen(type: MemoryType, value: Record<string, unknown>): string[] {
  const pick = (...fields: string[]): string[] => {
    const found = fields
      .map((field) => value[field])
      .find((v) => typeof v === 'string' && v !== '' && v !== 'other' && v !== 'general');
    return typeof found === 'string' ? [found.replace(/_/g, ' ')] : [];
  };
  if (type === 'preferences') return pick('scope', 'name');
  if (type === 'procedure') return pick('task_type');
  if (type === 'decisions' || type === 'goals' || type === 'tasks') return pick('project', 'topic', 'name');
  return [];
}

/**
 * The write that approving a candidate makes: an item of the type and key (user-level for
 * preferences and profile).
 *
 * @example
 * itemTarget('preferences', 'pref:writing:tone', value)
 */
export function itemTarget(type: MemoryType, key: string, value: Record<string, unknown>): CandidateTarget {
  return {
    write: 'item',
    type,
    key,
    value,
    ...(type === 'preferences' || type === 'profile' ? { scope_level: 'user' as const } : {}),
  };
}

// Scoring the memory-quality corpus, as pure functions: what a store holds as current, whether it
// holds an expected fact or still holds a stale one, which items are right, stale, someone else's
// words or junk, and whether a packet shows the right current memory.

import type { Fact, MemoryItem, MemoryPacket } from '../src/index.js';
import { describeValue } from '../src/index.js';
import type { CorpusFact, FactStatus, StaleText } from './memory-corpus.js';

/** Episodic items (what happened) are history, not a current fact: never stale, not judged for precision. */
const EPISODIC: ReadonlySet<string> = new Set(['events', 'cases']);

/** A current item as the scoring reads it. */
export interface HeldItem {
  id: string;
  type: string;
  /** Its key, value and sentence, lower case: what a prompt would show of it. */
  text: string;
  /** A task's state (open, done, cancelled); null for other items. */
  status: FactStatus | null;
  /** Every source is an assistant or tool message: nothing the user said. */
  assistantOnly: boolean;
  episodic: boolean;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(strings);
  return typeof value === 'number' || typeof value === 'boolean' ? [String(value)] : [];
}

/** A task's status, or a plan's (a goal or dated event whose value names one); null for items that have none. */
function statusOf(item: Pick<MemoryItem, 'type' | 'value'>): FactStatus | null {
  const status = item.value['status'];
  // A dated event is a plan still on until it is marked done or cancelled (events have no status field in MemoryTypes v0.1 §3.7).
  if (item.type === 'events' && typeof status !== 'string') return 'open';
  if (item.type !== 'tasks' && typeof status !== 'string') return null;
  return status === 'done' || status === 'completed'
    ? 'done'
    : status === 'cancelled' || status === 'canceled'
      ? 'cancelled'
      : 'open';
}

/**
 * An item as the scoring reads it; `userSaid` tells whether an event id is one of the user's messages.
 *
 * @example
 * heldItem(item, (id) => userEvents.has(id))
 */
export function heldItem(
  item: Pick<MemoryItem, 'id' | 'type' | 'key' | 'value' | 'source_event_ids'>,
  userSaid: (eventId: string) => boolean,
): HeldItem {
  const text = [item.key, describeValue(item.type, item.value), ...strings(item.value)].join(' ').toLowerCase();
  return {
    id: item.id,
    type: item.type,
    text,
    status: statusOf(item),
    assistantOnly: item.source_event_ids.length > 0 && !item.source_event_ids.some(userSaid),
    episodic: EPISODIC.has(item.type),
  };
}

function mentions(item: HeldItem, fact: Pick<CorpusFact, 'value' | 'status'>): boolean {
  return item.text.includes(fact.value.toLowerCase()) && (fact.status === undefined || item.status === fact.status);
}

/**
 * Whether some current item holds an expected fact (any type: a plan may be kept as an event). A
 * task's status has no "cancelled" (MemoryTypes v0.1 §3.4), so a cancelled task is held when it was
 * retracted: no current task names it and a retracted version of one does (`retracted`: the
 * conversation's retracted items).
 *
 * @example
 * holds(current, { kind: 'task', value: 'bursary', status: 'cancelled' }, retracted)
 */
export function holds(items: readonly HeldItem[], fact: CorpusFact, retracted: readonly HeldItem[] = []): boolean {
  if (items.some((item) => mentions(item, fact))) return true;
  if (fact.kind !== 'task' || fact.status !== 'cancelled') return false;
  const names = (item: HeldItem) => item.type === 'tasks' && item.text.includes(fact.value.toLowerCase());
  return !items.some(names) && retracted.some(names);
}

/** Whether some current fact (episodes aside) still holds a stale value. */
export function holdsStale(items: readonly HeldItem[], fact: CorpusFact): boolean {
  return items.some((item) => !item.episodic && mentions(item, fact));
}

/** What a current item is, judged against what the conversation says should be current. */
export type Verdict = 'right' | 'stale' | 'advice' | 'assistant' | 'junk';

/**
 * The verdict on one current, non-episodic item at the end of a conversation: right when it holds a
 * fact still expected, stale when it holds a value since made stale, advice when it holds the
 * assistant's advice, assistant when only the assistant said it, junk otherwise.
 *
 * @example
 * judge(item, { current: [{ kind: 'location', value: 'Lisbon' }], stale: [], advice: [] }) // 'right'
 */
export function judge(
  item: HeldItem,
  expected: { current: readonly CorpusFact[]; stale: readonly CorpusFact[]; advice: readonly string[] },
): Verdict {
  if (expected.current.some((fact) => item.text.includes(fact.value.toLowerCase()))) return 'right';
  if (expected.stale.some((fact) => mentions(item, fact))) return 'stale';
  if (expected.advice.some((advice) => item.text.includes(advice.toLowerCase()))) return 'advice';
  return item.assistantOnly ? 'assistant' : 'junk';
}

/**
 * The facts still expected at the end of a conversation, and the stale ones: an expected value
 * later named stale (same kind and value, any status) is stale, unless expected again after.
 *
 * @example
 * finalState([{ expect: [loc('Berlin')], stale: [] }, { expect: [loc('Lisbon')], stale: [loc('Berlin')] }]) // current: Lisbon; stale: Berlin
 */
export function finalState(turns: ReadonlyArray<{ expect: readonly CorpusFact[]; stale: readonly CorpusFact[] }>): {
  current: CorpusFact[];
  stale: CorpusFact[];
} {
  const key = (fact: CorpusFact) => `${fact.kind}\u0000${fact.value.toLowerCase()}`;
  const current = new Map<string, CorpusFact>();
  const stale = new Map<string, CorpusFact>();
  for (const turn of turns) {
    for (const fact of turn.stale) {
      current.delete(key(fact));
      stale.set(key(fact), fact);
    }
    for (const fact of turn.expect) {
      stale.delete(key(fact));
      current.set(key(fact), fact);
    }
  }
  return { current: [...current.values()], stale: [...stale.values()] };
}

/** How a packet answers one question: the right memory shown, and stale or assistant facts shown as current. */
export interface PacketAnswer {
  right: boolean;
  /** The right memory is among the packet's current facts, not only in quoted history (null: nothing to show). */
  as_fact: boolean | null;
  stale_shown: number;
  assistant_shown: number;
}

/** What the packet is judged against besides the question: the day it is asked, and the values still current. */
export interface AnswerContext {
  /** The day the question is asked (YYYY-MM-DD): a dated event before it is history, not a current fact. */
  asked: string;
  /** Every value the conversation still holds as current: a stale value inside one ("墨尔本" in "墨尔本大学") is not stale. */
  current: readonly string[];
}

/** Whether a packet fact is history: an event or case whose day is before the question's. */
function isHistory(fact: Pick<Fact, 'fact_key' | 'value'>, asked: string): boolean {
  const date =
    typeof fact.value === 'object' && fact.value !== null ? (fact.value as Record<string, unknown>)['date'] : undefined;
  return /^(?:event|case):/u.test(fact.fact_key) && typeof date === 'string' && date.slice(0, 10) < asked;
}

/** Whether a fact's text shows a stale value, past the current values that hold it as a part. */
function showsStale(text: string, stale: StaleText, current: readonly string[]): boolean {
  const value = stale.value.toLowerCase();
  let rest = text;
  for (const holder of current) {
    const lower = holder.toLowerCase();
    if (lower !== value && lower.includes(value)) rest = rest.split(lower).join(' ');
  }
  return rest.includes(value) && (stale.about === undefined || rest.includes(stale.about.toLowerCase()));
}

/**
 * Whether a packet shows what a question needs (`show`: anywhere in its rendered text, and among its
 * facts, by their key and text as rendered, rather than only in quoted passages) and how many of its current facts hold a stale value
 * (`not_current`) or only the assistant's words. A dated event before the day asked is history: it
 * may answer ("my birthday is on 11 January", told in January) but shows no stale value as current
 * ("I'm resigning from Infosys tomorrow", told in February).
 *
 * @example
 * answerOf(packet, rendered, { show: ['Lisbon'], not_current: [{ value: 'Berlin' }] }, (id) => userEvents.has(id), { asked: '2026-05-02', current: ['Lisbon'] })
 */
export function answerOf(
  packet: Pick<MemoryPacket, 'long_term'>,
  rendered: string,
  question: { show: readonly string[]; not_current: readonly StaleText[] },
  userSaid: (eventId: string) => boolean,
  context: AnswerContext,
): PacketAnswer {
  const shown = rendered.toLowerCase();
  const right = question.show.every((value) => shown.includes(value.toLowerCase()));
  let stale = 0;
  let assistant = 0;
  const current: string[] = [];
  for (const fact of packet.long_term.facts) {
    if (fact.status !== 'active') continue;
    // What the prompt shows of it: a shortened form keeps its whole value in the JSON, not in the text.
    const text = [fact.fact_key, fact.notes ?? ''].join(' ').toLowerCase();
    current.push(text);
    if (
      !isHistory(fact, context.asked) &&
      question.not_current.some((value) => showsStale(text, value, context.current))
    )
      stale += 1;
    if (fact.sources.length > 0 && !fact.sources.some(userSaid)) assistant += 1;
  }
  const asFact =
    question.show.length === 0
      ? null
      : question.show.every((value) => current.some((text) => text.includes(value.toLowerCase())));
  return { right, as_fact: asFact, stale_shown: stale, assistant_shown: assistant };
}

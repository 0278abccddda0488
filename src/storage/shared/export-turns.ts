// The events of an export with each turn right after the last of its events, so an import can write
// a turn and its events in one transaction. Shared by the SQL adapters, which give the pages of
// events and three reads of the turns table: turns by session and turn id, the insertion keys of the
// scope's turns, and turns by insertion key.

import type { ExportRecord } from '../../spec/export.js';
import type { SessionKey } from '../../spec/scope.js';

/** A turn record of an export. */
export type TurnRecord = Extract<ExportRecord, { kind: 'turn' }>;

/** A row of an export page: its insertion key (rowid, `seq`) and the record read from it. */
export interface KeyedRecord<T extends ExportRecord = ExportRecord> {
  key: number;
  record: T;
}

/** A turn named by its session and turn id. */
export interface TurnRef extends SessionKey {
  turn_id: string;
}

/** The reads of the turns table eventsWithTurns needs besides the pages of events. */
export interface TurnLookups {
  /** The stored turns among these (in any order; missing ones left out). */
  turnsOf(refs: readonly TurnRef[]): Promise<Array<KeyedRecord<TurnRecord>>>;
  /** The insertion keys of the scope's turns, in order, page by page. */
  turnKeys(): AsyncIterable<number[]>;
  /** The turns with these insertion keys. */
  turnsAt(keys: readonly number[]): Promise<Array<KeyedRecord<TurnRecord>>>;
}

/** A set of whole numbers kept as sorted ranges: turns are mostly written in their events' order. */
class KeyRanges {
  private readonly ranges: Array<[number, number]> = [];

  add(key: number): void {
    const last = this.ranges.at(-1);
    if (last !== undefined && key === last[1] + 1) last[1] = key;
    else if (last === undefined || key > last[1]) this.ranges.push([key, key]);
    else if (!this.has(key)) {
      this.ranges.splice(this.firstEndingAtOrAfter(key), 0, [key, key]);
    }
  }

  has(key: number): boolean {
    const range = this.ranges[this.firstEndingAtOrAfter(key)];
    return range !== undefined && range[0] <= key;
  }

  private firstEndingAtOrAfter(key: number): number {
    let low = 0;
    let high = this.ranges.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.ranges[middle]![1] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

const refKey = (ref: { user_id: string; agent_id: string; session_id: string; turn_id: string | null }) =>
  JSON.stringify([ref.user_id, ref.agent_id, ref.session_id, ref.turn_id]);

/** A turn whose listed events are being read: it follows the last of them. */
interface OpenTurn {
  turn: KeyedRecord<TurnRecord>;
  remaining: Set<string>;
}

/** Opens the turns of a page's events that are not open yet, when the event is one the turn lists. */
async function openTurns(
  page: readonly KeyedRecord[],
  open: Map<string, OpenTurn>,
  lookups: TurnLookups,
): Promise<void> {
  const wanted = new Map<string, TurnRef>();
  for (const { record } of page) {
    if (record.kind !== 'event' || record.event.turn_id === null) continue;
    const key = refKey(record.event);
    if (!open.has(key)) wanted.set(key, { ...record.event, turn_id: record.event.turn_id });
  }
  if (wanted.size === 0) return;
  const found = new Map(
    (await lookups.turnsOf([...wanted.values()])).map((turn) => [
      refKey({ ...turn.record.key, turn_id: turn.record.turn_id }),
      turn,
    ]),
  );
  for (const { record } of page) {
    if (record.kind !== 'event' || record.event.turn_id === null) continue;
    const key = refKey(record.event);
    const turn = found.get(key);
    const listed = turn?.record.result.events.map((event) => event.event_id) ?? [];
    // Only an event the turn lists opens it: an event the turn does not list never repeats it.
    if (turn !== undefined && !open.has(key) && listed.includes(record.event.id))
      open.set(key, { turn, remaining: new Set(listed) });
  }
}

/**
 * The events (pages in insertion order), each turn right after the last event it lists; then the
 * turns some of whose events are gone (purged when they expired); then, in insertion order, the
 * turns none of whose events were exported (bare turns, or every event purged).
 *
 * @example
 * yield* eventsWithTurns(eventPages, lookups);
 */
export async function* eventsWithTurns(
  events: AsyncIterable<KeyedRecord[]>,
  lookups: TurnLookups,
): AsyncGenerator<ExportRecord> {
  const open = new Map<string, OpenTurn>();
  const exported = new KeyRanges();
  for await (const page of events) {
    await openTurns(page, open, lookups);
    for (const { record } of page) {
      yield record;
      if (record.kind !== 'event' || record.event.turn_id === null) continue;
      const entry = open.get(refKey(record.event));
      if (entry === undefined || !entry.remaining.delete(record.event.id) || entry.remaining.size > 0) continue;
      exported.add(entry.turn.key);
      yield entry.turn.record;
      open.delete(refKey(record.event));
    }
  }
  for (const entry of open.values()) {
    exported.add(entry.turn.key);
    yield entry.turn.record;
  }
  for await (const keys of lookups.turnKeys()) {
    const rest = keys.filter((key) => !exported.has(key));
    if (rest.length === 0) continue;
    const turns = (await lookups.turnsAt(rest)).sort((a, b) => a.key - b.key);
    for (const { record } of turns) yield record;
  }
}

// Exporting a tenant (or one user of it) from the in-memory store: the events in the order written,
// each turn right after the last of its events (engram's eventsWithTurns), then every other kind in
// EXPORT_KINDS order, each in the order written. Derived data (chunks, full-text entries, vectors)
// and API keys are never exported.

import {
  EXPORT_KINDS,
  eventsWithTurns,
  ownerOf,
  type ExportKind,
  type ExportRecord,
  type ExportScope,
  type KeyedRecord,
  type TurnLookups,
  type TurnRecord,
} from '../../src/index.js';
import { copy, eventOut, itemOut, keys, type MemoryState, type RecordRow, type TurnRow } from './state.js';

/** A record of an export with the user it belongs to (null: none) and, for an item, its owner. */
interface Owned {
  tenant: string;
  user: string | null;
  owner?: string;
  record: () => ExportRecord;
}

/** Rows of a table as owned records, in the order written. */
function owned<R>(
  rows: R[],
  scope: (row: R) => { tenant_id: string; user_id: string | null },
  record: (row: R) => ExportRecord,
): Owned[] {
  return rows.map((row) => ({ tenant: scope(row).tenant_id, user: scope(row).user_id, record: () => record(row) }));
}

/** Rows holding one record each (with its tenant and user), as owned records made from a copy. */
function records<T extends { tenant_id: string; user_id: string | null }>(
  rows: Array<RecordRow<T>>,
  make: (record: T) => ExportRecord,
): Owned[] {
  return owned(
    rows,
    (row) => row.record,
    (row) => make(copy(row.record)),
  );
}

/** Every kind but events and turns (those come together, first), each table's rows as owned records. */
const SOURCES: Record<Exclude<ExportKind, 'event' | 'turn'>, (state: MemoryState) => Owned[]> = {
  working_state: (state) =>
    owned(
      state.workingStates.values(),
      (row) => row.key,
      (row) => ({ kind: 'working_state', key: copy(row.key), state: copy(row.record), updated_at: row.updated_at }),
    ),
  summary: (state) =>
    owned(
      state.summaries.values(),
      (row) => row.key,
      (row) => ({ kind: 'summary', key: copy(row.key), summary: copy(row.record) }),
    ),
  // A user's items: their user-level ones, and any other version recorded with their user_id.
  item: (state) =>
    state.items.values().map((row) => ({
      tenant: row.item.tenant_id,
      user: row.item.user_id,
      owner: row.owner,
      record: () => ({ kind: 'item', item: itemOut(row) }),
    })),
  context_build: (state) => records(state.builds.values(), (build) => ({ kind: 'context_build', build })),
  reflection: (state) => records(state.reflections.values(), (record) => ({ kind: 'reflection', record })),
  candidate: (state) => records(state.candidates.values(), (candidate) => ({ kind: 'candidate', candidate })),
  insight: (state) => records(state.insights.values(), (insight) => ({ kind: 'insight', insight })),
  run_state: (state) => records(state.runStates.values(), (run) => ({ kind: 'run_state', state: run })),
  ledger: (state) =>
    owned(
      state.ledger.values(),
      (row) => row.run,
      (row) => ({ kind: 'ledger', run: copy(row.run), entry: copy(row.entry) }),
    ),
  snapshot: (state) => records(state.snapshots.values(), (record) => ({ kind: 'snapshot', record })),
};

/** A turn as export lookups give it: its row number and its record. */
const turnRecord = (row: TurnRow): KeyedRecord<TurnRecord> => ({
  key: row.seq,
  record: { kind: 'turn', key: copy(row.key), turn_id: row.turn_id, result: copy(row.result) },
});

/** The turn lookups eventsWithTurns reads: turns by session and turn id, and the scope's turns in order. */
function turnLookups(state: MemoryState, scope: ExportScope): TurnLookups {
  const ofScope = state.turns
    .values()
    .filter(
      (row) =>
        row.key.tenant_id === scope.tenant_id && (scope.user_id === undefined || row.key.user_id === scope.user_id),
    );
  return {
    turnsOf: async (refs) =>
      refs.flatMap((ref) => {
        const row = state.turns.get(keys.turn({ ...ref, tenant_id: scope.tenant_id }, ref.turn_id));
        return row === undefined ? [] : [turnRecord(row)];
      }),
    turnKeys: async function* () {
      yield ofScope.map((row) => row.seq);
    },
    turnsAt: async (seqs) => {
      const wanted = new Set(seqs);
      return ofScope.filter((row) => wanted.has(row.seq)).map(turnRecord);
    },
  };
}

/**
 * Every record of the scope. `guard` throws once the store is closed; it is checked before each kind.
 *
 * @example
 * for await (const record of exportRecords(state, { tenant_id: 't1' }, guard)) lines.push(JSON.stringify(record));
 */
export async function* exportRecords(
  state: MemoryState,
  scope: ExportScope,
  guard: () => void,
): AsyncGenerator<ExportRecord> {
  const user = scope.user_id;
  const events = state.events
    .values()
    .filter((row) => row.event.tenant_id === scope.tenant_id && (user === undefined || row.event.user_id === user))
    .map((row): KeyedRecord => ({ key: row.seq, record: { kind: 'event', event: eventOut(row) } }));
  async function* page() {
    yield events;
  }
  yield* eventsWithTurns(page(), turnLookups(state, scope));
  const userOwner = user === undefined ? undefined : ownerOf('user', user, null);
  for (const kind of EXPORT_KINDS) {
    if (kind === 'event' || kind === 'turn') continue;
    guard();
    for (const row of SOURCES[kind](state))
      if (row.tenant === scope.tenant_id && (user === undefined || row.user === user || row.owner === userOwner))
        yield row.record();
  }
}

// Erasing a user, or one session of theirs, from the in-memory store (EraseScope): their events with
// their full-text entries and vectors, items with their chunks, session records, review and run
// records (of a session: those of every run it took part in), queued jobs; then the copies kept
// elsewhere: context builds that quoted erased data are redacted (engram's redactBuild), and items
// that stay lose the erased events from their sources (withoutErasedSources). Counts by table.

import {
  ownerOf,
  redactBuild,
  withoutErasedSources,
  type EraseCounts,
  type EraseScope,
  type EventRecord,
} from '../../src/index.js';
import type { EventWrites } from './events.js';
import { keyOf } from './journal.js';
import type { ItemWrites } from './items.js';
import { keys, type MemoryState } from './state.js';

/** Deletes the scope's rows and redacts the copies kept elsewhere; call inside a transaction. */
export function erase(state: MemoryState, events: EventWrites, items: ItemWrites, scope: EraseScope): EraseCounts {
  const { tenant_id: tenantId, user_id: userId, session_id: sessionId } = scope;
  const session = sessionId !== undefined;
  const inScope = (r: { tenant_id: string; user_id: string; session_id: string }) =>
    r.tenant_id === tenantId && r.user_id === userId && (!session || r.session_id === sessionId);

  // Read before anything goes: the scope's events, the runs a session took part in, its items, and its insights.
  const eventRows = state.events.values().filter((row) => inScope(row.event));
  const eventIds = new Set(eventRows.map((row) => row.event.id));
  const runs = session ? new Set(eventRows.map((row) => keyOf(row.event.agent_id, row.event.run_id))) : null;
  const ofRuns = (r: { tenant_id: string; user_id: string | null; agent_id: string | null; run_id: string }) =>
    runs !== null && r.tenant_id === tenantId && r.user_id === userId && runs.has(keyOf(r.agent_id, r.run_id));
  const userOwner = ownerOf('user', userId, null);
  const itemRows = state.items.values().filter((row) => {
    if (row.item.tenant_id !== tenantId || (row.item.user_id !== userId && row.owner !== userOwner)) return false;
    // A session erases the items whose every source is one of its events.
    const sources = row.item.source_event_ids;
    return !session || (sources.length > 0 && sources.every((id) => eventIds.has(id)));
  });
  const insightIds = state.insights
    .values()
    .filter(({ record }) => (session ? ofRuns(record) : record.tenant_id === tenantId && record.user_id === userId))
    .map(({ record }) => record.id);

  const counts: EraseCounts = { events: eventRows.length, memory_items: itemRows.length, memory_chunks: 0 };
  for (const row of eventRows) events.remove(row);
  for (const { item } of itemRows) {
    if (state.chunks.has(keys.byId(tenantId, item.id))) counts['memory_chunks']! += 1;
    items.deleteItem({ op: 'delete_item', tenant_id: tenantId, item_id: item.id });
  }
  counts['turns'] = state.turns.deleteWhere((row) => inScope(row.key));
  counts['working_state'] = state.workingStates.deleteWhere((row) => inScope(row.key));
  counts['stm_summary'] = state.summaries.deleteWhere((row) => inScope(row.key));
  // Session records go with their session, every record of the user with the user; a session's runs go whole.
  const ofUser = (r: { tenant_id: string; user_id: string }) => r.tenant_id === tenantId && r.user_id === userId;
  const sessionRecord = session ? inScope : ofUser;
  const runRecord = session ? ofRuns : ofUser;
  counts['context_builds'] = state.builds.deleteWhere(({ record }) => sessionRecord(record) || ofRuns(record));
  counts['candidates'] = state.candidates.deleteWhere(({ record }) => sessionRecord(record) || ofRuns(record));
  counts['reflections'] = state.reflections.deleteWhere(({ record }) => runRecord(record));
  counts['insights'] = state.insights.deleteWhere(({ record }) => runRecord(record));
  counts['run_states'] = state.runStates.deleteWhere(({ record }) => runRecord(record));
  counts['evidence_ledger'] = state.ledger.deleteWhere(({ run }) => runRecord(run));
  counts['snapshots'] = state.snapshots.deleteWhere(({ record }) => runRecord(record));
  counts['jobs'] = state.jobs.deleteWhere(({ record }) => {
    const of = (record.payload['scope'] ?? {}) as Record<string, unknown>;
    if (record.tenant_id !== tenantId || of['user_id'] !== userId) return false;
    return runs === null || runs.has(keyOf(String(of['agent_id']), String(of['run_id'])));
  });

  const erased = new Set([...eventIds, ...itemRows.map((row) => row.item.id), ...insightIds]);
  counts['context_builds_redacted'] = redactBuilds(state, tenantId, erased, {
    at: scope.at ?? new Date().toISOString(),
    erased: session ? 'session' : 'user',
  });
  if (session) counts['memory_items_sources_trimmed'] = trimSources(state, items, tenantId, userId, eventIds);
  return counts;
}

/** Redacts every build of the tenant left that cites an erased id; returns how many changed. */
function redactBuilds(
  state: MemoryState,
  tenantId: string,
  erased: ReadonlySet<string>,
  why: { at: string; erased: 'user' | 'session' },
): number {
  let changed = 0;
  for (const row of state.builds.values()) {
    if (row.record.tenant_id !== tenantId) continue;
    const redacted = redactBuild(row.record, erased, why);
    if (redacted === null) continue;
    state.builds.put(keys.byId(tenantId, row.record.id), { ...row, record: redacted });
    changed += 1;
  }
  return changed;
}

/** Takes the erased events out of the sources of the user's items that stay; returns how many changed. */
function trimSources(
  state: MemoryState,
  items: ItemWrites,
  tenantId: string,
  userId: string,
  erasedEvents: ReadonlySet<EventRecord['id']>,
): number {
  let changed = 0;
  for (const row of state.items.values()) {
    if (row.item.tenant_id !== tenantId || row.item.user_id !== userId) continue;
    const kept = withoutErasedSources(row.item, erasedEvents);
    if (kept === null) continue;
    items.replace(row, { item: { ...row.item, ...kept } });
    changed += 1;
  }
  return changed;
}

// The rows the export and erasure conformance suites write, and how they read an export back: two
// tenants, each with users whose rows of every kind sit in two sessions, plus each tenant's own
// items and API key; where an export record belongs, the op that imports it, and counts by kind.

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import type { ExportRecord, ExportScope } from '../spec/export.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import type { CommitTurnResult } from '../spec/requests.js';
import type { SessionKey } from '../spec/scope.js';
import { emptySummary } from '../spec/summary.js';
import { emptyWorkingState } from '../spec/working-state.js';
import { searchText } from '../util/segment.js';
import { appendEvent, eventRecord } from './event-record.js';
import { ledgerEntry, runState, snapshotRecord } from './run-records.js';
import { candidate, insight, reflection } from './reflection-records.js';
import { item } from './item-conformance.js';
import { build } from './run-conformance.js';

/** When the suites read: after every row was written. */
export const NOW = '2026-06-01T12:00:00.000Z';
const AT = '2026-06-01T10:00:00.000Z';
/** When rows are replaced and expiring events expire, between AT and NOW. */
export const LATER = '2026-06-01T11:00:00.000Z';

const append = appendEvent;

/** The item and a searchable chunk of it (word `kumquat` plus the owner's words). */
export function putItem(record: MemoryItem): WriteOp[] {
  const owner = ownerOf(record.scope_level, record.user_id, record.agent_id);
  const text = `kumquat ${record.key} ${owner.replace(':', ' ')}`;
  return [
    { op: 'put_item', item: record },
    {
      op: 'put_chunk',
      tenant_id: record.tenant_id,
      item_id: record.id,
      owner,
      text,
      search_text: searchText(text),
      embedding_status: 'pending',
    },
  ];
}

/** A stored turn's result with no events; a test lists its own. */
export function turnResult(key: SessionKey, turnId: string): CommitTurnResult {
  return {
    turn_id: turnId,
    scope: { ...key, run_id: 'r1' },
    recorded_at: AT,
    dry_run: false,
    replayed: false,
    events: [],
    working_state: { changed: true, state_version: 1 },
    summary: { version: 1, sentences_added: 1, key_quotes_added: 0 },
    gate: [],
    items: [],
    extraction_failures: [],
  };
}

/** Session rows of one session: a turn, a working state (replaced once), a summary, a build, a candidate. */
function sessionOps(key: SessionKey): WriteOp[] {
  const state = { ...emptyWorkingState(), goal: `goal of ${key.session_id}`, state_version: 1 };
  const run = { tenant_id: key.tenant_id, user_id: key.user_id, agent_id: key.agent_id, session_id: key.session_id };
  return [
    { op: 'insert_turn', key, turn_id: `turn-${key.session_id}`, result: turnResult(key, `turn-${key.session_id}`) },
    { op: 'put_working_state', key, state, expected_version: 0, updated_at: AT },
    {
      op: 'put_working_state',
      key,
      state: { ...state, goal: 'replaced', state_version: 2 },
      expected_version: 1,
      updated_at: LATER,
    },
    { op: 'put_summary', key, summary: { ...emptySummary(), version: 1, updated_at: AT }, expected_version: 0 },
    { op: 'put_context_build', build: build({ ...run, run_id: `r-${key.user_id}` }) },
    { op: 'put_candidate', candidate: candidate({ ...run, run_id: `r-${key.user_id}` }) },
  ];
}

/**
 * One user's rows of every kind, in sessions s1 and s2: events e1 (s1), e2 (s1, secret), e3 (s2),
 * e4 (s2, expired, not purged); items wholly sourced from s1 (two versions of one key, and an
 * agent-level item learned from the user), one sourced from both sessions, one with no sources.
 */
export function userOps(tenant: string, user: string): WriteOp[] {
  const scope = { tenant_id: tenant, user_id: user, namespace: `${tenant}/${user}/a1` };
  const e1 = eventRecord({ ...scope, content: `papaya ${user} first` });
  const e2 = eventRecord({ ...scope, content: `papaya ${user} secret`, sensitivity: 'secret' });
  const e3 = eventRecord({ ...scope, session_id: 's2', thread_id: 's2', content: `papaya ${user} second` });
  const e4 = eventRecord({
    ...scope,
    session_id: 's2',
    thread_id: 's2',
    content: `papaya ${user} gone`,
    expires_at: LATER,
  });
  const whole = item({ tenant_id: tenant, user_id: user, source_event_ids: [e1.id, e2.id] });
  const whole2 = item({
    tenant_id: tenant,
    user_id: user,
    version: 2,
    supersedes: whole.id,
    source_event_ids: [e2.id],
  });
  const run = { tenant_id: tenant, user_id: user, agent_id: 'a1', run_id: `r-${user}` };
  const key = (session_id: string): SessionKey => ({ tenant_id: tenant, user_id: user, agent_id: 'a1', session_id });
  return [
    ...[e1, e2, e3, e4].map(append),
    ...sessionOps(key('s1')),
    ...sessionOps(key('s2')),
    ...putItem(whole),
    {
      op: 'set_item_status',
      tenant_id: tenant,
      item_id: whole.id,
      expected_status: 'active',
      status: 'superseded',
      ended_at: LATER,
      updated_at: LATER,
    },
    ...putItem(whole2),
    ...putItem(item({ tenant_id: tenant, user_id: user, key: 'shell', source_event_ids: [e1.id, e3.id] })),
    ...putItem(item({ tenant_id: tenant, user_id: user, key: 'os', source_event_ids: [] })),
    ...putItem(
      item({
        tenant_id: tenant,
        user_id: user,
        scope_level: 'agent',
        key: `learned-${user}`,
        source_event_ids: [e1.id],
      }),
    ),
    { op: 'put_reflection', record: reflection({ ...run, session_id: 's1' }) },
    { op: 'put_insight', insight: insight({ ...run, session_id: 's1' }), expected_version: null },
    { op: 'put_run_state', state: runState(run), expected_version: 0 },
    { op: 'put_evidence', run, entries: [ledgerEntry('evd_1'), ledgerEntry('evd_2', { source_id: 'doc-1' })] },
    { op: 'put_snapshot', record: snapshotRecord(1, {}, run) },
  ];
}

/** A tenant's own rows: an agent-level and a tenant-level item (no user), and an API key. */
export function tenantOps(tenant: string): WriteOp[] {
  return [
    ...putItem(item({ tenant_id: tenant, user_id: null, scope_level: 'agent', key: 'style' })),
    ...putItem(item({ tenant_id: tenant, user_id: null, agent_id: null, scope_level: 'tenant', key: 'policy' })),
    {
      op: 'put_api_key',
      api_key: {
        id: newId('key'),
        tenant_id: tenant,
        role: 'admin',
        label: null,
        hash: `hash-of-${tenant}`,
        last4: 'abcd',
        created_at: AT,
        revoked_at: null,
      },
    },
  ];
}

/** Per user: 4 events, 2 turns, working states, summaries, builds and candidates, 5 items, 1 of each run kind. */
export const PER_USER = {
  event: 4,
  turn: 2,
  working_state: 2,
  summary: 2,
  item: 5,
  context_build: 2,
  reflection: 1,
  candidate: 2,
  insight: 1,
  run_state: 1,
  ledger: 2,
  snapshot: 1,
};

/** Where an export record belongs; user null for items without a user, session null where it has none. */
export function scopeOf(record: ExportRecord): {
  tenant_id: string;
  user_id: string | null;
  session_id: string | null;
} {
  const pick = (r: { tenant_id: string; user_id: string | null; session_id?: string }) => ({
    tenant_id: r.tenant_id,
    user_id: r.user_id,
    session_id: r.session_id ?? null,
  });
  switch (record.kind) {
    case 'event':
      return pick(record.event);
    case 'turn':
    case 'working_state':
    case 'summary':
      return pick(record.key);
    case 'item':
      return pick(record.item);
    case 'context_build':
      return pick(record.build);
    case 'reflection':
    case 'snapshot':
      return pick(record.record);
    case 'candidate':
      return pick(record.candidate);
    case 'insight':
      return pick(record.insight);
    case 'run_state':
      return pick(record.state);
    case 'ledger':
      return pick(record.run);
  }
}

/** The op an import writes an export record back with. */
export function importOp(record: ExportRecord): WriteOp {
  switch (record.kind) {
    case 'event':
      return append(record.event);
    case 'turn':
      return { op: 'insert_turn', key: record.key, turn_id: record.turn_id, result: record.result };
    case 'working_state':
      return {
        op: 'put_working_state',
        key: record.key,
        state: record.state,
        expected_version: 0,
        updated_at: record.updated_at,
      };
    case 'summary':
      return { op: 'put_summary', key: record.key, summary: record.summary, expected_version: 0 };
    case 'item':
      return { op: 'put_item', item: record.item };
    case 'context_build':
      return { op: 'put_context_build', build: record.build };
    case 'reflection':
      return { op: 'put_reflection', record: record.record };
    case 'candidate':
      return { op: 'put_candidate', candidate: record.candidate };
    case 'insight':
      return { op: 'put_insight', insight: record.insight, expected_version: null };
    case 'run_state':
      return { op: 'put_run_state', state: record.state, expected_version: 0 };
    case 'ledger':
      return { op: 'put_evidence', run: record.run, entries: [record.entry] };
    case 'snapshot':
      return { op: 'put_snapshot', record: record.record };
  }
}

/** Every record exportRecords yields for a scope, in its order. */
export async function exported(storage: StorageAdapter, scope: ExportScope): Promise<ExportRecord[]> {
  const records: ExportRecord[] = [];
  for await (const record of storage.maintenance.exportRecords(scope)) records.push(record);
  return records;
}

/** How many records of each kind. */
export function kindCounts(records: readonly ExportRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[record.kind] = (counts[record.kind] ?? 0) + 1;
  return counts;
}

/** Counts multiplied by a number of users, plus any rows not of a user. */
export const times = (counts: Record<string, number>, factor: number, extra: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries(counts).map(([kind, n]) => [kind, n * factor + (extra[kind] ?? 0)]));

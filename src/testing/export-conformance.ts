// The storage conformance suite for export and erasure: what exportRecords yields for a tenant or a
// user (every kind, in order, paged, nothing of anyone else, no API keys), that an export written
// back into a fresh store exports the same, and what erase removes for a user or one session.
// Registered by describeStorageConformance, so it runs against every adapter through the same
// initializer. That erasure also empties the derived tables is SQLite-specific: see
// test/sqlite-erase.test.ts.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import { EXPORT_KINDS, type ExportRecord, type ExportScope } from '../spec/export.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import type { CommitTurnResult } from '../spec/requests.js';
import type { SessionKey } from '../spec/scope.js';
import { emptySummary } from '../spec/summary.js';
import { emptyWorkingState } from '../spec/working-state.js';
import { searchText } from '../util/segment.js';
import { appendEvent, eventRecord } from './event-record.js';
import { expectCode } from './expect-code.js';
import { ledgerEntry, runState, snapshotRecord } from './run-records.js';
import { candidate, insight, reflection } from './reflection-conformance.js';
import { item } from './item-conformance.js';
import { build } from './run-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const AT = '2026-06-01T10:00:00.000Z';
const LATER = '2026-06-01T11:00:00.000Z';

const append = appendEvent;

/** The item and a searchable chunk of it (word `kumquat` plus the owner's words). */
function putItem(record: MemoryItem): WriteOp[] {
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

function turnResult(key: SessionKey, turnId: string): CommitTurnResult {
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
function userOps(tenant: string, user: string): WriteOp[] {
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
function tenantOps(tenant: string): WriteOp[] {
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
const PER_USER = {
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
function scopeOf(record: ExportRecord): { tenant_id: string; user_id: string | null; session_id: string | null } {
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
function importOp(record: ExportRecord): WriteOp {
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

async function exported(storage: StorageAdapter, scope: ExportScope): Promise<ExportRecord[]> {
  const records: ExportRecord[] = [];
  for await (const record of storage.maintenance.exportRecords(scope)) records.push(record);
  return records;
}

function kindCounts(records: readonly ExportRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[record.kind] = (counts[record.kind] ?? 0) + 1;
  return counts;
}

const times = (counts: Record<string, number>, factor: number, extra: Record<string, number> = {}) =>
  Object.fromEntries(Object.entries(counts).map(([kind, n]) => [kind, n * factor + (extra[kind] ?? 0)]));

/**
 * Registers the export and erasure part of the conformance suite.
 *
 * @example
 * describeExportConformance('sqlite', init);
 */
export function describeExportConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: export and erasure`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
      // Two tenants; t1 with users u1 and u2, t2 with a user also named u1.
      await storage.write([
        ...tenantOps('t1'),
        ...userOps('t1', 'u1'),
        ...userOps('t1', 'u2'),
        ...tenantOps('t2'),
        ...userOps('t2', 'u1'),
      ]);
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    const search = (user: string) =>
      storage.events.search({
        tenant_id: 't1',
        user_id: user,
        terms: ['papaya'],
        now: '2026-06-01T10:30:00.000Z',
        limit: 50,
      });
    const searchItems = (owner: string) =>
      storage.items.search({ tenant_id: 't1', owners: [owner], terms: ['kumquat'], limit: 50 });

    it('exports a whole tenant: every kind, in EXPORT_KINDS order, nothing of another tenant, no API keys', async () => {
      const records = await exported(storage, { tenant_id: 't1' });
      expect(kindCounts(records)).toEqual(times(PER_USER, 2, { item: 2 }));
      const order = records.map((record) => EXPORT_KINDS.indexOf(record.kind));
      expect(order).toEqual([...order].sort((a, b) => a - b));
      expect(records.every((record) => scopeOf(record).tenant_id === 't1')).toBe(true);
      expect(JSON.stringify(records)).not.toContain('hash-of-');
      // Expired events not yet purged are still the record.
      expect(records.filter((r) => r.kind === 'event' && r.event.expires_at === LATER)).toHaveLength(2);
      const state = records.find((r) => r.kind === 'working_state');
      expect(state).toMatchObject({ state: { goal: 'replaced', state_version: 2 }, updated_at: LATER });
    });

    it('exports one user: their rows and items only, none of the other user or of agent- and tenant-level items', async () => {
      const records = await exported(storage, { tenant_id: 't1', user_id: 'u2' });
      expect(kindCounts(records)).toEqual(PER_USER);
      expect(records.every((record) => scopeOf(record).tenant_id === 't1' && scopeOf(record).user_id === 'u2')).toBe(
        true,
      );
      // The agent-level item learned from u2 (user_id u2) is theirs; the ones without a user are not.
      expect(records.flatMap((r) => (r.kind === 'item' ? [r.item.key] : [])).sort()).toEqual([
        'editor',
        'editor',
        'learned-u2',
        'os',
        'shell',
      ]);
      expect(await exported(storage, { tenant_id: 't1', user_id: 'nobody' })).toEqual([]);
      expect(await exported(storage, { tenant_id: 't9' })).toEqual([]);
    });

    it('pages a large table: each row exactly once, in the order written', async () => {
      const written: EventRecord[] = [];
      const ops: WriteOp[] = [];
      for (let index = 0; index < 1800; index += 1) {
        const record = eventRecord({
          tenant_id: index % 3 === 2 ? 't2' : 't1',
          user_id: index % 2 === 0 ? 'u1' : 'u2',
          content: `bulk ${index}`,
        });
        if (record.tenant_id === 't1') written.push(record);
        ops.push(append(record));
      }
      await storage.write(ops);
      const events = (scope: ExportScope) =>
        exported(storage, scope).then((records) =>
          records.flatMap((r) =>
            r.kind === 'event' && String(r.event.content).startsWith('bulk') ? [r.event.id] : [],
          ),
        );
      expect(await events({ tenant_id: 't1' })).toEqual(written.map((e) => e.id));
      expect(await events({ tenant_id: 't1', user_id: 'u1' })).toEqual(
        written.filter((e) => e.user_id === 'u1').map((e) => e.id),
      );
    });

    it('round-trips: a tenant written back into a fresh store exports the same records', async () => {
      const records = await exported(storage, { tenant_id: 't1' });
      const fresh = await init.create();
      try {
        for (let start = 0; start < records.length; start += 20)
          await fresh.write(records.slice(start, start + 20).map(importOp));
        expect(await exported(fresh, { tenant_id: 't1' })).toEqual(records);
        expect(await exported(fresh, { tenant_id: 't2' })).toEqual([]);
      } finally {
        await init.destroy(fresh);
      }
    });

    it('erases a user: every read of theirs is empty, the other user and tenant are intact and searchable', async () => {
      const before = {
        u2: await exported(storage, { tenant_id: 't1', user_id: 'u2' }),
        t1: await exported(storage, { tenant_id: 't1' }),
        t2: await exported(storage, { tenant_id: 't2' }),
      };
      const counts = await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1' });
      expect(counts).toMatchObject({
        events: 4,
        turns: 2,
        working_state: 2,
        stm_summary: 2,
        memory_items: 5,
        context_builds: 2,
        reflections: 1,
        candidates: 2,
        insights: 1,
        run_states: 1,
        evidence_ledger: 2,
        snapshots: 1,
      });
      expect(await exported(storage, { tenant_id: 't1', user_id: 'u1' })).toEqual([]);
      expect(await exported(storage, { tenant_id: 't1', user_id: 'u2' })).toEqual(before.u2);
      expect(await exported(storage, { tenant_id: 't2' })).toEqual(before.t2);
      expect(await exported(storage, { tenant_id: 't1' })).toEqual(
        before.t1.filter((r) => scopeOf(r).user_id !== 'u1'),
      );

      const q = { tenant_id: 't1', user_id: 'u1', limit: 50 };
      const key = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };
      const run = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', run_id: 'r-u1' };
      expect(await storage.events.list({ ...q, now: NOW, include_expired: true })).toEqual([]);
      expect(await search('u1')).toEqual([]);
      expect(await search('u2')).toHaveLength(3);
      expect(await storage.items.list({ tenant_id: 't1', owners: ['u:u1'], limit: 50 })).toEqual([]);
      expect(await searchItems('u:u1')).toEqual([]);
      expect(await searchItems('u:u2')).toHaveLength(4);
      expect((await searchItems('a:a1')).map((hit) => hit.item.key).sort()).toEqual(['learned-u2', 'style']);
      expect(await storage.sessions.getWorkingState(key)).toBeNull();
      expect(await storage.sessions.getSummary(key)).toBeNull();
      expect(await storage.sessions.getTurn(key, 'turn-s1')).toBeNull();
      expect(await storage.sessions.listBuilds(q)).toEqual([]);
      expect(await storage.reviews.listReflections(q)).toEqual([]);
      expect(await storage.reviews.listCandidates(q)).toEqual([]);
      expect(await storage.reviews.listInsights(q)).toEqual([]);
      expect(await storage.runs.listSnapshots(q)).toEqual([]);
      expect(await storage.runs.getState(run)).toBeNull();
      expect(await storage.runs.ledgerEntries(run, ['evd_1', 'evd_2'])).toEqual([]);
      expect(await storage.service.listApiKeys('t1')).toHaveLength(1);
    });

    it('erases one session: its rows and the items wholly sourced from it, nothing else', async () => {
      const before = await exported(storage, { tenant_id: 't1' });
      const counts = await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's1' });
      // Items: both versions of `editor` (sources e1, e2) and the agent-level item learned from e1.
      expect(counts).toMatchObject({
        events: 2,
        turns: 1,
        working_state: 1,
        stm_summary: 1,
        context_builds: 1,
        candidates: 1,
        memory_items: 3,
      });
      const gone = (r: ExportRecord) => {
        const at = scopeOf(r);
        if (r.kind === 'item') return at.user_id === 'u1' && (r.item.key === 'editor' || r.item.key === 'learned-u1');
        // Reflections, insights and run records of the session stay: a session erase does not cover them.
        const sessionKinds = ['event', 'turn', 'working_state', 'summary', 'context_build', 'candidate'];
        return at.user_id === 'u1' && at.session_id === 's1' && sessionKinds.includes(r.kind);
      };
      expect(before.filter(gone)).toHaveLength(2 + 5 + 3);
      // The item sourced from both sessions stays, without the erased event among its sources.
      expect(counts['memory_items_sources_trimmed']).toBe(1);
      const erasedEvents = new Set(before.flatMap((r) => (r.kind === 'event' && gone(r) ? [r.event.id] : [])));
      const trimmed = (r: ExportRecord): ExportRecord =>
        r.kind === 'item'
          ? {
              ...r,
              item: { ...r.item, source_event_ids: r.item.source_event_ids.filter((id) => !erasedEvents.has(id)) },
            }
          : r;
      expect(await exported(storage, { tenant_id: 't1' })).toEqual(before.filter((r) => !gone(r)).map(trimmed));
      expect((await search('u1')).map((hit) => hit.event.session_id)).toEqual(['s2', 's2']);
      expect((await searchItems('u:u1')).map((hit) => hit.item.key).sort()).toEqual(['os', 'shell']);
      expect(
        await storage.sessions.getWorkingState({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's2' }),
      ).not.toBeNull();
    });

    it('erases nothing when there is nothing to erase: zero counts, no error', async () => {
      const before = await exported(storage, { tenant_id: 't1' });
      for (const scope of [
        { tenant_id: 't9', user_id: 'u1' },
        { tenant_id: 't1', user_id: 'nobody' },
        { tenant_id: 't1', user_id: 'u1', session_id: 's9' },
      ]) {
        const counts = await storage.maintenance.erase(scope);
        expect(Object.values(counts).every((n) => n === 0)).toBe(true);
        expect(counts['events']).toBe(0);
      }
      expect(await exported(storage, { tenant_id: 't1' })).toEqual(before);
    });
  });

  describe(`storage conformance: ${name}: turns beside their events, duplicate keys`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    const sessionKey: SessionKey = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };
    const turnOf = (turnId: string, events: readonly EventRecord[]): WriteOp => ({
      op: 'insert_turn',
      key: sessionKey,
      turn_id: turnId,
      result: {
        ...turnResult(sessionKey, turnId),
        events: events.map((e) => ({
          event_id: e.id,
          kind: e.kind,
          role: e.role,
          marker: e.marker,
          sensitivity: e.sensitivity,
          embedding_status: e.embedding_status,
          ts: e.ts,
        })),
      },
    });
    const labels = (records: readonly ExportRecord[], names: ReadonlyMap<string, string>) =>
      records.flatMap((r) =>
        r.kind === 'event' ? [names.get(r.event.id) ?? '?'] : r.kind === 'turn' ? [`turn ${r.turn_id}`] : [],
      );

    it('exports each turn right after the last event it lists, however its events interleave with others', async () => {
      const a1 = eventRecord({ turn_id: 'A', content: 'a1' });
      const b1 = eventRecord({ turn_id: 'B', content: 'b1' });
      const a2 = eventRecord({ turn_id: 'A', content: 'a2' });
      const loose = eventRecord({ turn_id: null, content: 'loose' });
      const b2 = eventRecord({ turn_id: 'B', content: 'b2' });
      // Two writers' turns stored in between each other, as concurrent commits can on PostgreSQL.
      await storage.write([
        append(a1),
        append(b1),
        append(a2),
        append(loose),
        append(b2),
        turnOf('A', [a1, a2]),
        turnOf('B', [b1, b2]),
      ]);
      // A turn listing no event (an import of the conformance rows), and one whose only event is another user's.
      await storage.write([
        turnOf('bare', []),
        { ...turnOf('C', [a1]), key: { ...sessionKey, user_id: 'u2' } } as WriteOp,
      ]);
      const names = new Map([a1, b1, a2, loose, b2].map((e) => [e.id, String(e.content)]));
      expect(labels(await exported(storage, { tenant_id: 't1' }), names)).toEqual([
        'a1',
        'b1',
        'a2',
        'turn A',
        'loose',
        'b2',
        'turn B',
        'turn bare',
        'turn C',
      ]);
      expect(labels(await exported(storage, { tenant_id: 't1', user_id: 'u1' }), names)).toEqual([
        'a1',
        'b1',
        'a2',
        'turn A',
        'loose',
        'b2',
        'turn B',
        'turn bare',
      ]);
      expect(labels(await exported(storage, { tenant_id: 't1', user_id: 'u2' }), names)).toEqual(['turn C']);
    });

    it('exports a turn whose events were purged after the events still there, and every turn once across pages', async () => {
      const kept = eventRecord({ turn_id: 'P', content: 'kept' });
      const gone = eventRecord({ turn_id: 'P', content: 'gone', expires_at: LATER });
      const after = eventRecord({ turn_id: null, content: 'after' });
      await storage.write([append(gone), append(kept), turnOf('P', [gone, kept]), append(after)]);
      await storage.maintenance.purgeExpired(NOW);
      const names = new Map([kept, after].map((e) => [e.id, String(e.content)]));
      expect(labels(await exported(storage, { tenant_id: 't1' }), names)).toEqual(['kept', 'after', 'turn P']);
      // 700 turns of two events each: pages of events split turns, each turn still follows its second event, once.
      const ops: WriteOp[] = [];
      for (let index = 0; index < 700; index += 1) {
        const pair = [
          eventRecord({ turn_id: `t${index}`, content: `x${index}` }),
          eventRecord({ turn_id: `t${index}`, content: `y${index}` }),
        ];
        ops.push(...pair.map(append), turnOf(`t${index}`, pair));
      }
      await storage.write(ops);
      const order = (await exported(storage, { tenant_id: 't1' })).filter((r) =>
        r.kind === 'event' ? r.event.turn_id?.startsWith('t') === true : r.kind === 'turn' && r.turn_id.startsWith('t'),
      );
      expect(order).toHaveLength(2100);
      for (let index = 0; index < 700; index += 1) {
        expect(
          order
            .slice(index * 3, index * 3 + 3)
            .map((r) => (r.kind === 'turn' ? 'turn' : r.kind === 'event' ? String(r.event.content)[0] : r.kind)),
        ).toEqual(['x', 'y', 'turn']);
      }
    });

    it('refuses a second record under a key the tenant holds with RECORD_CONFLICT naming it, and writes nothing of the call', async () => {
      const first = eventRecord();
      const kept = item({ tenant_id: 't1' });
      await storage.write([
        append(first),
        ...putItem(kept),
        {
          op: 'put_context_build',
          build: build({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' }),
        },
      ]);
      const fresh = eventRecord({ content: 'never stored' });
      const event = await expectCode(
        storage.write([append(fresh), append({ ...first, content: 'other' })]),
        'RECORD_CONFLICT',
      );
      expect(event.field).toBe('events.id');
      expect(await storage.events.get('t1', fresh.id, NOW)).toBeNull();
      expect((await storage.events.get('t1', first.id, NOW))!.content).toBe('hello world');
      const again = await expectCode(
        storage.write([{ op: 'put_item', item: { ...kept, key: 'other' } }]),
        'RECORD_CONFLICT',
      );
      expect(again.field).toBe('memory_items.id');
      // The same id in another tenant is another record.
      await storage.write([append({ ...first, tenant_id: 't2' })]);
      expect(await storage.events.get('t2', first.id, NOW)).not.toBeNull();
    });
  });
}

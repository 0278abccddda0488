// The storage conformance suite for export and erasure: what exportRecords yields for a tenant or a
// user (every kind, in order, paged, nothing of anyone else, no API keys), that an export written
// back into a fresh store exports the same, and what erase removes for a user or one session.
// Registered by describeStorageConformance, so it runs against every adapter through the same
// initializer. That erasure also empties the derived tables is SQLite-specific: see
// test/sqlite-erase.test.ts.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, WriteOp } from '../index.js';
import { EXPORT_KINDS, type ExportRecord, type ExportScope } from '../spec/export.js';
import { appendEvent, eventRecord } from './event-record.js';
import {
  exported,
  importOp,
  kindCounts,
  LATER,
  NOW,
  PER_USER,
  scopeOf,
  tenantOps,
  times,
  userOps,
} from './export-rows.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const append = appendEvent;

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
}

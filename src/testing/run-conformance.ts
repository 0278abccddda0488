// The storage conformance suite for runs: run states under an optimistic version, the per-run
// evidence ledger, append-only compaction snapshots, and the run filters of context-build listing.
// Registered by describeStorageConformance, so it runs against every adapter through the same
// initializer. That a stored snapshot cannot be rewritten even by raw SQL is adapter-specific: see
// test/sqlite-append-only.test.ts.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../spec/compaction.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { ContextBuild } from '../spec/storage.js';
import { ledgerEntry, RUN, runState, snapshotRecord } from './run-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';
import { expectCode } from './expect-code.js';

const ref = (evidence_id: string) => ({
  evidence_id,
  chunk_id: `chunk-${evidence_id}`,
  span: [3, 17] as [number, number],
  corpus_id: 'docs',
});

const putState = (state: RunState, expected_version: number): WriteOp => ({
  op: 'put_run_state',
  state,
  expected_version,
});
const putEvidence = (run: RunKey, entries: LedgerEntry[]): WriteOp => ({ op: 'put_evidence', run, entries });
const putSnapshot = (record: SnapshotRecord): WriteOp => ({ op: 'put_snapshot', record });
const byEvidenceId = (entries: LedgerEntry[]) =>
  [...entries].sort((a, b) => a.evidence_id.localeCompare(b.evidence_id));
const sequences = (records: SnapshotRecord[]) =>
  records.map((record) => `${record.agent_id}/${record.run_id}#${record.snapshot.sequence}`);

/** A context build of RUN (session s1) with an opaque packet, with any field overridden. */
export function build(overrides: Partial<ContextBuild> = {}): ContextBuild {
  return {
    ...RUN,
    id: newId('ctx'),
    session_id: 's1',
    purpose: 'planner',
    request: { purpose: 'planner' },
    as_of: '2026-06-01T10:00:00.000Z',
    selected: [],
    packet_hash: 'sha256:0',
    // Storage keeps the packet as opaque JSON; its shape is not what these tests are about.
    packet: { meta: { note: 'opaque' } } as unknown as MemoryPacket,
    created_at: '2026-06-01T10:00:00.000Z',
    ...overrides,
  };
}

/**
 * Registers the run-state, evidence-ledger and snapshot part of the conformance suite.
 *
 * @example
 * describeRunConformance('sqlite', init);
 */
export function describeRunConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: run states, evidence ledgers, snapshots`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    it('round-trips every field of a run state, a ledger entry and a snapshot', async () => {
      const full = runState({
        objective: 'ship the ünïcødé 中文 release \u{1F680}',
        done_definition: { tests: 'green', nested: { list: [1, 'two', null] } },
        status: 'stopped',
        stop_reason: 'snapshot validation failed twice',
        claims: [
          { claim_id: 'c1', status: 'verified', statement: 'CI is green', evidence_refs: [ref('evd_a'), ref('evd_b')] },
        ],
        conflicts: [{ conflict_id: 'k1', description: 'two versions', side_a_refs: [ref('evd_a')], side_b_refs: [] }],
        failures: [{ failure_id: 'f1', category: 'tool', where: 'npm test', why: 'timeout' }],
        open_questions: ['which node?'],
        source_ids_seen: ['doc-1', 'https://example.test/a'],
        chunk_ids_seen: ['chunk-1'],
        counted_since: 7,
        steps_since: 2,
        sequence: 4,
        latest_snapshot_id: 'snp_4',
        last_snapshot_at: '2026-06-01T09:00:00.000Z',
        session_id: 's9',
        version: 12,
      });
      // A done definition that is a string stays a string, even when it reads like JSON.
      const bare = runState({ run_id: 'r2', done_definition: '{"not":"an object"}' });
      const entries = [
        ledgerEntry('evd_a', { source_id: 'doc-1', quote_hash: 'sha256:ab', span: [0, 0] }),
        ledgerEntry('evd_b', { corpus_id: 'events' }),
      ];
      const snapshot = snapshotRecord(
        4,
        {
          done_definition: { tests: 'green' },
          policy_snapshot_ref: 'policy@3',
          latest_context_manifest_ids: ['ctx_1', 'ctx_2'],
          state: {
            claims: full.claims,
            conflicts: full.conflicts,
            open_questions: ['which node? ✓'],
            failures: full.failures,
            source_coverage: {
              source_ids_seen: ['doc-1'],
              chunk_ids_seen: ['chunk-1', 'chunk-2'],
              chunk_ids_cited: ['chunk-1'],
            },
          },
          retrieval_diagnostics: { builds: 2, nested: { hits: [1, 2] } },
          validation: {
            status: 'FAIL',
            checks: [{ name: 'objective', status: 'FAIL', message: 'changed' }],
            failure_action_taken: 'RETRY',
          },
        },
        { session_id: 's9' },
      );
      await storage.write([putState(full, 0), putState(bare, 0), putEvidence(RUN, entries), putSnapshot(snapshot)]);
      expect(await storage.runs.getState(RUN)).toEqual(full);
      expect(await storage.runs.getState({ ...RUN, run_id: 'r2' })).toEqual(bare);
      expect(byEvidenceId(await storage.runs.ledgerEntries(RUN, ['evd_b', 'evd_a']))).toEqual(entries);
      expect(await storage.runs.getSnapshot('t1', snapshot.snapshot.snapshot_id)).toEqual(snapshot);
      expect(await storage.runs.listSnapshots({ tenant_id: 't1', limit: 10 })).toEqual([snapshot]);
      expect(await storage.runs.getState({ ...RUN, run_id: 'r3' })).toBeNull();
      expect(await storage.runs.getSnapshot('t1', 'snp_missing')).toBeNull();
    });

    it('inserts a run state once and replaces it only at the version it read, atomically with the rest of the write', async () => {
      await storage.write([putState(runState({ objective: 'first' }), 0)]);
      const twice = await expectCode(
        storage.write([putState(runState({ objective: 'again' }), 0)]),
        'STATE_VERSION_CONFLICT',
        'run.version',
      );
      expect(twice.details).toMatchObject({ expected: 0, actual: 1 });
      await storage.write([putState(runState({ objective: 'second', version: 2 }), 1)]);
      expect(await storage.runs.getState(RUN)).toMatchObject({ objective: 'second', version: 2 });
      const stale = await expectCode(
        storage.write([
          putEvidence(RUN, [ledgerEntry('evd_x')]),
          putState(runState({ objective: 'stale', version: 2 }), 1),
        ]),
        'STATE_VERSION_CONFLICT',
        'run.version',
      );
      expect(stale.details).toMatchObject({ expected: 1, actual: 2 });
      expect(await storage.runs.ledgerEntries(RUN, ['evd_x'])).toEqual([]);
      expect(await storage.runs.getState(RUN)).toMatchObject({ objective: 'second', version: 2 });
      const missing = await expectCode(
        storage.write([putState(runState({ run_id: 'r9', version: 4 }), 3)]),
        'STATE_VERSION_CONFLICT',
        'run.version',
      );
      expect(missing.details).toMatchObject({ expected: 3, actual: 0 });
      expect(await storage.runs.getState({ ...RUN, run_id: 'r9' })).toBeNull();
      // expected_version 0 only ever inserts, even over a row stored (wrongly) at version 0.
      await storage.write([putState(runState({ run_id: 'r0', version: 0 }), 0)]);
      await expectCode(
        storage.write([putState(runState({ run_id: 'r0', objective: 'over' }), 0)]),
        'STATE_VERSION_CONFLICT',
        'run.version',
      );
      expect(await storage.runs.getState({ ...RUN, run_id: 'r0' })).toEqual(runState({ run_id: 'r0', version: 0 }));
    });

    it('keeps the first ledger entry of an evidence id, per run', async () => {
      const first = ledgerEntry('evd_1', { source_id: 'doc-1' });
      const second = ledgerEntry('evd_2');
      await storage.write([putEvidence(RUN, [first, second, ledgerEntry('evd_2', { chunk_id: 'same op, later' })])]);
      const third = ledgerEntry('evd_3', { quote_hash: 'sha256:cd' });
      await storage.write([
        putEvidence(RUN, [ledgerEntry('evd_1', { chunk_id: 'rewritten', source_id: 'doc-9' }), third]),
      ]);
      const read = await storage.runs.ledgerEntries(RUN, ['evd_1', 'evd_2', 'evd_3', 'evd_1', 'evd_missing']);
      expect(byEvidenceId(read)).toEqual([first, second, third]);
      expect(await storage.runs.ledgerEntries(RUN, [])).toEqual([]);
      // Another run (or agent, or user) has its own ledger: it neither answers nor blocks.
      for (const other of [{ run_id: 'r2' }, { agent_id: 'a2' }, { user_id: 'u2' }]) {
        expect(await storage.runs.ledgerEntries({ ...RUN, ...other }, ['evd_1', 'evd_2'])).toEqual([]);
      }
      const theirs = ledgerEntry('evd_1', { chunk_id: 'run two chunk' });
      await storage.write([putEvidence({ ...RUN, run_id: 'r2' }, [theirs])]);
      expect(await storage.runs.ledgerEntries({ ...RUN, run_id: 'r2' }, ['evd_1'])).toEqual([theirs]);
      expect(await storage.runs.ledgerEntries(RUN, ['evd_1'])).toEqual([first]);
    });

    it('reads a ledger for more evidence ids than one query can name', async () => {
      const entries = Array.from({ length: 1234 }, (_, index) => ledgerEntry(`evd_${String(index).padStart(4, '0')}`));
      await storage.write([putEvidence(RUN, entries)]);
      const ids = [
        ...entries.map((entry) => entry.evidence_id),
        ...entries.slice(0, 600).map((entry) => entry.evidence_id),
        'evd_missing',
      ];
      expect(byEvidenceId(await storage.runs.ledgerEntries(RUN, ids))).toEqual(entries);
    });

    it('appends a snapshot once per run and sequence: a duplicate fails and rolls back the whole write', async () => {
      const first = snapshotRecord(1);
      await storage.write([putState(runState(), 0), putSnapshot(first)]);
      const duplicate = snapshotRecord(1, { snapshot_id: 'snp_other', objective: 'rewritten' });
      await expectCode(
        storage.write([putState(runState({ sequence: 1, version: 2 }), 1), putSnapshot(duplicate)]),
        'STATE_VERSION_CONFLICT',
        'snapshot.sequence',
      );
      expect(await storage.runs.getState(RUN)).toEqual(runState());
      expect(await storage.runs.getSnapshot('t1', first.snapshot.snapshot_id)).toEqual(first);
      expect(await storage.runs.getSnapshot('t1', 'snp_other')).toBeNull();
      // The same snapshot id at another sequence is refused too.
      const sameId = snapshotRecord(2, { snapshot_id: first.snapshot.snapshot_id });
      await expectCode(storage.write([putSnapshot(sameId)]), 'STATE_VERSION_CONFLICT', 'snapshot.sequence');
      expect(await storage.runs.listSnapshots({ ...RUN, limit: 10 })).toEqual([first]);
      // Sequence 1 of another run or agent is a different snapshot.
      const otherRun = snapshotRecord(1, {}, { run_id: 'r2' });
      const otherAgent = snapshotRecord(1, {}, { agent_id: 'a2' });
      await storage.write([putSnapshot(otherRun), putSnapshot(otherAgent)]);
      expect(await storage.runs.getSnapshot('t1', otherRun.snapshot.snapshot_id)).toEqual(otherRun);
      expect(await storage.runs.getSnapshot('t1', otherAgent.snapshot.snapshot_id)).toEqual(otherAgent);
    });

    it('lists snapshots by sequence in both orders, pages after a snapshot id, and filters by time and scope', async () => {
      const at = (hour: number) => `2026-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
      const r1 = [1, 2, 3].map((sequence) => snapshotRecord(sequence, { created_at: at(9 + sequence) }));
      const r2 = [1, 2].map((sequence) =>
        snapshotRecord(sequence, { created_at: at(10 + sequence) }, { run_id: 'r2' }),
      );
      const a2 = snapshotRecord(1, {}, { agent_id: 'a2' });
      // Written out of sequence order: the listing orders by sequence, not by when a row was written.
      await storage.write([r1[1]!, r2[0]!, r1[0]!, r1[2]!, r2[1]!, a2].map(putSnapshot));
      const list = (query: object) =>
        storage.runs.listSnapshots({ tenant_id: 't1', limit: 10, ...query }).then(sequences);
      expect(await list(RUN)).toEqual(['a1/r1#1', 'a1/r1#2', 'a1/r1#3']);
      expect(await list({ ...RUN, order: 'desc' })).toEqual(['a1/r1#3', 'a1/r1#2', 'a1/r1#1']);
      expect(await list({ ...RUN, created_at_or_before: at(11) })).toEqual(['a1/r1#1', 'a1/r1#2']);
      expect(await list({ ...RUN, created_at_or_before: at(9) })).toEqual([]);
      expect(await list({ run_id: 'r2' })).toEqual(['a1/r2#1', 'a1/r2#2']);
      expect(await list({ agent_id: 'a2' })).toEqual(['a2/r1#1']);
      expect(await list({ user_id: 'u2' })).toEqual([]);
      // Across runs: by sequence, then in the order the snapshots were stored.
      const all = ['a1/r2#1', 'a1/r1#1', 'a2/r1#1', 'a1/r1#2', 'a1/r2#2', 'a1/r1#3'];
      expect(await list({})).toEqual(all);
      for (const order of ['asc', 'desc'] as const) {
        const expected = order === 'asc' ? all : [...all].reverse();
        const pages: string[][] = [];
        let cursor: string | undefined;
        for (;;) {
          const page = await storage.runs.listSnapshots({ tenant_id: 't1', order, cursor, limit: 4 });
          if (page.length === 0) break;
          pages.push(sequences(page));
          cursor = page[page.length - 1]!.snapshot.snapshot_id;
        }
        expect(pages).toEqual([expected.slice(0, 4), expected.slice(4)]);
      }
      expect(await list({ ...RUN, cursor: r1[0]!.snapshot.snapshot_id, limit: 1 })).toEqual(['a1/r1#2']);
      expect(await list({ cursor: 'snp_missing' })).toEqual([]);
    });

    it('lists the context builds of a run created after a time, newest first', async () => {
      const early = build({ created_at: '2026-06-01T10:00:00.000Z' });
      const middle = build({ created_at: '2026-06-01T11:00:00.000Z' });
      const otherRun = build({ run_id: 'r2', created_at: '2026-06-01T11:30:00.000Z' });
      const late = build({ created_at: '2026-06-01T12:00:00.000Z', session_id: 's2' });
      await storage.write([early, middle, otherRun, late].map((b) => ({ op: 'put_context_build', build: b }) as const));
      const list = (query: object) =>
        storage.sessions.listBuilds({ tenant_id: 't1', limit: 10, ...query }).then((rows) => rows.map((row) => row.id));
      expect(await list({ run_id: 'r1' })).toEqual([late.id, middle.id, early.id]);
      expect(await list({ ...RUN, created_after: '2026-06-01T10:00:00.000Z' })).toEqual([late.id, middle.id]);
      expect(await list({ created_after: '2026-06-01T10:59:59.999Z' })).toEqual([late.id, otherRun.id, middle.id]);
      expect(await list({ run_id: 'r1', created_after: '2026-06-01T12:00:00.000Z' })).toEqual([]);
      expect(await list({ run_id: 'r1', cursor: late.id })).toEqual([middle.id, early.id]);
      expect(await list({ run_id: 'r2', session_id: 's1' })).toEqual([otherRun.id]);
      expect(await list({ run_id: 'r3' })).toEqual([]);
    });

    it('keeps tenants apart on every read and write', async () => {
      const t2 = { ...RUN, tenant_id: 't2' };
      const theirs = snapshotRecord(1, {}, { tenant_id: 't2' });
      const theirBuild = build({ tenant_id: 't2' });
      await storage.write([
        putState(runState({ tenant_id: 't2', objective: 'theirs' }), 0),
        putEvidence(t2, [ledgerEntry('evd_1')]),
        putSnapshot(theirs),
        { op: 'put_context_build', build: theirBuild },
      ]);
      expect(await storage.runs.getState(RUN)).toBeNull();
      expect(await storage.runs.ledgerEntries(RUN, ['evd_1'])).toEqual([]);
      expect(await storage.runs.getSnapshot('t1', theirs.snapshot.snapshot_id)).toBeNull();
      expect(await storage.runs.listSnapshots({ tenant_id: 't1', limit: 10 })).toEqual([]);
      expect(
        await storage.runs.listSnapshots({ tenant_id: 't1', cursor: theirs.snapshot.snapshot_id, limit: 10 }),
      ).toEqual([]);
      expect(
        await storage.sessions.listBuilds({ ...RUN, created_after: '2000-01-01T00:00:00.000Z', limit: 10 }),
      ).toEqual([]);
      // A stale update in t1 does not see t2's version; the same keys and ids are free in t1.
      await expectCode(storage.write([putState(runState({ version: 2 }), 1)]), 'STATE_VERSION_CONFLICT', 'run.version');
      const mine = { ...theirs, tenant_id: 't1' };
      await storage.write([
        putState(runState(), 0),
        putEvidence(RUN, [ledgerEntry('evd_1', { chunk_id: 'mine' })]),
        putSnapshot(mine),
      ]);
      expect(await storage.runs.getSnapshot('t1', mine.snapshot.snapshot_id)).toEqual(mine);
      expect(await storage.runs.getState(t2)).toMatchObject({ objective: 'theirs' });
      expect(await storage.runs.ledgerEntries(t2, ['evd_1'])).toEqual([ledgerEntry('evd_1')]);
      expect(await storage.runs.getSnapshot('t2', theirs.snapshot.snapshot_id)).toEqual(theirs);
      expect(await storage.runs.listSnapshots({ tenant_id: 't2', limit: 10 })).toEqual([theirs]);
      expect(
        (await storage.sessions.listBuilds({ tenant_id: 't2', run_id: 'r1', limit: 10 })).map((row) => row.id),
      ).toEqual([theirBuild.id]);
    });
  });
}

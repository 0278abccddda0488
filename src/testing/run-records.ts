// Complete run states, ledger entries and snapshot records for tests that talk to storage directly.

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../spec/compaction.js';
import { emptyRunState } from '../compaction/run-state.js';

/** Run r1 of tenant t1, user u1, agent a1. */
export const RUN: RunKey = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', run_id: 'r1' };

const AT = '2026-06-01T10:00:00.000Z';

/**
 * A fresh, active run state of RUN at version 1, with any field overridden.
 *
 * @example
 * runState({ status: 'stopped', stop_reason: 'validation failed twice' })
 */
export function runState(overrides: Partial<RunState> = {}): RunState {
  return { ...emptyRunState(RUN, 's1', AT), version: 1, ...overrides };
}

/**
 * A ledger entry for an evidence id, with any field overridden.
 *
 * @example
 * ledgerEntry('evd_1', { source_id: 'doc-7' })
 */
export function ledgerEntry(evidenceId: string, overrides: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    evidence_id: evidenceId,
    chunk_id: `chunk-${evidenceId}`,
    span: [0, 42],
    corpus_id: 'docs',
    source_id: null,
    quote_hash: null,
    recorded_at: AT,
    ...overrides,
  };
}

/**
 * A valid-looking snapshot of a run (RUN unless `scope` overrides it) at a sequence.
 *
 * @example
 * snapshotRecord(2, { created_at: '2026-06-01T11:00:00.000Z' }, { run_id: 'r2' })
 */
export function snapshotRecord(
  sequence: number,
  overrides: Partial<SnapshotRecord['snapshot']> = {},
  scope: Partial<Omit<SnapshotRecord, 'snapshot'>> = {},
): SnapshotRecord {
  const record = { ...RUN, session_id: 's1', ...scope };
  return {
    ...record,
    snapshot: {
      snapshot_id: `snp_${record.tenant_id}_${record.agent_id}_${record.run_id}_${sequence}`,
      run_id: record.run_id,
      sequence,
      created_at: AT,
      objective: 'ship the release',
      done_definition: 'tests green',
      provenance_mode: 'audit_only',
      policy_snapshot_ref: null,
      counts: { steps_since_last_compaction: 3, counted_events_since_last_compaction: 18 },
      latest_context_manifest_ids: [],
      state: {
        claims: [],
        conflicts: [],
        open_questions: [],
        failures: [],
        source_coverage: { source_ids_seen: [], chunk_ids_seen: [], chunk_ids_cited: [] },
      },
      retrieval_diagnostics: {},
      validation: { status: 'PASS', checks: [], failure_action_taken: 'NONE' },
      ...overrides,
    },
  };
}

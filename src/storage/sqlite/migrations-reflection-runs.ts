// Schema versions 4 and 5 of the SQLite store: reflections with their review candidates and
// insights; runs with their state, evidence ledger and compaction snapshots. Released: never edit.

import type { Migration } from '../shared/migration.js';

export const reflectionAndRunMigrations: readonly Migration[] = [
  {
    name: 'reflections, review candidates and insights',
    sql: `
      -- One row per reflection run (a trace): what it proposed, or why it failed.
      CREATE TABLE reflections (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        trace_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        source TEXT NOT NULL,
        model TEXT,
        status TEXT NOT NULL,
        reflection TEXT,
        failure TEXT,
        event_count INTEGER NOT NULL,
        candidate_ids TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (tenant_id, trace_id)
      );
      CREATE INDEX reflections_by_scope ON reflections (tenant_id, user_id, agent_id, trace_id);
      CREATE INDEX reflections_by_run ON reflections (tenant_id, run_id, trace_id);

      -- The review queue. decided_at is NULL while pending, so "pending at a time" is a range test.
      CREATE TABLE candidates (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        trace_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        payload TEXT NOT NULL,
        memory_type TEXT,
        confidence REAL NOT NULL,
        salience TEXT NOT NULL,
        source_event_ids TEXT NOT NULL,
        item_ids TEXT NOT NULL,
        target TEXT NOT NULL,
        open_loop_id TEXT,
        created_at TEXT NOT NULL,
        decision TEXT,
        decided_at TEXT,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX candidates_by_status ON candidates (tenant_id, user_id, agent_id, status, id);
      CREATE INDEX candidates_by_scope ON candidates (tenant_id, user_id, agent_id, id);
      CREATE INDEX candidates_by_trace ON candidates (tenant_id, trace_id);

      -- Hypotheses, strategy sketches and patterns; version is bumped by every change.
      CREATE TABLE insights (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        type TEXT NOT NULL,
        statement TEXT NOT NULL,
        "trigger" TEXT NOT NULL,
        confidence REAL NOT NULL,
        validation_state TEXT NOT NULL,
        tests_suggested TEXT NOT NULL,
        expires_at TEXT,
        sources TEXT NOT NULL,
        expired_at TEXT,
        promoted_to TEXT,
        candidate_id TEXT,
        history TEXT NOT NULL,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX insights_by_scope ON insights (tenant_id, user_id, agent_id, id);
      CREATE INDEX insights_by_run ON insights (tenant_id, user_id, agent_id, run_id);
    `,
  },
  {
    name: 'runs: state, evidence ledger, snapshots',
    sql: `
      -- What the agent recorded about each run, and the compaction counters; version is bumped by
      -- every change. The lists are JSON arrays, done_definition JSON (a string or an object).
      CREATE TABLE run_states (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        objective TEXT,
        done_definition TEXT,
        status TEXT NOT NULL,
        stop_reason TEXT,
        claims TEXT NOT NULL,
        conflicts TEXT NOT NULL,
        failures TEXT NOT NULL,
        open_questions TEXT NOT NULL,
        source_ids_seen TEXT NOT NULL,
        chunk_ids_seen TEXT NOT NULL,
        counted_since INTEGER NOT NULL,
        steps_since INTEGER NOT NULL,
        sequence INTEGER NOT NULL,
        latest_snapshot_id TEXT,
        last_snapshot_at TEXT,
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, user_id, agent_id, run_id)
      );

      -- Every evidence pointer a run recorded; the first entry for an evidence id stays.
      CREATE TABLE evidence_ledger (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        evidence_id TEXT NOT NULL,
        corpus_id TEXT NOT NULL,
        chunk_id TEXT NOT NULL,
        span_start INTEGER NOT NULL,
        span_end INTEGER NOT NULL,
        source_id TEXT,
        quote_hash TEXT,
        recorded_at TEXT NOT NULL,
        UNIQUE (tenant_id, user_id, agent_id, run_id, evidence_id)
      );

      -- Compaction snapshots (id is the snapshot's snapshot_id). Append-only: the trigger refuses
      -- any UPDATE, even from SQL run outside Engram; deletes stay possible for erasure.
      CREATE TABLE snapshots (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        snapshot TEXT NOT NULL,
        UNIQUE (tenant_id, id),
        UNIQUE (tenant_id, user_id, agent_id, run_id, sequence)
      );

      CREATE TRIGGER snapshots_append_only BEFORE UPDATE ON snapshots
      BEGIN
        SELECT RAISE(ABORT, 'engram: snapshots are append-only');
      END;

      -- The builds of a run since its last snapshot (listContextBuilds with run_id and created_after).
      CREATE INDEX builds_by_run ON context_builds (tenant_id, user_id, agent_id, run_id, created_at);
    `,
  },
];

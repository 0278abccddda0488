// Schema versions 4 and 5 of the PostgreSQL store: reflections with their review candidates and
// insights; runs with their state, evidence ledger and compaction snapshots. Released: never edit.

import type { Migration } from '../shared/migration.js';
import { byteOrder } from './migration-sql.js';

export const reflectionAndRunMigrations: readonly Migration[] = [
  {
    name: 'reflections, review candidates and insights',
    sql: byteOrder(`
      CREATE TABLE reflections (
        tenant_id text NOT NULL,
        trace_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        source text NOT NULL,
        model text,
        status text NOT NULL,
        reflection text,
        failure text,
        event_count integer NOT NULL,
        candidate_ids text NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (tenant_id, trace_id)
      );
      CREATE INDEX reflections_by_scope ON reflections (tenant_id, user_id, agent_id, trace_id);
      CREATE INDEX reflections_by_run ON reflections (tenant_id, run_id, trace_id);
      CREATE INDEX reflections_by_seq ON reflections (tenant_id, seq);

      CREATE TABLE candidates (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        trace_id text NOT NULL,
        kind text NOT NULL,
        source text NOT NULL,
        status text NOT NULL,
        payload text NOT NULL,
        memory_type text,
        confidence double precision NOT NULL,
        salience text NOT NULL,
        source_event_ids text NOT NULL,
        item_ids text NOT NULL,
        target text NOT NULL,
        open_loop_id text,
        created_at text NOT NULL,
        decision text,
        decided_at text,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX candidates_by_status ON candidates (tenant_id, user_id, agent_id, status, id);
      CREATE INDEX candidates_by_scope ON candidates (tenant_id, user_id, agent_id, id);
      CREATE INDEX candidates_by_trace ON candidates (tenant_id, trace_id);
      CREATE INDEX candidates_by_seq ON candidates (tenant_id, seq);

      CREATE TABLE insights (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        type text NOT NULL,
        statement text NOT NULL,
        "trigger" text NOT NULL,
        confidence double precision NOT NULL,
        validation_state text NOT NULL,
        tests_suggested text NOT NULL,
        expires_at text,
        sources text NOT NULL,
        expired_at text,
        promoted_to text,
        candidate_id text,
        history text NOT NULL,
        version integer NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX insights_by_scope ON insights (tenant_id, user_id, agent_id, id);
      CREATE INDEX insights_by_run ON insights (tenant_id, user_id, agent_id, run_id);
      CREATE INDEX insights_by_seq ON insights (tenant_id, seq);
    `),
  },
  {
    name: 'runs: state, evidence ledger, snapshots',
    sql: byteOrder(`
      CREATE TABLE run_states (
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        run_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        session_id text NOT NULL,
        objective text,
        done_definition text,
        status text NOT NULL,
        stop_reason text,
        claims text NOT NULL,
        conflicts text NOT NULL,
        failures text NOT NULL,
        open_questions text NOT NULL,
        source_ids_seen text NOT NULL,
        chunk_ids_seen text NOT NULL,
        counted_since integer NOT NULL,
        steps_since integer NOT NULL,
        sequence integer NOT NULL,
        latest_snapshot_id text,
        last_snapshot_at text,
        version integer NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, run_id)
      );
      CREATE INDEX run_states_by_seq ON run_states (tenant_id, seq);

      CREATE TABLE evidence_ledger (
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        run_id text NOT NULL,
        evidence_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        corpus_id text NOT NULL,
        chunk_id text NOT NULL,
        span_start integer NOT NULL,
        span_end integer NOT NULL,
        source_id text,
        quote_hash text,
        recorded_at text NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, run_id, evidence_id)
      );
      CREATE INDEX evidence_ledger_by_seq ON evidence_ledger (tenant_id, seq);

      CREATE TABLE snapshots (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        sequence integer NOT NULL,
        created_at text NOT NULL,
        snapshot text NOT NULL,
        PRIMARY KEY (tenant_id, id),
        UNIQUE (tenant_id, user_id, agent_id, run_id, sequence)
      );
      CREATE INDEX snapshots_by_seq ON snapshots (tenant_id, seq);

      -- Append-only: updates are refused, even from SQL run outside Engram; deletes stay possible for erasure.
      CREATE FUNCTION engram_snapshots_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'engram: snapshots are append-only' USING ERRCODE = 'check_violation';
      END $$;
      CREATE TRIGGER snapshots_append_only BEFORE UPDATE ON snapshots FOR EACH ROW EXECUTE FUNCTION engram_snapshots_append_only();
    `),
  },
];

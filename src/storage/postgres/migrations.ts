// Ordered schema migrations of the PostgreSQL store, applied under an advisory lock so that any
// number of processes can start at once: the first applies them, the others wait and find them
// done. A migration's position in the list is its version (recorded in engram_migrations). Never
// edit a released migration: append a new one.
//
// Every table leads its primary key and indexes with tenant_id, so the tables can be distributed by
// tenant (Citus: `SELECT create_distributed_table('events', 'tenant_id')`) without changing a query.
// Columns mirror the SQLite store (src/storage/sqlite/migrations.ts) so both read and write the same
// rows (src/storage/shared/): times are ISO-8601 text, JSON is text (kept byte for byte, so a
// replayed packet is identical), flags are integers.

import { StorageError } from '../../spec/errors.js';
import type { MigrationResult } from '../../spec/storage.js';
import { sqlState, type Sql, type SqlPool } from './client.js';

export interface Migration {
  name: string;
  sql: string;
}

// Columns of `events` that may never change after insert; the trigger enforces it even against SQL
// run outside Engram. The first schema also held the full-text entry (`search`) fixed; it is
// derived from the text and may be rebuilt (engram reindex) since the last migration.
const IMMUTABLE_EVENT_COLUMNS = [
  'seq',
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'turn_id',
  'kind',
  'marker',
  'role',
  'speaker',
  'content_type',
  'content',
  'sensitivity',
  'embeddable',
  'resonance_links',
  'tags',
  'snapshot_ref',
  'namespace',
  'thread_id',
  'ts',
  'recorded_at',
  'expires_at',
  'origin_metadata',
];

/** The trigger function that refuses any change to the given columns of an event. */
function eventsAppendOnly(columns: readonly string[]): string {
  return `
      CREATE OR REPLACE FUNCTION engram_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF ${columns.map((column) => `NEW.${column} IS DISTINCT FROM OLD.${column}`).join(' OR ')} THEN
          RAISE EXCEPTION 'engram: events are append-only; only status flags may change' USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
      END $$;`;
}

/**
 * Text columns compare byte by byte (COLLATE "C"), as in SQLite, whatever the database's locale:
 * ids page by `id > ?` and ISO times compare as text.
 */
function byteOrder(sql: string): string {
  return sql.replace(/^(\s+(?:\w+|"trigger")) text\b/gm, '$1 text COLLATE "C"');
}

export const migrations: readonly Migration[] = [
  {
    name: 'episodic log, turns, working state, short-term summary',
    sql: byteOrder(`
      CREATE TABLE events (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        turn_id text,
        kind text NOT NULL,
        marker text,
        role text NOT NULL,
        speaker text,
        content_type text NOT NULL,
        content text NOT NULL,
        sensitivity text NOT NULL,
        embeddable integer NOT NULL,
        embedding_status text NOT NULL,
        embedding_lease text,
        resonance_links text NOT NULL,
        tags text NOT NULL,
        snapshot_ref text,
        namespace text NOT NULL,
        thread_id text,
        ts text NOT NULL,
        recorded_at text NOT NULL,
        expires_at text,
        origin_metadata text NOT NULL,
        -- The event's words, each as <scope prefix>_<word> (see util/scope-token.ts): a scoped
        -- query reads only its scope's postings in the GIN index.
        search tsvector,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX events_by_session ON events (tenant_id, user_id, agent_id, session_id, id);
      CREATE INDEX events_by_seq ON events (tenant_id, seq);
      CREATE INDEX events_by_expiry ON events (tenant_id, expires_at) WHERE expires_at IS NOT NULL;
      CREATE INDEX events_search ON events USING gin (search) WHERE search IS NOT NULL;
      CREATE INDEX events_embedding_queue ON events (tenant_id, embedding_status, seq)
        WHERE embedding_status IN ('pending', 'processing');

${eventsAppendOnly([...IMMUTABLE_EVENT_COLUMNS, 'search'])}
      CREATE TRIGGER events_append_only BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION engram_events_append_only();

      CREATE TABLE event_vectors (
        tenant_id text NOT NULL,
        event_id text NOT NULL,
        vector bytea NOT NULL,
        vector_model text NOT NULL,
        PRIMARY KEY (tenant_id, event_id)
      );

      CREATE TABLE turns (
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        turn_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        result text NOT NULL,
        recorded_at text NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id, turn_id)
      );
      CREATE INDEX turns_by_seq ON turns (tenant_id, seq);

      CREATE TABLE working_state (
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        state text NOT NULL,
        state_version integer NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id)
      );
      CREATE INDEX working_state_by_seq ON working_state (tenant_id, seq);

      CREATE TABLE stm_summary (
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        summary text NOT NULL,
        version integer NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id)
      );
      CREATE INDEX stm_summary_by_seq ON stm_summary (tenant_id, seq);
    `),
  },
  {
    name: 'long-term memory items, derived chunks with their index and vectors',
    sql: byteOrder(`
      CREATE TABLE memory_items (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        owner text NOT NULL,
        user_id text,
        agent_id text,
        scope_level text NOT NULL,
        type text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        confidence double precision NOT NULL,
        status text NOT NULL,
        sensitivity text NOT NULL,
        valid_from text,
        valid_to text,
        salience text NOT NULL,
        version integer NOT NULL,
        supersedes text,
        source_event_ids text NOT NULL,
        evidence_refs text NOT NULL,
        provenance text NOT NULL,
        tags text NOT NULL,
        entities text NOT NULL,
        recorded_at text NOT NULL,
        updated_at text NOT NULL,
        ended_at text,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX items_by_key ON memory_items (tenant_id, owner, key, version);
      CREATE INDEX items_by_owner ON memory_items (tenant_id, owner, status, type, id);
      CREATE INDEX items_by_seq ON memory_items (tenant_id, seq);
      CREATE INDEX items_by_user ON memory_items (tenant_id, user_id);

      -- Derived from items, rebuildable with reindex: one chunk per item version.
      CREATE TABLE memory_chunks (
        tenant_id text NOT NULL,
        item_id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        owner text NOT NULL,
        text text NOT NULL,
        search tsvector,
        embedding_status text NOT NULL,
        embedding_lease text,
        vector bytea,
        vector_model text,
        PRIMARY KEY (tenant_id, item_id)
      );
      CREATE INDEX chunks_by_owner ON memory_chunks (tenant_id, owner);
      CREATE INDEX chunks_by_seq ON memory_chunks (tenant_id, seq);
      CREATE INDEX chunks_search ON memory_chunks USING gin (search) WHERE search IS NOT NULL;
      CREATE INDEX chunks_embedding_queue ON memory_chunks (tenant_id, embedding_status, seq)
        WHERE embedding_status IN ('pending', 'processing');
    `),
  },
  {
    name: 'context builds: every composed packet with its request, as-of time and hash',
    sql: byteOrder(`
      CREATE TABLE context_builds (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        session_id text NOT NULL,
        run_id text NOT NULL,
        purpose text NOT NULL,
        request text NOT NULL,
        as_of text NOT NULL,
        selected text NOT NULL,
        packet_hash text NOT NULL,
        packet text NOT NULL,
        created_at text NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX builds_by_session ON context_builds (tenant_id, user_id, agent_id, session_id, id);
      CREATE INDEX builds_by_run ON context_builds (tenant_id, user_id, agent_id, run_id, created_at);
      CREATE INDEX builds_by_seq ON context_builds (tenant_id, seq);
    `),
  },
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
  {
    name: 'API keys of the service: hashed, bound to a tenant and a role',
    sql: byteOrder(`
      CREATE TABLE api_keys (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        role text NOT NULL,
        label text,
        hash text NOT NULL,
        last4 text NOT NULL,
        created_at text NOT NULL,
        revoked_at text,
        PRIMARY KEY (tenant_id, id)
      );
      -- A key is found by its hash before its tenant is known: the one index not led by tenant_id
      -- (on Citus, make api_keys a reference table).
      CREATE UNIQUE INDEX api_keys_by_hash ON api_keys (hash);
    `),
  },
  {
    name: 'background jobs: claimed with a lease (FOR UPDATE SKIP LOCKED), retried, done once',
    sql: byteOrder(`
      CREATE TABLE jobs (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        kind text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL,
        lease_until text,
        last_error text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX jobs_claimable ON jobs (tenant_id, kind, status, seq) WHERE status IN ('pending', 'running');
    `),
  },
  {
    name: "events: the full-text entry is derived from the event's text and may be rebuilt (reindex)",
    sql: eventsAppendOnly(IMMUTABLE_EVENT_COLUMNS),
  },
  {
    name: 'token counts: what compose charges for the text of each event and item version',
    sql: `
      -- Counted when the row is written (src/composer/text-tokens.ts), so compose does not count the
      -- text again on every read. Derived from the text, like the full-text entry: the append-only
      -- trigger leaves it out. Rows written before hold NULL and are counted when compose reads them.
      ALTER TABLE events ADD COLUMN text_tokens integer;
      ALTER TABLE memory_items ADD COLUMN text_tokens integer;
    `,
  },
  {
    name: 'review candidates carry the strongest sensitivity of their evidence',
    sql: `
      -- A candidate drawn from private events writes at its user's level only, and the review
      -- queue says so. Candidates stored before are marked from their events as they stand.
      ALTER TABLE candidates ADD COLUMN sensitivity text COLLATE "C" NOT NULL DEFAULT 'normal';
      UPDATE candidates SET sensitivity = 'private' WHERE EXISTS (
        SELECT 1 FROM jsonb_array_elements_text(candidates.source_event_ids::jsonb) AS cited (id)
        JOIN events ON events.tenant_id = candidates.tenant_id AND events.id = cited.id
        WHERE events.sensitivity = 'private'
      );
    `,
  },
  {
    name: 'context builds record the erases that redacted them',
    sql: `
      -- A JSON list, one entry per erase that removed from the packet what it quoted of erased data
      -- (another user's items, another session's events); NULL for a build no erase touched.
      ALTER TABLE context_builds ADD COLUMN redactions text COLLATE "C";
    `,
  },
  {
    name: 'event vectors carry their user, agent and storing time, in insertion order',
    sql: byteOrder(`
      -- Compose compares a query with the vectors of the user's events: they are read by user, and a
      -- reader that keeps them in memory reads only those stored after the last it has (vid). A
      -- replay compares only the vectors stored before its time (embedded_at); vectors stored before
      -- this migration count as stored when their event was recorded.
      CREATE TABLE event_vectors_by_user (
        vid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        tenant_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        event_id text NOT NULL,
        event_seq bigint NOT NULL,
        vector bytea NOT NULL,
        vector_model text NOT NULL,
        embedded_at text NOT NULL,
        UNIQUE (tenant_id, event_id)
      );
      INSERT INTO event_vectors_by_user (tenant_id, user_id, agent_id, event_id, event_seq, vector, vector_model, embedded_at)
        SELECT v.tenant_id, e.user_id, e.agent_id, v.event_id, e.seq, v.vector, v.vector_model, e.recorded_at
        FROM event_vectors v JOIN events e ON e.tenant_id = v.tenant_id AND e.id = v.event_id ORDER BY e.seq;
      DROP TABLE event_vectors;
      ALTER TABLE event_vectors_by_user RENAME TO event_vectors;
      CREATE INDEX event_vectors_of_user ON event_vectors (tenant_id, user_id, vector_model, vid);
    `),
  },
  {
    name: 'word counts of each indexed event and chunk, for BM25',
    sql: `
      -- The row's length in words and the words it says twice or more (src/util/bm25-stats.ts),
      -- written with the full-text entry: a search reads them with its candidates. Derived, like the
      -- entry: the append-only trigger leaves it out, and reindex rewrites it. Rows written before
      -- hold NULL and rank by their token count, each word once.
      ALTER TABLE events ADD COLUMN term_stats text COLLATE "C";
      ALTER TABLE memory_chunks ADD COLUMN term_stats text COLLATE "C";
    `,
  },
  {
    name: 'chunk vectors record when they were stored',
    sql: `
      -- A replay compares a query only with the item vectors stored before its packet's time, as the
      -- original compose did; vectors stored before this migration hold NULL and count as stored long ago.
      ALTER TABLE memory_chunks ADD COLUMN vector_at text COLLATE "C";
    `,
  },
];

// One lock per schema, so stores in different schemas of one database migrate independently.
const LOCK_SQL = "SELECT pg_advisory_lock(hashtext('engram.migrate.' || current_schema()))";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtext('engram.migrate.' || current_schema()))";

async function currentVersion(sql: Sql): Promise<number> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS engram_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const rows = await sql.rows('SELECT coalesce(max(version), 0) AS version FROM engram_migrations');
  return Number(rows[0]!['version']);
}

/**
 * Brings the schema to the latest version; each migration in its own transaction, all under the
 * schema's advisory lock. Fails on a schema newer than this Engram.
 */
export async function migrate(pool: SqlPool, schema: string): Promise<MigrationResult> {
  return pool.session(async (connection) => {
    await connection.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch((error: unknown) => {
      // Another process creating it at the same moment is fine (duplicate key or duplicate schema).
      if (sqlState(error) !== '23505' && sqlState(error) !== '42P06') throw error;
    });
    await connection.rows(LOCK_SQL);
    try {
      const from = await currentVersion(connection);
      if (from > migrations.length) {
        throw new StorageError(
          `the store is at schema version ${from}, newer than this Engram (${migrations.length}); upgrade Engram`,
          { field: 'store' },
        );
      }
      const applied: string[] = [];
      for (let version = from; version < migrations.length; version += 1) {
        const migration = migrations[version]!;
        await connection.exec('BEGIN');
        try {
          await connection.exec(migration.sql);
          await connection.run('INSERT INTO engram_migrations (version, name) VALUES (?, ?)', [
            version + 1,
            migration.name,
          ]);
          await connection.exec('COMMIT');
        } catch (error) {
          await connection.exec('ROLLBACK');
          throw error;
        }
        applied.push(migration.name);
      }
      return { from, to: migrations.length, applied };
    } finally {
      await connection.rows(UNLOCK_SQL);
    }
  });
}

/** The schema's version; fails when it is not the one this Engram needs (run `engram migrate`). */
export async function checkVersion(pool: SqlPool): Promise<void> {
  const rows = await pool.rows(
    "SELECT to_regclass(quote_ident(current_schema()) || '.engram_migrations') IS NOT NULL AS present",
  );
  const version =
    rows[0]!['present'] === true
      ? Number((await pool.rows('SELECT coalesce(max(version), 0) AS v FROM engram_migrations'))[0]!['v'])
      : 0;
  if (version !== migrations.length) {
    throw new StorageError(
      `the store is at schema version ${version}, this Engram needs ${migrations.length}: run \`engram migrate --store …\``,
      { field: 'store' },
    );
  }
}

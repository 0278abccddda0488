// Schema versions 1 to 3 of the PostgreSQL store: the episodic log with turns, working state and
// the short-term summary; long-term items with their chunks, full-text index and vectors; the
// context builds. Released: never edit.

import { IMMUTABLE_EVENT_COLUMNS, type Migration } from '../shared/migration.js';
import { byteOrder, eventsAppendOnly } from './migration-sql.js';

export const memoryMigrations: readonly Migration[] = [
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
];

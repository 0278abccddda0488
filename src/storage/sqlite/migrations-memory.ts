// Schema versions 1 to 3 of the SQLite store: the episodic log with turns, working state and the
// short-term summary; long-term items with their chunks, full-text index and vectors; the context
// builds. Released: never edit.

import { IMMUTABLE_EVENT_COLUMNS, type Migration } from '../shared/migration.js';

export const memoryMigrations: readonly Migration[] = [
  {
    name: 'episodic log, turns, working state, short-term summary',
    sql: `
      CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        turn_id TEXT,
        kind TEXT NOT NULL,
        marker TEXT,
        role TEXT NOT NULL,
        speaker TEXT,
        content_type TEXT NOT NULL,
        content TEXT NOT NULL,
        sensitivity TEXT NOT NULL,
        embeddable INTEGER NOT NULL,
        embedding_status TEXT NOT NULL,
        resonance_links TEXT NOT NULL,
        tags TEXT NOT NULL,
        snapshot_ref TEXT,
        namespace TEXT NOT NULL,
        thread_id TEXT,
        ts TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        expires_at TEXT,
        origin_metadata TEXT NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX events_by_session ON events (tenant_id, user_id, agent_id, session_id, id);
      CREATE INDEX events_by_expiry ON events (expires_at) WHERE expires_at IS NOT NULL;

      CREATE TRIGGER events_append_only BEFORE UPDATE ON events
      WHEN ${IMMUTABLE_EVENT_COLUMNS.map((column) => `NEW.${column} IS NOT OLD.${column}`).join(' OR ')}
      BEGIN
        SELECT RAISE(ABORT, 'engram: events are append-only; only status flags may change');
      END;

      -- Words of each event (Intl.Segmenter output), each stored as <scope prefix>_<word> so that a
      -- scoped query reads only its scope's postings. Every word is one token (apostrophes and
      -- underscores are token characters); no positions are kept, since queries are single words.
      CREATE VIRTUAL TABLE events_fts USING fts5(
        text, content = '', contentless_delete = 1, detail = none,
        tokenize = "porter unicode61 remove_diacritics 2 tokenchars '''_'"
      );

      -- Rowid tables: turn results and summaries are rows of hundreds of bytes to tens of kilobytes,
      -- which SQLite stores better outside a WITHOUT ROWID b-tree.
      CREATE TABLE turns (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        result TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id, turn_id)
      );

      CREATE TABLE working_state (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        state TEXT NOT NULL,
        state_version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id)
      );

      CREATE TABLE stm_summary (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        summary TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id, session_id)
      );
    `,
  },
  {
    name: 'long-term memory items, derived chunks and their index, vectors, embedding queue',
    sql: `
      CREATE TABLE memory_items (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        owner TEXT NOT NULL,
        user_id TEXT,
        agent_id TEXT,
        scope_level TEXT NOT NULL,
        type TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        confidence REAL NOT NULL,
        status TEXT NOT NULL,
        sensitivity TEXT NOT NULL,
        valid_from TEXT,
        valid_to TEXT,
        salience TEXT NOT NULL,
        version INTEGER NOT NULL,
        supersedes TEXT,
        source_event_ids TEXT NOT NULL,
        evidence_refs TEXT NOT NULL,
        provenance TEXT NOT NULL,
        tags TEXT NOT NULL,
        entities TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ended_at TEXT,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX items_by_key ON memory_items (tenant_id, owner, key, version);
      CREATE INDEX items_by_owner ON memory_items (tenant_id, owner, status, type, id);
      CREATE INDEX items_by_owner_recent ON memory_items (tenant_id, owner, status, id);

      -- Derived from items, rebuildable with reindex: one chunk per item version.
      CREATE TABLE memory_chunks (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        item_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        text TEXT NOT NULL,
        embedding_status TEXT NOT NULL,
        embedding_lease TEXT,
        vector BLOB,
        vector_model TEXT,
        UNIQUE (tenant_id, item_id)
      );
      CREATE INDEX chunks_by_owner ON memory_chunks (tenant_id, owner);
      CREATE INDEX chunks_embedding_queue ON memory_chunks (embedding_status, seq)
        WHERE embedding_status IN ('pending', 'processing');

      CREATE VIRTUAL TABLE items_fts USING fts5(
        text, content = '', contentless_delete = 1, detail = none,
        tokenize = "porter unicode61 remove_diacritics 2 tokenchars '''_'"
      );

      -- Event embeddings: the lease is a status flag, so the append-only trigger allows it.
      ALTER TABLE events ADD COLUMN embedding_lease TEXT;
      CREATE INDEX events_embedding_queue ON events (embedding_status, seq)
        WHERE embedding_status IN ('pending', 'processing');
      CREATE TABLE event_vectors (
        tenant_id TEXT NOT NULL,
        event_seq INTEGER PRIMARY KEY,
        vector BLOB NOT NULL,
        vector_model TEXT NOT NULL
      );
    `,
  },
  {
    name: 'context builds: every composed packet with its request, as-of time and hash',
    sql: `
      CREATE TABLE context_builds (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        session_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        purpose TEXT NOT NULL,
        request TEXT NOT NULL,
        as_of TEXT NOT NULL,
        selected TEXT NOT NULL,
        packet_hash TEXT NOT NULL,
        packet TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX builds_by_session ON context_builds (tenant_id, user_id, agent_id, session_id, seq);
    `,
  },
];

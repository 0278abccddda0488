// Ordered schema migrations of the SQLite store; a migration's index in the list is its version
// (kept in PRAGMA user_version). Never edit a released migration: append a new one.

/** One migration: a name for logs and the SQL that moves the schema one version up. */
export interface Migration {
  name: string;
  sql: string;
}

// Columns of `events` that may never change after insert; the trigger below enforces it even
// against SQL run outside Engram.
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

export const migrations: readonly Migration[] = [
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
  {
    name: 'API keys of the service: hashed, bound to a tenant and a role',
    sql: `
      CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        role TEXT NOT NULL,
        label TEXT,
        hash TEXT NOT NULL UNIQUE,
        last4 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        UNIQUE (tenant_id, id)
      );
    `,
  },
  {
    name: 'background jobs: claimed with a lease, retried, done once',
    sql: `
      CREATE TABLE jobs (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        lease_until TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX jobs_claimable ON jobs (kind, status, seq) WHERE status IN ('pending', 'running');
    `,
  },
  {
    name: 'full-text upkeep: a merge step takes any level holding two segments or more',
    sql: `
      -- The 'merge' command of mergeIndexes, run by the background worker, then leaves at most one
      -- segment per level: a read of a word seeks once per segment. Writes still merge on their own
      -- at four segments a level (automerge), so they cost what they did.
      INSERT INTO events_fts (events_fts, rank) VALUES ('usermerge', 2);
      INSERT INTO items_fts (items_fts, rank) VALUES ('usermerge', 2);
    `,
  },
  {
    name: 'event counts per user and agent, for the rarity of searched words',
    sql: `
      -- A search weighs a word by its rarity among the events of the searched user's agents: one row
      -- read here instead of a walk of the session index. The event store keeps the counts in the
      -- transaction of every insert and delete of events (triggers would do it with a statement
      -- journal per insert, which makes FTS5 flush its pending terms each time: twice the cost).
      CREATE TABLE event_scope_sizes (
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        events INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, user_id, agent_id)
      ) WITHOUT ROWID;
      INSERT INTO event_scope_sizes (tenant_id, user_id, agent_id, events)
        SELECT tenant_id, user_id, agent_id, count(*) FROM events GROUP BY tenant_id, user_id, agent_id;
    `,
  },
  {
    name: 'token counts: what compose charges for the text of each event and item version',
    sql: `
      -- Counted when the row is written (src/composer/text-tokens.ts), so compose does not count the
      -- text again on every read. Derived from the text, like the full-text entry: the append-only
      -- trigger leaves it out. Rows written before hold NULL and are counted when compose reads them.
      ALTER TABLE events ADD COLUMN text_tokens INTEGER;
      ALTER TABLE memory_items ADD COLUMN text_tokens INTEGER;
    `,
  },
  {
    name: 'review candidates carry the strongest sensitivity of their evidence',
    sql: `
      -- A candidate drawn from private events writes at its user's level only, and the review
      -- queue says so. Candidates stored before are marked from their events as they stand.
      ALTER TABLE candidates ADD COLUMN sensitivity TEXT NOT NULL DEFAULT 'normal';
      UPDATE candidates SET sensitivity = 'private' WHERE EXISTS (
        SELECT 1 FROM json_each(candidates.source_event_ids) AS cited
        JOIN events ON events.tenant_id = candidates.tenant_id AND events.id = cited.value
        WHERE events.sensitivity = 'private'
      );
    `,
  },
  {
    name: 'context builds record the erases that redacted them',
    sql: `
      -- A JSON list, one entry per erase that removed from the packet what it quoted of erased data
      -- (another user's items, another session's events); NULL for a build no erase touched.
      ALTER TABLE context_builds ADD COLUMN redactions TEXT;
    `,
  },
  {
    name: 'event vectors carry their user, agent and storing time, in insertion order',
    sql: `
      -- Compose compares a query with the vectors of the user's events: they are read by user, and a
      -- reader that keeps them in memory reads only those stored after the last it has (vid). A
      -- replay compares only the vectors stored before its time (embedded_at); vectors stored before
      -- this migration count as stored when their event was recorded.
      CREATE TABLE event_vectors_by_user (
        vid INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        event_seq INTEGER NOT NULL UNIQUE,
        vector BLOB NOT NULL,
        vector_model TEXT NOT NULL,
        embedded_at TEXT NOT NULL
      );
      INSERT INTO event_vectors_by_user (tenant_id, user_id, agent_id, event_seq, vector, vector_model, embedded_at)
        SELECT v.tenant_id, e.user_id, e.agent_id, v.event_seq, v.vector, v.vector_model, e.recorded_at
        FROM event_vectors v JOIN events e ON e.seq = v.event_seq ORDER BY v.event_seq;
      DROP TABLE event_vectors;
      ALTER TABLE event_vectors_by_user RENAME TO event_vectors;
      CREATE INDEX event_vectors_of_user ON event_vectors (tenant_id, user_id, vector_model, vid);
    `,
  },
  {
    name: 'word counts of each indexed event and chunk, for BM25',
    sql: `
      -- The row's length in words and the words it says twice or more (src/util/bm25-stats.ts),
      -- written with the full-text entry: a search ranks its candidates by them without reading
      -- their text. Derived, like the entry: the append-only trigger leaves it out, and reindex
      -- rewrites it. Rows written before hold NULL and rank by their token count, each word once.
      ALTER TABLE events ADD COLUMN term_stats TEXT;
      ALTER TABLE memory_chunks ADD COLUMN term_stats TEXT;
    `,
  },
  {
    name: 'chunk vectors record when they were stored',
    sql: `
      -- A replay compares a query only with the item vectors stored before its packet's time, as the
      -- original compose did; vectors stored before this migration hold NULL and count as stored long ago.
      ALTER TABLE memory_chunks ADD COLUMN vector_at TEXT;
    `,
  },
];

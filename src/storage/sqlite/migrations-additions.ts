// Schema versions 8 to 15 of the SQLite store: what was added to the first schema as search,
// compose, review and erasure grew (full-text upkeep, word and token counts, candidate
// sensitivity, build redactions, vectors by user and storing time). Released: never edit.

import type { Migration } from '../shared/migration.js';

export const additionMigrations: readonly Migration[] = [
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

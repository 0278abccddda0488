// Schema versions 8 to 14 of the PostgreSQL store: what was added to the first schema as search,
// compose, review and erasure grew (a rebuildable full-text entry, word and token counts,
// candidate sensitivity, build redactions, vectors by user and storing time). Released: never edit.

import { IMMUTABLE_EVENT_COLUMNS, type Migration } from '../shared/migration.js';
import { byteOrder, eventsAppendOnly } from './migration-sql.js';

export const additionMigrations: readonly Migration[] = [
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

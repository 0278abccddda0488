// What a schema migration is, for both SQL stores, and the columns of `events` that their
// append-only triggers hold fixed. Both stores keep their migrations as an ordered list whose index
// is the version; never edit a released migration: append a new one.

/** One migration: a name for logs and the SQL that moves the schema one version up. */
export interface Migration {
  name: string;
  sql: string;
}

/**
 * Columns of `events` that may never change after insert; each store's trigger enforces it even
 * against SQL run outside Engram.
 */
export const IMMUTABLE_EVENT_COLUMNS: readonly string[] = [
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

// SQL builders of the PostgreSQL migrations: the append-only trigger function of `events` and the
// byte order of text columns. Released migrations call them, so their output must never change.

/**
 * The trigger function that refuses any change to the given columns of an event. The first schema
 * also held the full-text entry (`search`) fixed; since version 8 it is derived from the text and
 * may be rebuilt (engram reindex).
 */
export function eventsAppendOnly(columns: readonly string[]): string {
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
export function byteOrder(sql: string): string {
  return sql.replace(/^(\s+(?:\w+|"trigger")) text\b/gm, '$1 text COLLATE "C"');
}

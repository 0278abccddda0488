// Exporting a tenant (or one user of it) from SQLite: each table read page by page in insertion
// order (rowid; `seq` is the rowid of the tables that have it), mapped by the shared row readers
// (shared/export-sources.ts) to the records of an export, each turn right after its events
// (shared/export-turns.ts). Derived tables (chunks, full-text entries, vectors) and API keys are never read.

import type Database from 'better-sqlite3';

import { EXPORT_KINDS, type ExportRecord, type ExportScope } from '../../spec/export.js';
import { EXPORT_PAGE_SIZE, EXPORT_SOURCES, exportRecord, type TableSource } from '../shared/export-sources.js';
import { eventsWithTurns, type KeyedRecord, type TurnLookups, type TurnRecord } from '../shared/export-turns.js';
import { BOUND_LIMIT, Filters, type Row } from '../shared/rows.js';

const TURN_COLUMNS = 'rowid AS export_key, tenant_id, user_id, agent_id, session_id, turn_id, result';
const TURN_SQL = `SELECT ${TURN_COLUMNS} FROM turns WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ? AND turn_id = ?`;
const TURNS_AT_SQL = `SELECT ${TURN_COLUMNS} FROM turns WHERE rowid IN (SELECT value FROM json_each(?)) AND tenant_id = ?`;
/** Turn keys read a page at a time: ids only, so pages can be large. */
const KEY_PAGE_SIZE = EXPORT_PAGE_SIZE * 10;

/** Reads the records of an export from the store's tables. */
export class ExportStore {
  constructor(
    private readonly cached: (sql: string) => Database.Statement,
    /** Throws once the store is closed; checked before every page. */
    private readonly guard: () => void,
  ) {}

  /** Every record of the scope: events with each turn after them, then the other kinds in EXPORT_KINDS order. */
  async *records(scope: ExportScope): AsyncGenerator<ExportRecord> {
    yield* eventsWithTurns(this.pages(EXPORT_SOURCES.event, scope), this.turnLookups(scope));
    for (const kind of EXPORT_KINDS) {
      if (kind === 'event' || kind === 'turn') continue;
      for await (const page of this.pages(EXPORT_SOURCES[kind], scope)) for (const { record } of page) yield record;
    }
  }

  private turnLookups(scope: ExportScope): TurnLookups {
    const turn = (row: Row) => ({
      key: row['export_key'] as number,
      record: exportRecord(EXPORT_SOURCES.turn, row) as TurnRecord,
    });
    return {
      // Point reads on the primary key: a few microseconds each, one prepared statement.
      turnsOf: async (refs) =>
        refs.flatMap((ref) => {
          const row = this.cached(TURN_SQL)
            .raw(false)
            .get(scope.tenant_id, ref.user_id, ref.agent_id, ref.session_id, ref.turn_id) as Row | undefined;
          return row === undefined ? [] : [turn(row)];
        }),
      turnKeys: () => this.turnKeys(scope),
      turnsAt: async (keys) =>
        (this.cached(TURNS_AT_SQL).raw(false).all(JSON.stringify(keys), scope.tenant_id) as Row[]).map(turn),
    };
  }

  private async *turnKeys(scope: ExportScope): AsyncGenerator<number[]> {
    const filters = new Filters(scope.tenant_id).equals('user_id', scope.user_id);
    const sql = `SELECT rowid FROM turns WHERE ${filters.where.map((clause) => `+${clause}`).join(' AND ')} AND rowid > ? ORDER BY rowid ${BOUND_LIMIT}`;
    for (let after = 0; ;) {
      this.guard();
      const keys = this.cached(sql)
        .pluck()
        .all(...filters.params, after, KEY_PAGE_SIZE) as number[];
      if (keys.length > 0) yield keys;
      if (keys.length < KEY_PAGE_SIZE) return;
      after = keys[keys.length - 1]!;
    }
  }

  private async *pages(source: TableSource, scope: ExportScope): AsyncGenerator<KeyedRecord[]> {
    const filters = new Filters(scope.tenant_id);
    if (scope.user_id !== undefined) {
      if (source.userFilter === undefined) filters.equals('user_id', scope.user_id);
      else source.userFilter(filters, scope.user_id);
    }
    // `+` keeps every column off the indexes: SQLite walks the table by rowid from the page's
    // start, so a page costs the rows it passes, never a sort of all the tenant's rows.
    const where = filters.where.map((clause) => `+${clause}`).join(' AND ');
    const sql = `SELECT rowid AS export_key, ${source.select} FROM ${source.table} WHERE ${where} AND rowid > ? ORDER BY rowid ${BOUND_LIMIT}`;
    let after = 0;
    for (;;) {
      this.guard();
      const statement = this.cached(sql);
      const page = source.raw
        ? (statement.raw(true).all(...filters.params, after, EXPORT_PAGE_SIZE) as unknown[][])
        : (statement.raw(false).all(...filters.params, after, EXPORT_PAGE_SIZE) as Row[]);
      const keyed = page.map((row) => ({
        key: (Array.isArray(row) ? row[0] : row['export_key']) as number,
        record: exportRecord(source, row),
      }));
      if (keyed.length > 0) yield keyed;
      if (page.length < EXPORT_PAGE_SIZE) return;
      after = keyed[keyed.length - 1]!.key;
    }
  }
}

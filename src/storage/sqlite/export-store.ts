// Exporting a tenant (or one user of it) from SQLite: each table read page by page in insertion
// order (rowid; `seq` is the rowid of the tables that have it), mapped by the shared row readers
// (shared/export-sources.ts) to the records of an export. Derived tables (chunks, full-text entries, vectors) and API
// keys are never read.

import type Database from 'better-sqlite3';

import { EXPORT_KINDS, type ExportRecord, type ExportScope } from '../../spec/export.js';
import { EXPORT_PAGE_SIZE, EXPORT_SOURCES, exportRecord, type TableSource } from '../shared/export-sources.js';
import { BOUND_LIMIT, Filters, type Row } from '../shared/rows.js';

/** Reads the records of an export from the store's tables. */
export class ExportStore {
  constructor(
    private readonly cached: (sql: string) => Database.Statement,
    /** Throws once the store is closed; checked before every page. */
    private readonly guard: () => void,
  ) {}

  /** Every record of the scope, kind by kind in EXPORT_KINDS order, each table in insertion order. */
  async *records(scope: ExportScope): AsyncGenerator<ExportRecord> {
    for (const kind of EXPORT_KINDS) yield* this.table(EXPORT_SOURCES[kind], scope);
  }

  private async *table(source: TableSource, scope: ExportScope): AsyncGenerator<ExportRecord> {
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
      for (const row of page) yield exportRecord(source, row);
      if (page.length < EXPORT_PAGE_SIZE) return;
      const last = page[page.length - 1]!;
      after = (Array.isArray(last) ? last[0] : last['export_key']) as number;
    }
  }
}

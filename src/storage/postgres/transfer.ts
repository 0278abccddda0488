// Export on PostgreSQL: each table read page by page in insertion order (`seq`, indexed per
// tenant), mapped by the shared row readers, each turn right after its events
// (shared/export-turns.ts). Erasure is in erase.ts.

import type { ExportRecord, ExportScope } from '../../spec/export.js';
import { EXPORT_KINDS } from '../../spec/export.js';
import { EXPORT_PAGE_SIZE, EXPORT_SOURCES, exportRecord, type TableSource } from '../shared/export-sources.js';
import { eventsWithTurns, type KeyedRecord, type TurnLookups, type TurnRecord } from '../shared/export-turns.js';
import { Filters, type Row } from '../shared/rows.js';
import type { Sql } from './client.js';

const TURN_COLUMNS = 't.seq AS export_key, t.tenant_id, t.user_id, t.agent_id, t.session_id, t.turn_id, t.result';
// One statement for any number of turns: their keys as four parallel arrays.
const TURNS_OF_SQL = `SELECT ${TURN_COLUMNS} FROM turns t
  JOIN unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS wanted(user_id, agent_id, session_id, turn_id)
    ON t.user_id = wanted.user_id AND t.agent_id = wanted.agent_id AND t.session_id = wanted.session_id AND t.turn_id = wanted.turn_id
  WHERE t.tenant_id = ?`;
const TURNS_AT_SQL = `SELECT ${TURN_COLUMNS} FROM turns t WHERE t.tenant_id = ? AND t.seq = ANY(?::bigint[])`;
/** Turn keys read a page at a time: ids only, so pages can be large. */
const KEY_PAGE_SIZE = EXPORT_PAGE_SIZE * 10;

function turnLookups(sql: Sql, scope: ExportScope, guard: () => void): TurnLookups {
  const turn = (row: Row) => ({
    key: Number(row['export_key']),
    record: exportRecord(EXPORT_SOURCES.turn, row) as TurnRecord,
  });
  return {
    turnsOf: async (refs) => {
      const columns = (['user_id', 'agent_id', 'session_id', 'turn_id'] as const).map((column) =>
        refs.map((ref) => ref[column]),
      );
      return (await sql.rows(TURNS_OF_SQL, [...columns, scope.tenant_id])).map(turn);
    },
    turnKeys: async function* () {
      const filters = new Filters(scope.tenant_id).equals('user_id', scope.user_id);
      const text = `SELECT seq FROM turns WHERE ${filters.where.join(' AND ')} AND seq > ? ORDER BY seq LIMIT ?`;
      for (let after = 0; ;) {
        guard();
        const keys = (await sql.arrays(text, [...filters.params, after, KEY_PAGE_SIZE])).map((row) => Number(row[0]));
        if (keys.length > 0) yield keys;
        if (keys.length < KEY_PAGE_SIZE) return;
        after = keys[keys.length - 1]!;
      }
    },
    turnsAt: async (keys) => (await sql.rows(TURNS_AT_SQL, [scope.tenant_id, [...keys]])).map(turn),
  };
}

/** Every record of the scope: events with each turn after them, then the other kinds in EXPORT_KINDS order. */
export async function* exportRecords(sql: Sql, scope: ExportScope, guard: () => void): AsyncGenerator<ExportRecord> {
  yield* eventsWithTurns(exportPages(sql, EXPORT_SOURCES.event, scope, guard), turnLookups(sql, scope, guard));
  for (const kind of EXPORT_KINDS) {
    if (kind === 'event' || kind === 'turn') continue;
    for await (const page of exportPages(sql, EXPORT_SOURCES[kind], scope, guard))
      for (const { record } of page) yield record;
  }
}

async function* exportPages(
  sql: Sql,
  source: TableSource,
  scope: ExportScope,
  guard: () => void,
): AsyncGenerator<KeyedRecord[]> {
  const filters = new Filters(scope.tenant_id);
  if (scope.user_id !== undefined) {
    if (source.userFilter === undefined) filters.equals('user_id', scope.user_id);
    else source.userFilter(filters, scope.user_id);
  }
  // `*` would bring the derived search column along; the shared source names what a record needs.
  const select = source.select === '*' ? `${source.table}.*` : source.select;
  const text = `SELECT seq AS export_key, ${select} FROM ${source.table} WHERE ${filters.where.join(' AND ')} AND seq > ? ORDER BY seq LIMIT ?`;
  let after = 0;
  for (;;) {
    guard();
    const page = source.raw
      ? await sql.arrays(text, [...filters.params, after, EXPORT_PAGE_SIZE])
      : await sql.rows(text, [...filters.params, after, EXPORT_PAGE_SIZE]);
    const keyed = page.map((row) => ({
      key: Number(Array.isArray(row) ? row[0] : (row as Row)['export_key']),
      record: exportRecord(source, row),
    }));
    if (keyed.length > 0) yield keyed;
    if (page.length < EXPORT_PAGE_SIZE) return;
    after = keyed[keyed.length - 1]!.key;
  }
}

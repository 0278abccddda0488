// Erasing a user, or one session of theirs, from PostgreSQL: every row of theirs in every table
// (full-text entries live in the rows, so they go with them), the records of the runs a session
// took part in, their queued jobs, and the copies other rows keep (erase-copies.ts). Runs inside
// the caller's transaction and counts what each table lost.

import type { EraseCounts, EraseScope } from '../../spec/export.js';
import { ownerOf } from '../../spec/items.js';
import { eraseSql } from '../shared/erase-sql.js';
import { RUN_TABLES, SESSION_TABLES, USER_TABLES } from '../shared/erase-tables.js';
import type { Sql } from './client.js';
import { eraseJobs, redactBuilds, trimItemSources, type Runs } from './erase-copies.js';

/** The (agent, run) pairs of two parallel text arrays, for a row-value IN. */
const RUNS_IN = 'SELECT * FROM unnest(?::text[], ?::text[])';

/**
 * Deletes the rows of a user or a session and redacts the copies kept elsewhere; see
 * StorageAdapter.erase. Call inside a transaction.
 *
 * @example
 * const counts = await pool.transaction((tx) => eraseScope(tx, { tenant_id: 't1', user_id: 'mira' }));
 */
export async function eraseScope(tx: Sql, scope: EraseScope): Promise<EraseCounts> {
  const { tenant_id: tenantId, user_id: userId, session_id: sessionId } = scope;
  const session = sessionId !== undefined;
  const sql = eraseSql(scope, RUNS_IN);
  const { where, params } = sql;
  // Read before anything goes: the scope's items (a session's are found through its events), the
  // ids its copies may cite, and the runs a session took part in.
  const itemIds = session
    ? await sessionItemIds(tx, tenantId, userId, sessionId)
    : await column(tx, 'SELECT id FROM memory_items WHERE tenant_id = ? AND (user_id = ? OR owner = ?)', [
        tenantId,
        userId,
        ownerOf('user', userId, null),
      ]);
  const eventIds = await column(tx, sql.eventIds, params);
  const runs: Runs | null = session ? runsOf(await tx.arrays(sql.runs, params)) : null;
  const insightIds =
    runs === null
      ? await column(tx, sql.userInsightIds, [tenantId, userId])
      : await column(tx, sql.runInsightIds, [tenantId, userId, runs.agents, runs.runs]);

  const counts: EraseCounts = {};
  counts['event_vectors'] = await tx.run(
    `DELETE FROM event_vectors v USING events e WHERE v.tenant_id = e.tenant_id AND v.event_id = e.id AND ${where.replace(/(\w+) = \?/g, 'e.$1 = ?')}`,
    params,
  );
  counts['events'] = await tx.run(sql.deleteScope('events'), params);
  counts['memory_chunks'] = await tx.run('DELETE FROM memory_chunks WHERE tenant_id = ? AND item_id = ANY(?::text[])', [
    tenantId,
    itemIds,
  ]);
  counts['memory_items'] = await tx.run('DELETE FROM memory_items WHERE tenant_id = ? AND id = ANY(?::text[])', [
    tenantId,
    itemIds,
  ]);
  for (const table of session ? SESSION_TABLES : USER_TABLES)
    counts[table] = await tx.run(sql.deleteScope(table), params);
  if (runs !== null) {
    for (const table of RUN_TABLES) {
      const gone = await tx.run(sql.deleteRuns(table), [tenantId, userId, runs.agents, runs.runs]);
      counts[table] = (counts[table] ?? 0) + gone;
    }
  }
  counts['jobs'] = await eraseJobs(tx, tenantId, userId, runs);
  const erased = new Set([...eventIds, ...itemIds, ...insightIds]);
  counts['context_builds_redacted'] = await redactBuilds(tx, tenantId, userId, erased, {
    at: scope.at ?? new Date().toISOString(),
    erased: session ? 'session' : 'user',
  });
  if (session) counts['memory_items_sources_trimmed'] = await trimItemSources(tx, tenantId, userId, eventIds);
  return counts;
}

/** The first column of a query's rows, as strings. */
async function column(tx: Sql, sql: string, params: readonly unknown[]): Promise<string[]> {
  return (await tx.arrays(sql, params)).map((row) => row[0] as string);
}

/** [agent_id, run_id] rows as the parallel arrays RUNS_IN takes. */
function runsOf(rows: readonly unknown[][]): Runs {
  return { agents: rows.map((row) => row[0] as string), runs: rows.map((row) => row[1] as string) };
}

/** The user's items with sources, all of them events of the session (items with other sources stay). */
function sessionItemIds(tx: Sql, tenantId: string, userId: string, sessionId: string): Promise<string[]> {
  return column(
    tx,
    `SELECT i.id FROM memory_items i
     WHERE i.tenant_id = ? AND (i.user_id = ? OR i.owner = ?) AND jsonb_array_length(i.source_event_ids::jsonb) > 0
       AND NOT EXISTS (
         SELECT 1 FROM jsonb_array_elements_text(i.source_event_ids::jsonb) AS source(event_id)
         WHERE NOT EXISTS (
           SELECT 1 FROM events e WHERE e.tenant_id = i.tenant_id AND e.id = source.event_id AND e.user_id = ? AND e.session_id = ?
         )
       )`,
    [tenantId, userId, ownerOf('user', userId, null), userId, sessionId],
  );
}

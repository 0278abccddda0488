// What an erase reaches on SQLite beyond the scope's own rows: the jobs queued for the user (or
// for the runs a session took part in), the context builds of other users and sessions that quoted
// erased data (redacted), and the sources of the user's items that stay. Inside the erase's transaction.

import type Database from 'better-sqlite3';

import type { EvidenceRef } from '../../spec/items.js';
import type { BuildRedaction } from '../../spec/storage.js';
import { citedIds, redactBuild, withoutErasedSources } from '../shared/erased-copies.js';
import type { Row } from '../shared/rows.js';
import { BUILD_SELECT, buildFromRow } from '../shared/service-rows.js';

/** The SQL function that lists the ids a packet's text names (a JSON list; registerCitedIds). */
const CITED_IDS = 'engram_cited_ids';

/**
 * Gives the connection the function the build search reads a packet's cited ids with: every id of
 * an event, item or insight its text names, wherever (a fact's sources, a citation, an explain line).
 *
 * @example
 * registerCitedIds(db); // SELECT engram_cited_ids(packet) FROM context_builds
 */
export function registerCitedIds(db: Database.Database): void {
  db.function(CITED_IDS, { deterministic: true }, (text: unknown) =>
    JSON.stringify(typeof text === 'string' ? citedIds(text) : []),
  );
}

/** Builds read per step while redacting (each holds a whole packet). */
const BUILD_PAGE = 100;

/**
 * The copies an erase changes rather than deletes; see Eraser.
 *
 * @example
 * const copies = new ErasedCopies((sql) => db.prepare(sql));
 * copies.redactBuilds('t1', 'mira', new Set(['mem_01J…']), { at: now, erased: 'user' }); // 2
 */
export class ErasedCopies {
  constructor(private readonly cached: (sql: string) => Database.Statement) {}

  /** Deletes the user's jobs (with `runs`, a JSON list of [agent, run]: only those runs'); returns how many. */
  eraseJobs(tenantId: string, userId: string, runs: string | null): number {
    const ofUser = "tenant_id = ? AND json_extract(payload, '$.scope.user_id') = ?";
    if (runs === null) return this.cached(`DELETE FROM jobs WHERE ${ofUser}`).run(tenantId, userId).changes;
    const sql = `DELETE FROM jobs WHERE ${ofUser} AND (json_extract(payload, '$.scope.agent_id'), json_extract(payload, '$.scope.run_id'))
      IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))`;
    return this.cached(sql).run(tenantId, userId, runs).changes;
  }

  /**
   * Redacts every build of the tenant that is left and cites an erased id: found by its selected
   * events and items, or, among the user's own builds (in a session erase), by an erased id
   * anywhere in its packet (an insight, an event among a fact's sources or the citations). Returns
   * how many builds changed.
   */
  redactBuilds(
    tenantId: string,
    userId: string,
    erased: ReadonlySet<string>,
    why: Pick<BuildRedaction, 'at' | 'erased'>,
  ): number {
    const ids = JSON.stringify([...erased]);
    // One pass finds them all: the erased ids become one temporary index, probed with each selected
    // id and each id the user's packets name (each packet read once, whatever the number of ids);
    // pages of them are then read by row number.
    const seqs = this.cached(
      `SELECT seq FROM context_builds b
      WHERE b.tenant_id = ? AND (
        EXISTS (SELECT 1 FROM json_each(b.selected) AS s WHERE s.value IN (SELECT value FROM json_each(?)))
        OR (b.user_id = ? AND EXISTS (
          SELECT 1 FROM json_each(${CITED_IDS}(b.packet)) AS c WHERE c.value IN (SELECT value FROM json_each(?))
        ))
      )
      ORDER BY b.seq`,
    )
      .pluck()
      .all(tenantId, ids, userId, ids) as number[];
    const read = this.cached(
      `SELECT seq, ${BUILD_SELECT} FROM context_builds WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq`,
    );
    const update = this.cached('UPDATE context_builds SET selected = ?, packet = ?, redactions = ? WHERE seq = ?');
    let changed = 0;
    for (let start = 0; start < seqs.length; start += BUILD_PAGE) {
      for (const row of read.all(JSON.stringify(seqs.slice(start, start + BUILD_PAGE))) as Row[]) {
        const redacted = redactBuild(buildFromRow(row), erased, why);
        if (redacted === null) continue;
        update.run(
          JSON.stringify(redacted.selected),
          JSON.stringify(redacted.packet),
          JSON.stringify(redacted.redactions),
          row['seq'],
        );
        changed += 1;
      }
    }
    return changed;
  }

  /** Removes erased events from the sources of the user's items that stay; returns how many changed. */
  trimItemSources(tenantId: string, userId: string, erasedEvents: ReadonlySet<string>): number {
    const rows = this.cached(
      `SELECT seq, source_event_ids, evidence_refs FROM memory_items i
      WHERE i.tenant_id = ? AND i.user_id = ?
        AND EXISTS (SELECT 1 FROM json_each(i.source_event_ids) AS s WHERE s.value IN (SELECT value FROM json_each(?)))`,
    ).all(tenantId, userId, JSON.stringify([...erasedEvents])) as Row[];
    const update = this.cached('UPDATE memory_items SET source_event_ids = ?, evidence_refs = ? WHERE seq = ?');
    let changed = 0;
    for (const row of rows) {
      const kept = withoutErasedSources(
        {
          source_event_ids: JSON.parse(row['source_event_ids'] as string) as string[],
          evidence_refs: JSON.parse(row['evidence_refs'] as string) as EvidenceRef[],
        },
        erasedEvents,
      );
      if (kept === null) continue;
      update.run(JSON.stringify(kept.source_event_ids), JSON.stringify(kept.evidence_refs), row['seq']);
      changed += 1;
    }
    return changed;
  }
}

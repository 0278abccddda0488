// What an erase reaches on PostgreSQL beyond the scope's own rows: the jobs queued for the user (or
// for the runs a session took part in), the context builds of other users and sessions that quoted
// erased data (redacted), and the sources of the user's items that stay. Inside the erase's transaction.

import type { EvidenceRef } from '../../spec/items.js';
import type { BuildRedaction } from '../../spec/storage.js';
import { CITED_ID_PATTERN, redactBuild, withoutErasedSources } from '../shared/erased-copies.js';
import type { Row } from '../shared/rows.js';
import { BUILD_SELECT, buildFromRow } from '../shared/service-rows.js';
import type { Sql } from './client.js';

/** The runs a session took part in, as parallel arrays of agent and run ids. */
export interface Runs {
  agents: string[];
  runs: string[];
}

/** Builds read per step while redacting (each holds a whole packet). */
const BUILD_PAGE = 100;

/**
 * Deletes the user's jobs (with `runs`: only those runs'); returns how many.
 *
 * @example
 * await eraseJobs(tx, 't1', 'mira', null); // 1
 */
export function eraseJobs(tx: Sql, tenantId: string, userId: string, runs: Runs | null): Promise<number> {
  const ofUser = "tenant_id = ? AND payload::jsonb -> 'scope' ->> 'user_id' = ?";
  if (runs === null) return tx.run(`DELETE FROM jobs WHERE ${ofUser}`, [tenantId, userId]);
  return tx.run(
    `DELETE FROM jobs WHERE ${ofUser} AND (payload::jsonb -> 'scope' ->> 'agent_id', payload::jsonb -> 'scope' ->> 'run_id') IN (SELECT * FROM unnest(?::text[], ?::text[]))`,
    [tenantId, userId, runs.agents, runs.runs],
  );
}

/**
 * Redacts every build of the tenant that is left and cites an erased id: found by its selected
 * events and items (joined to the erased ids, so a user with many events costs one hash join), or,
 * among the user's own builds (in a session erase), by an erased id anywhere in its packet (an
 * insight, an event among a fact's sources or the citations). Returns how many builds changed.
 *
 * @example
 * await redactBuilds(tx, 't1', 'mira', new Set(['mem_01J…']), { at: now, erased: 'user' }); // 2
 */
export async function redactBuilds(
  tx: Sql,
  tenantId: string,
  userId: string,
  erased: ReadonlySet<string>,
  why: Pick<BuildRedaction, 'at' | 'erased'>,
): Promise<number> {
  const ids = [...erased];
  const seqs = (
    await tx.arrays(
      `SELECT b.seq FROM context_builds b
         CROSS JOIN LATERAL jsonb_array_elements_text(b.selected::jsonb) AS s(id)
         JOIN unnest(?::text[]) AS e(id) ON e.id = s.id
       WHERE b.tenant_id = ?
       UNION
       SELECT b.seq FROM context_builds b
         CROSS JOIN LATERAL regexp_matches(b.packet, ?, 'g') AS m(id)
         JOIN unnest(?::text[]) AS e(id) ON e.id = m.id[1]
       WHERE b.tenant_id = ? AND b.user_id = ?
       ORDER BY 1`,
      [ids.filter((id) => !id.startsWith('ins_')), tenantId, CITED_ID_PATTERN, ids, tenantId, userId],
    )
  ).map((row) => String(row[0]));
  let changed = 0;
  for (let start = 0; start < seqs.length; start += BUILD_PAGE) {
    const rows = await tx.rows(
      `SELECT seq, ${BUILD_SELECT} FROM context_builds WHERE tenant_id = ? AND seq = ANY(?::bigint[])`,
      [tenantId, seqs.slice(start, start + BUILD_PAGE)],
    );
    for (const row of rows) {
      const redacted = redactBuild(buildFromRow(row), erased, why);
      if (redacted === null) continue;
      await tx.run(
        'UPDATE context_builds SET selected = ?, packet = ?, redactions = ? WHERE tenant_id = ? AND seq = ?',
        [
          JSON.stringify(redacted.selected),
          JSON.stringify(redacted.packet),
          JSON.stringify(redacted.redactions),
          tenantId,
          row['seq'],
        ],
      );
      changed += 1;
    }
  }
  return changed;
}

/**
 * Removes erased events from the sources of the user's items that stay; returns how many changed.
 *
 * @example
 * await trimItemSources(tx, 't1', 'mira', ['evt_01J…']); // 1
 */
export async function trimItemSources(
  tx: Sql,
  tenantId: string,
  userId: string,
  erasedEvents: readonly string[],
): Promise<number> {
  const rows: Row[] = await tx.rows(
    `SELECT id, source_event_ids, evidence_refs FROM memory_items i
     WHERE i.tenant_id = ? AND i.user_id = ? AND EXISTS (
       SELECT 1 FROM jsonb_array_elements_text(i.source_event_ids::jsonb) AS s(id) JOIN unnest(?::text[]) AS e(id) ON e.id = s.id
     )`,
    [tenantId, userId, erasedEvents],
  );
  const erased = new Set(erasedEvents);
  let changed = 0;
  for (const row of rows) {
    const sources = {
      source_event_ids: JSON.parse(row['source_event_ids'] as string) as string[],
      evidence_refs: JSON.parse(row['evidence_refs'] as string) as EvidenceRef[],
    };
    const kept = withoutErasedSources(sources, erased);
    if (kept === null) continue;
    await tx.run('UPDATE memory_items SET source_event_ids = ?, evidence_refs = ? WHERE tenant_id = ? AND id = ?', [
      JSON.stringify(kept.source_event_ids),
      JSON.stringify(kept.evidence_refs),
      tenantId,
      row['id'],
    ]);
    changed += 1;
  }
  return changed;
}

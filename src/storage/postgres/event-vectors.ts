// Nearest events by meaning on PostgreSQL: the user's event vectors are kept in this process's
// memory (read once, then only those stored since, by any process), compared exactly, and the best
// candidates read back as events through the same filters as a full-text search.

import type { EventSearchHit, NearestEventsQuery } from '../../spec/storage.js';
import { fromBlob } from '../../util/vectors.js';
import { EVENT_SELECT, eventFilters } from '../shared/event-rows.js';
import { EventVectorScopes } from '../shared/event-vector-scopes.js';
import { placeholders } from '../shared/rows.js';
import type { SqlPool } from './client.js';

const SINCE =
  'SELECT vid, event_seq, agent_id, embedded_at, vector FROM event_vectors WHERE tenant_id = ? AND user_id = ? AND vector_model = ? AND vid > ? ORDER BY vid';

export class PgEventVectors {
  private readonly scopes = new EventVectorScopes();

  constructor(private readonly pool: SqlPool) {}

  nearest(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    const { where, params } = eventFilters({ ...query, kinds: undefined }, '');
    return this.scopes.nearestEvents(
      query,
      async (afterVid) =>
        (await this.pool.arrays(SINCE, [query.tenant_id, query.user_id, query.model, afterVid])).map(([vid, seq, agent, at, blob]) => ({
          vid: Number(vid),
          event_seq: Number(seq),
          agent_id: agent as string,
          embedded_at: at as string,
          vector: fromBlob(blob as Buffer),
        })),
      (seqs) => this.pool.arrays(`SELECT seq, ${EVENT_SELECT} FROM events WHERE seq IN (${placeholders(seqs)}) AND ${where.join(' AND ')}`, [...seqs, ...params]),
    );
  }

  /** Vectors were deleted through this store: nothing kept may outlive them. */
  forget(): void {
    this.scopes.forget();
  }
}

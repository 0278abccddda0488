// Nearest events by meaning on PostgreSQL: the user's event vectors are kept in this process's
// memory (read once, then only those stored since, by any process), compared exactly, and the best
// candidates read back as events through the same filters as a full-text search.

import type { EventSearchHit, NearestEventsQuery } from '../../spec/storage.js';
import { fromBlob } from '../../util/vectors.js';
import { eventFilters } from '../shared/event-rows.js';
import { EVENT_SQL, eventsAtSeqs } from '../shared/event-sql.js';
import { EventVectorScopes } from '../shared/event-vector-scopes.js';
import type { SqlPool } from './client.js';

export class PgEventVectors {
  private readonly scopes = new EventVectorScopes();

  constructor(private readonly pool: SqlPool) {}

  nearest(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    const filters = eventFilters({ ...query, kinds: undefined }, '');
    return this.scopes.nearestEvents(
      query,
      async (afterVid) =>
        (await this.pool.arrays(EVENT_SQL.vectorsSince, [query.tenant_id, query.user_id, query.model, afterVid])).map(
          ([vid, seq, agent, at, blob]) => ({
            vid: Number(vid),
            event_seq: Number(seq),
            agent_id: agent as string,
            embedded_at: at as string,
            vector: fromBlob(blob as Buffer),
          }),
        ),
      (seqs) => {
        const { sql, params } = eventsAtSeqs(seqs, filters);
        return this.pool.arrays(sql, params);
      },
    );
  }

  /** Vectors were deleted through this store: nothing kept may outlive them. */
  forget(): void {
    this.scopes.forget();
  }
}

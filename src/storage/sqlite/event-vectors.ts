// Nearest events by meaning on SQLite: the user's event vectors are kept in memory (read once, then
// only those stored since), compared exactly, and the best candidates read back as events through
// the same filters as a full-text search (expiry, session, time, sensitivity, as-of).

import type Database from 'better-sqlite3';

import type { EventSearchHit, NearestEventsQuery } from '../../spec/storage.js';
import { fromBlob } from '../../util/vectors.js';
import { eventFilters } from '../shared/event-rows.js';
import { EVENT_SQL, eventsAtSeqs } from '../shared/event-sql.js';
import { EventVectorScopes } from '../shared/event-vector-scopes.js';

export class EventVectors {
  private readonly scopes = new EventVectorScopes();
  private readonly since: Database.Statement;

  constructor(private readonly cached: (sql: string) => Database.Statement) {
    this.since = cached(EVENT_SQL.vectorsSince).raw();
  }

  nearest(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    // `+` keeps SQLite on the candidates' rowids (as the full-text search does).
    const filters = eventFilters({ ...query, kinds: undefined }, '+');
    return this.scopes.nearestEvents(
      query,
      (afterVid) =>
        (
          this.since.all(query.tenant_id, query.user_id, query.model, afterVid) as Array<
            [number, number, string, string, Buffer]
          >
        ).map(([vid, event_seq, agent_id, embedded_at, blob]) => ({
          vid,
          event_seq,
          agent_id,
          embedded_at,
          vector: fromBlob(blob),
        })),
      (seqs) => {
        const { sql, params } = eventsAtSeqs(seqs, filters);
        return this.cached(sql)
          .raw()
          .all(...params) as unknown[][];
      },
    );
  }

  /** Vectors were deleted on this connection: nothing kept may outlive them. */
  forget(): void {
    this.scopes.forget();
  }
}

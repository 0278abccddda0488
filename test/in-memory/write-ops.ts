// Where each operation of a write goes in the in-memory store: one method of the area that keeps
// its records. The adapter runs them all in one transaction.

import type { WriteOp } from '../../src/index.js';
import type { EventWrites } from './events.js';
import type { ItemWrites } from './items.js';
import type { ReviewWrites } from './reviews.js';
import type { RunWrites } from './runs.js';
import type { ServiceWrites } from './service.js';
import type { SessionWrites } from './sessions.js';

/** The writes of each area. */
export interface AreaWrites {
  events: EventWrites;
  sessions: SessionWrites;
  items: ItemWrites;
  reviews: ReviewWrites;
  runs: RunWrites;
  service: ServiceWrites;
}

/** Applies one operation (inside the write's transaction). */
export function applyOp(areas: AreaWrites, op: WriteOp): void {
  const { events, sessions, items, reviews, runs, service } = areas;
  switch (op.op) {
    case 'insert_turn':
      return sessions.insertTurn(op);
    case 'append_event':
      return events.append(op);
    case 'index_event':
      return events.index(op);
    case 'put_text_tokens':
      return op.target === 'event' ? events.putTokens(op) : items.putTokens(op);
    case 'put_working_state':
      return sessions.putWorkingState(op);
    case 'put_summary':
      return sessions.putSummary(op);
    case 'put_context_build':
      return sessions.putBuild(op);
    case 'put_item':
      return items.putItem(op);
    case 'set_item_status':
      return items.setStatus(op);
    case 'delete_item':
      return items.deleteItem(op);
    case 'put_chunk':
      return items.putChunk(op);
    case 'put_reflection':
      return reviews.putReflection(op);
    case 'put_candidate':
      return reviews.putCandidate(op);
    case 'decide_candidate':
      return reviews.decideCandidate(op);
    case 'put_insight':
      return reviews.putInsight(op);
    case 'expire_run_insights':
      return reviews.expireRunInsights(op);
    case 'put_run_state':
      return runs.putRunState(op);
    case 'put_evidence':
      return runs.putEvidence(op);
    case 'put_snapshot':
      return runs.putSnapshot(op);
    case 'put_api_key':
      return service.putApiKey(op);
    case 'revoke_api_key':
      return service.revokeApiKey(op);
    case 'enqueue_job':
      return service.enqueue(op);
    case 'complete_job':
      return service.completeInWrite(op);
  }
}

// The session area (`engram.sessions`): a session's working state and its update, its rolling
// summary, and a tenant's scopes with their counts.

import type { SessionScopeInput } from '../spec/requests.js';
import type { ScopeCounts } from '../spec/storage.js';
import { validateSessionScope } from '../spec/validators.js';
import { emptyWorkingState, type WorkingState } from '../spec/working-state.js';
import { cutSummary } from '../working-memory/summary.js';
import { newId } from '../util/ids.js';
import { requireCount, tenantOrDefault } from './arguments.js';
import { commitTurnBatch } from './commit-turn.js';
import type { Runtime } from './runtime.js';
import {
  replayedUpdate,
  UPDATE_PATHS,
  workingStateTurn,
  type UpdateWorkingStateRequest,
  type WorkingStateUpdate,
} from './working-state-update.js';

/** The short-term memory of a session as the API shows it. */
export interface SessionSummary {
  rolling_summary: string;
  key_quotes: Array<{ evidence_id: string; quote: string; role: string; ts: string }>;
  version: number;
  events_folded: number;
}

/** A session's working state and summary, and a tenant's scopes (`engram.sessions`). */
export interface Sessions {
  /**
   * The working state of a session (version 0 and empty fields if it has none yet).
   *
   * @example
   * const { state_version } = await engram.sessions.workingState({ user_id: 'u1', agent_id: 'a1', session_id: 's1' });
   */
  workingState(scope: SessionScopeInput): Promise<WorkingState>;
  /**
   * Patches a session's working state at `expected_version` (JSON Merge Patch `set`, list `append`):
   * a turn holding only the patch, so the change is a `state_patch` event like any other. A stale
   * version is STATE_VERSION_CONFLICT. Returns the new state with `replayed: false`; the same update
   * sent again with its `turn_id` writes nothing and returns the state it recorded with
   * `replayed: true`, and another update under that `turn_id` is DUPLICATE_TURN.
   *
   * @example
   * await engram.sessions.updateWorkingState({ scope, expected_version: 0, set: { goal: 'Ship Atlas' } });
   */
  updateWorkingState(request: UpdateWorkingStateRequest): Promise<WorkingStateUpdate>;
  /**
   * The rolling summary of a session cut to `maxTokens` (default 512), and its key quotes.
   *
   * @example
   * const { rolling_summary } = await engram.sessions.summary({ user_id: 'u1', agent_id: 'a1', session_id: 's1' });
   */
  summary(scope: SessionScopeInput, maxTokens?: number): Promise<SessionSummary>;
  /**
   * A tenant's scopes with counts: its sessions (with their run, events and time span, the most
   * recently active first, at most `limit`, default 200) and its users (current items, pending
   * review candidates).
   *
   * @example
   * const { sessions, users } = await engram.sessions.scopes({ limit: 50 });
   */
  scopes(query?: { tenant_id?: string; limit?: number }): Promise<ScopeCounts>;
}

export function sessionsOf(runtime: Runtime): Sessions {
  const workingState = async (scope: SessionScopeInput): Promise<WorkingState> => {
    const { storage } = runtime.store();
    const valid = validateSessionScope(scope);
    const state = await storage.sessions.getWorkingState({ ...valid, tenant_id: tenantOrDefault(valid.tenant_id) });
    return state ?? emptyWorkingState();
  };
  return {
    workingState,
    updateWorkingState: async (request) => {
      const context = runtime.write();
      const turn = workingStateTurn(request, newId('trn'));
      // Recorded as a turn, with the patch's fields named as the request names them (UPDATE_PATHS).
      const { results, states } = await commitTurnBatch(context, [turn], UPDATE_PATHS);
      // Its turn_id was recorded before: the same update answers as recorded, another one is a conflict.
      if (results[0]!.replayed) return await replayedUpdate(context.storage, turn, results[0]!, runtime.now());
      // The state this update wrote: a read after it may already hold another writer's next version.
      if (states[0] != null) return { ...states[0], replayed: false };
      const { user_id, agent_id, session_id } = results[0]!.scope;
      const tenant = request.scope.tenant_id === undefined ? {} : { tenant_id: request.scope.tenant_id };
      return { ...(await workingState({ ...tenant, user_id, agent_id, session_id })), replayed: false };
    },
    summary: async (scope, maxTokens = 512) => {
      const { storage, now } = runtime.store();
      const valid = validateSessionScope(scope);
      const summary = await storage.sessions.getSummary({ ...valid, tenant_id: tenantOrDefault(valid.tenant_id) });
      const at = now();
      const live = (entry: { expires_at: string | null }) => entry.expires_at === null || entry.expires_at > at;
      const cut = cutSummary(summary?.sentences ?? [], maxTokens, runtime.tokenizer, live);
      return {
        rolling_summary: cut.text,
        key_quotes: (summary?.key_quotes ?? []).filter(live).map((quote) => ({
          evidence_id: quote.event_id,
          quote: quote.text,
          role: quote.role,
          ts: quote.ts,
        })),
        version: summary?.version ?? 0,
        events_folded: summary?.events_folded ?? 0,
      };
    },
    scopes: async (query = {}) => {
      const { storage } = runtime.store();
      const limit = query.limit ?? 200;
      requireCount(limit, 'limit', 1, 1000);
      return storage.sessions.scopeCounts(tenantOrDefault(query.tenant_id), limit);
    },
  };
}

// The routes of the HTTP API, written by scripts/build-client.ts from the server's route table
// (src/server/routes-*.ts): do not edit; run `npm run build:client`. Each route's method and path,
// and the types of its path parameters, query, body and answer.

import type { AddInsightRequest, ApiKeyInfo, ApproveRequest, BuildDiff, BuildExplanation, CommitTurnRequest, CommitTurnResult, ComposeRequest, ContextBuild, DecisionResult, EventRecord, EventSearchPage, ExplainBuildRequest, ForgetRequest, InsightRecord, KeyIdentity, MemoryPacket, PromoteInsightRequest, ReextractRequest, ReextractResult, ReflectRequest, ReflectResult, RejectRequest, RememberRequest, ReplayResult, RestoreRequest, ResumeRunRequest, ReviewCandidate, RunState, ScopeCounts, SearchEventsRequest, SearchMemoryRequest, SnapshotRecord, UpdateInsightRequest, UpdateWorkingStateRequest, WorkingState, WorkingStateUpdate } from '../index.js';
import type { BuildRecord, CandidateRecord, CreateKeyRequest, CreatedKey, EraseRequest, EraseResult, ImportResult, ItemDiffs, ItemHit, ItemRecord, Page, PromoteResult } from './records.js';

/**
 * Every route by its operationId (as in /openapi.json): method, path (`:id` is a path parameter)
 * and, when the body is not JSON, its content type.
 *
 * @example
 * ROUTES.compose // { method: 'POST', path: '/v1/compose' }
 */
export const ROUTES = {
  commitTurn: { method: 'POST', path: '/v1/turns' },
  compose: { method: 'POST', path: '/v1/compose' },
  listScopes: { method: 'GET', path: '/v1/scopes' },
  listEvents: { method: 'GET', path: '/v1/events' },
  getEvent: { method: 'GET', path: '/v1/events/:id' },
  searchEvents: { method: 'POST', path: '/v1/events/search' },
  listItems: { method: 'GET', path: '/v1/items' },
  itemHistory: { method: 'GET', path: '/v1/items/history' },
  getItem: { method: 'GET', path: '/v1/items/:id' },
  remember: { method: 'POST', path: '/v1/items' },
  restore: { method: 'POST', path: '/v1/items/restore' },
  forget: { method: 'POST', path: '/v1/items/forget' },
  reextract: { method: 'POST', path: '/v1/items/reextract' },
  searchItems: { method: 'POST', path: '/v1/items/search' },
  searchMemory: { method: 'POST', path: '/v1/memory/search' },
  getWorkingState: { method: 'GET', path: '/v1/working-state' },
  patchWorkingState: { method: 'PATCH', path: '/v1/working-state' },
  reflect: { method: 'POST', path: '/v1/reflections' },
  listCandidates: { method: 'GET', path: '/v1/review' },
  getCandidate: { method: 'GET', path: '/v1/review/:id' },
  approveCandidate: { method: 'POST', path: '/v1/review/:id/approve' },
  rejectCandidate: { method: 'POST', path: '/v1/review/:id/reject' },
  listInsights: { method: 'GET', path: '/v1/insights' },
  addInsight: { method: 'POST', path: '/v1/insights' },
  getInsight: { method: 'GET', path: '/v1/insights/:id' },
  updateInsight: { method: 'POST', path: '/v1/insights/:id/state' },
  promoteInsight: { method: 'POST', path: '/v1/insights/:id/promote' },
  getRun: { method: 'GET', path: '/v1/runs' },
  resumeRun: { method: 'POST', path: '/v1/runs/resume' },
  listSnapshots: { method: 'GET', path: '/v1/snapshots' },
  getSnapshot: { method: 'GET', path: '/v1/snapshots/:id' },
  getSnapshotNarrative: { method: 'GET', path: '/v1/snapshots/:id/narrative' },
  listBuilds: { method: 'GET', path: '/v1/builds' },
  diffBuilds: { method: 'GET', path: '/v1/builds/diff' },
  getBuild: { method: 'GET', path: '/v1/builds/:id' },
  replayBuild: { method: 'POST', path: '/v1/builds/:id/replay' },
  explainBuild: { method: 'POST', path: '/v1/builds/:id/explain' },
  whoami: { method: 'GET', path: '/v1/whoami' },
  listKeys: { method: 'GET', path: '/v1/keys' },
  createKey: { method: 'POST', path: '/v1/keys' },
  revokeKey: { method: 'DELETE', path: '/v1/keys/:id' },
  exportData: { method: 'GET', path: '/v1/export' },
  importData: { method: 'POST', path: '/v1/import', contentType: 'application/x-ndjson' },
  erase: { method: 'POST', path: '/v1/erase' },
} as const;

/**
 * What each route takes (`input`: path parameters, query, body) and answers (`response`).
 *
 * @example
 * const body: RouteTypes['remember']['input']['body'] = { scope: { user_id: 'mira', agent_id: 'assistant' }, type: 'preferences', key: 'pref:tone', value: { tone: 'concise' } };
 */
export interface RouteTypes {
  /** POST /v1/turns: Commit a turn, or a batch of turns in one transaction. */
  commitTurn: {
    input: { query?: { tenant_id?: string }; body: CommitTurnRequest | { turns: CommitTurnRequest[] } };
    response: CommitTurnResult | { results: CommitTurnResult[] };
  };
  /** POST /v1/compose: Compose a token-budgeted MemoryPacket (and its prompt text with ?render=). */
  compose: {
    input: { query?: { tenant_id?: string; render?: 'markdown' | 'xml' }; body: ComposeRequest };
    response: { packet: MemoryPacket; text?: string };
  };
  /** GET /v1/scopes: The tenant's sessions (with run, event count and time span; most recently active first) and users (current items, pending candidates). */
  listScopes: {
    input: { query?: { tenant_id?: string; limit?: number } };
    response: ScopeCounts;
  };
  /** GET /v1/events: A page of a user's (or session's) events in log order; a secret event shows only its ids, scope, kind, role and times. */
  listEvents: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string; kinds?: ReadonlyArray<'message' | 'tool_result' | 'state_patch' | 'marker'>; order?: 'asc' | 'desc'; cursor?: string; limit?: number } };
    response: Page<EventRecord>;
  };
  /** GET /v1/events/:id: One event by id (a secret one shows only its ids, scope, kind, role and times). */
  getEvent: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: EventRecord;
  };
  /** POST /v1/events/search: Search a user's events, the episodic log (never secret ones): full text, best first, a page at a time; long-term memory items are POST /v1/items/search. */
  searchEvents: {
    input: { query?: { tenant_id?: string }; body: SearchEventsRequest };
    response: EventSearchPage;
  };
  /** GET /v1/items: Items visible to a user (theirs, their agent's, the tenant's); current ones by default. */
  listItems: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; types?: ReadonlyArray<'profile' | 'preferences' | 'goals' | 'tasks' | 'decisions' | 'entities' | 'events' | 'cases' | 'patterns' | 'procedure'>; status?: ReadonlyArray<'active' | 'superseded' | 'retracted'>; cursor?: string; limit?: number } };
    response: Page<ItemRecord>;
  };
  /** GET /v1/items/history: Every version of a key, oldest first. */
  itemHistory: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; key: string } };
    response: Page<ItemRecord>;
  };
  /** GET /v1/items/:id: One item version by id. */
  getItem: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: ItemRecord;
  };
  /** POST /v1/items: Write an item explicitly, merged under its type's conflict policy (with replace, its value replaces the current one whole); a rule naming the inspector is stamped with the key's label. */
  remember: {
    input: { query?: { tenant_id?: string }; body: RememberRequest };
    response: ItemDiffs;
  };
  /** POST /v1/items/restore: Make an earlier version of a key current again: a new version with exactly its value; a rule naming the inspector is stamped with the key's label. */
  restore: {
    input: { query?: { tenant_id?: string }; body: RestoreRequest };
    response: ItemDiffs;
  };
  /** POST /v1/items/forget: Retract (or delete) every current version of a key, or one version by id (dry_run: what would change). */
  forget: {
    input: { query?: { tenant_id?: string }; body: ForgetRequest };
    response: ItemDiffs;
  };
  /** POST /v1/items/reextract: Re-run today's rule extraction over a user's log and bring their items in line (dry_run: plan only). */
  reextract: {
    input: { query?: { tenant_id?: string }; body: ReextractRequest };
    response: ReextractResult;
  };
  /** POST /v1/items/search: Search a user's long-term memory items (facts, preferences, tasks, procedures, …): hybrid, with per-signal scores; the conversation's events are POST /v1/events/search. */
  searchItems: {
    input: { query?: { tenant_id?: string }; body: SearchMemoryRequest };
    response: { hits: ItemHit[] };
  };
  /** POST /v1/memory/search: The same as POST /v1/items/search (its earlier name): long-term memory items, not events. */
  searchMemory: {
    input: { query?: { tenant_id?: string }; body: SearchMemoryRequest };
    response: { hits: ItemHit[] };
  };
  /** GET /v1/working-state: A session's working state (version 0 and empty when it has none yet). */
  getWorkingState: {
    input: { query: { tenant_id?: string; user_id: string; agent_id: string; session_id: string } };
    response: WorkingState;
  };
  /** PATCH /v1/working-state: Patch a working state at the expected version (a stale version is 409 STATE_VERSION_CONFLICT; a used turn_id replays the same update, or is 409 DUPLICATE_TURN for another). */
  patchWorkingState: {
    input: { query?: { tenant_id?: string }; body: UpdateWorkingStateRequest };
    response: WorkingStateUpdate;
  };
  /** POST /v1/reflections: Reflect over a run: propose candidates for review. */
  reflect: {
    input: { query?: { tenant_id?: string }; body: ReflectRequest };
    response: ReflectResult;
  };
  /** GET /v1/review: A user's review candidates, oldest first. */
  listCandidates: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string; status?: ReadonlyArray<'pending' | 'approved' | 'edited' | 'rejected'>; kind?: ReadonlyArray<'episode' | 'memory' | 'contradiction' | 'doctrine'>; trace_id?: string; cursor?: string; limit?: number } };
    response: Page<CandidateRecord>;
  };
  /** GET /v1/review/:id: One review candidate. */
  getCandidate: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: ReviewCandidate;
  };
  /** POST /v1/review/:id/approve: Approve a pending candidate (optionally with an edit of what it writes). */
  approveCandidate: {
    input: { params: { id: string }; query?: { tenant_id?: string }; body?: Omit<ApproveRequest, 'candidate_id'> };
    response: DecisionResult;
  };
  /** POST /v1/review/:id/reject: Reject a pending candidate with a reason. */
  rejectCandidate: {
    input: { params: { id: string }; query?: { tenant_id?: string }; body: Omit<RejectRequest, 'candidate_id'> };
    response: DecisionResult;
  };
  /** GET /v1/insights: A user's live insights (all with include_expired=true), oldest first. */
  listInsights: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string; states?: ReadonlyArray<'unvalidated' | 'testing' | 'validated' | 'rejected'>; types?: ReadonlyArray<'hypothesis' | 'strategy' | 'pattern'>; include_expired?: boolean; cursor?: string; limit?: number } };
    response: Page<InsightRecord>;
  };
  /** POST /v1/insights: Add a hypothesis, strategy or pattern to a run (unvalidated). */
  addInsight: {
    input: { query?: { tenant_id?: string }; body: AddInsightRequest };
    response: InsightRecord;
  };
  /** GET /v1/insights/:id: One insight. */
  getInsight: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: InsightRecord;
  };
  /** POST /v1/insights/:id/state: Move an insight to a new validation state. */
  updateInsight: {
    input: { params: { id: string }; query?: { tenant_id?: string }; body: Omit<UpdateInsightRequest, 'insight_id'> };
    response: InsightRecord;
  };
  /** POST /v1/insights/:id/promote: Promote a validated insight to a fact or procedure. */
  promoteInsight: {
    input: { params: { id: string }; query?: { tenant_id?: string }; body: Omit<PromoteInsightRequest, 'insight_id'> };
    response: PromoteResult;
  };
  /** GET /v1/runs: A run's recorded state and compaction counters. */
  getRun: {
    input: { query: { tenant_id?: string; user_id: string; agent_id: string; run_id: string } };
    response: RunState;
  };
  /** POST /v1/runs/resume: Resume a run that a failed snapshot stopped. */
  resumeRun: {
    input: { query?: { tenant_id?: string }; body: ResumeRunRequest };
    response: RunState;
  };
  /** GET /v1/snapshots: Compaction snapshots of a user's runs, oldest first. */
  listSnapshots: {
    input: { query: { tenant_id?: string; user_id: string; agent_id?: string; run_id?: string; order?: 'asc' | 'desc'; cursor?: string; limit?: number } };
    response: Page<SnapshotRecord>;
  };
  /** GET /v1/snapshots/:id: One snapshot record. */
  getSnapshot: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: SnapshotRecord;
  };
  /** GET /v1/snapshots/:id/narrative: A snapshot's deterministic narrative (Markdown). */
  getSnapshotNarrative: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: string;
  };
  /** GET /v1/builds: Context builds, newest first. */
  listBuilds: {
    input: { query?: { tenant_id?: string; user_id?: string; agent_id?: string; session_id?: string; cursor?: string; limit?: number } };
    response: Page<ContextBuild>;
  };
  /** GET /v1/builds/diff: What changed between two context builds. */
  diffBuilds: {
    input: { query: { tenant_id?: string; a: string; b: string } };
    response: BuildDiff;
  };
  /** GET /v1/builds/:id: One context build (with ?render=, also its packet as prompt text). */
  getBuild: {
    input: { params: { id: string }; query?: { tenant_id?: string; render?: 'markdown' | 'xml' } };
    response: BuildRecord;
  };
  /** POST /v1/builds/:id/replay: Rebuild a stored packet as of its time and tell whether it is byte-identical. */
  replayBuild: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: ReplayResult;
  };
  /** POST /v1/builds/:id/explain: Why an event or item is, or is not, in a stored packet: where it was placed, or the filter or omission that left it out, and each retrieval signal's rank for it as of the build's time. */
  explainBuild: {
    input: { params: { id: string }; query?: { tenant_id?: string }; body: Omit<ExplainBuildRequest, 'build_id'> };
    response: BuildExplanation;
  };
  /** GET /v1/whoami: The key this request was sent with: its id, tenant, role and label (the id when it has none). */
  whoami: {
    input: { query?: { tenant_id?: string } };
    response: KeyIdentity;
  };
  /** GET /v1/keys: The tenant's API keys (revoked ones included), oldest first, without secrets. */
  listKeys: {
    input: { query?: { tenant_id?: string; cursor?: string; limit?: number } };
    response: Page<ApiKeyInfo>;
  };
  /** POST /v1/keys: Create a key of the tenant; the secret is in this response only. */
  createKey: {
    input: { query?: { tenant_id?: string }; body: CreateKeyRequest };
    response: CreatedKey;
  };
  /** DELETE /v1/keys/:id: Revoke a key of the tenant. */
  revokeKey: {
    input: { params: { id: string }; query?: { tenant_id?: string } };
    response: null;
  };
  /** GET /v1/export: The key's tenant (or one user) as JSON Lines: a header, then every record; secret content withheld.. */
  exportData: {
    input: { query?: { tenant_id?: string; user_id?: string } };
    response: string;
  };
  /** POST /v1/import: An export (application/x-ndjson, up to 1 GiB, lines up to the server's importMaxLineBytes, 16 MiB by default) into the key's tenant, a batch per transaction with each turn beside its events; records are rewritten to the tenant. Sent again (after an interruption), records already there are skipped; one held with other content is 409 RECORD_CONFLICT. Runs while bytes arrive or batches commit.. */
  importData: {
    input: { query?: { tenant_id?: string }; body: string };
    response: ImportResult;
  };
  /** POST /v1/erase: Erase a user, or one session of theirs, with everything derived from it (one transaction); other users' and sessions' builds that quoted it are redacted.. */
  erase: {
    input: { query?: { tenant_id?: string }; body: EraseRequest };
    response: EraseResult;
  };
}

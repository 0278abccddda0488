// `engram/client`: a small fetch-based client for Engram's HTTP API with the library's types. Every
// route, its body and its answer are typed from the server's route table (routes.ts, generated);
// every call sends the API key, and the tenant comes from the key.

import type { CommitTurnRequest, CommitTurnResult, ComposeRequest } from '../index.js';
import {
  callRoute,
  send,
  type ClientOptions,
  type OperationId,
  type RouteInput,
  type RouteQuery,
  type RouteResponse,
} from './http.js';
import type { RouteTypes } from './routes.js';

export {
  EngramHttpError,
  type ClientOptions,
  type OperationId,
  type RouteInput,
  type RouteQuery,
  type RouteResponse,
} from './http.js';
export { ROUTES, type RouteTypes } from './routes.js';
export type * from './records.js';
// The library's records the API carries, so a caller (the web inspector among them) needs no other import.
export type {
  ApiKeyInfo,
  BuildDiff,
  BuildExplanation,
  CommitTurnRequest,
  CommitTurnResult,
  ComposeRequest,
  ContextBuild,
  DecisionResult,
  EventRecord,
  EventSearchHit,
  EventSearchPage,
  InsightRecord,
  ItemDiff,
  KeyIdentity,
  MemoryItem,
  MemoryPacket,
  ReflectResult,
  ReplayResult,
  ReviewCandidate,
  RunState,
  ScopeCounts,
  SearchHit,
  SessionCounts,
  SnapshotRecord,
  WorkingState,
  WorkingStateUpdate,
} from '../index.js';

type Body<Op extends OperationId> = NonNullable<RouteTypes[Op]['input'] extends { body?: infer B } ? B : never>;

/**
 * A client of one Engram server.
 *
 * @example
 * const engram = createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.ENGRAM_API_KEY! });
 * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hi' }] });
 * const { packet } = await engram.compose({ scope, purpose: 'responder' });
 */
export function createClient(options: ClientOptions) {
  const request = <Op extends OperationId>(operation: Op, input: RouteInput<Op>): Promise<RouteResponse<Op>> =>
    callRoute(options, operation, input);
  const byId = (id: string) => ({ params: { id } });
  const diffs = async (answer: Promise<{ diffs: RouteResponse<'remember'>['diffs'] }>) => (await answer).diffs;

  return {
    /** Any route by its operationId (as in /openapi.json), typed by what it takes and answers. */
    request,
    commitTurn: async (turn: CommitTurnRequest) => (await request('commitTurn', { body: turn })) as CommitTurnResult,
    commitTurns: async (turns: CommitTurnRequest[]) =>
      ((await request('commitTurn', { body: { turns } })) as { results: CommitTurnResult[] }).results,
    compose: (body: ComposeRequest, render?: 'markdown' | 'xml') =>
      request('compose', { body, ...(render === undefined ? {} : { query: { render } }) }),
    sessions: {
      workingState: (query: RouteQuery<'getWorkingState'>) => request('getWorkingState', { query }),
      updateWorkingState: (body: Body<'patchWorkingState'>) => request('patchWorkingState', { body }),
      /** The tenant's sessions (most recently active first, at most `limit`) and its users with their current items. */
      scopes: (query: RouteQuery<'listScopes'> = {}) => request('listScopes', { query }),
    },
    events: {
      list: (query: RouteQuery<'listEvents'>) => request('listEvents', { query }),
      get: (eventId: string) => request('getEvent', byId(eventId)),
      /** Full-text search over a user's events (the episodic log): the hits of one page. */
      search: async (body: Body<'searchEvents'>) => (await request('searchEvents', { body })).hits,
      /** One page of an event search and the cursor of the next (pass it as `cursor`; null at the end). */
      searchPage: (body: Body<'searchEvents'>) => request('searchEvents', { body }),
    },
    items: {
      list: (query: RouteQuery<'listItems'>) => request('listItems', { query }),
      get: (itemId: string) => request('getItem', byId(itemId)),
      history: (query: RouteQuery<'itemHistory'>) => request('itemHistory', { query }),
      remember: (body: Body<'remember'>) => diffs(request('remember', { body })),
      forget: (body: Body<'forget'>) => diffs(request('forget', { body })),
      /** Makes an earlier version of a key current again (`{ scope, item_id, rule? }`): a new version with exactly its value. */
      restore: (body: Body<'restore'>) => diffs(request('restore', { body })),
      /** Hybrid search over a user's long-term memory items. */
      search: async (body: Body<'searchItems'>) => (await request('searchItems', { body })).hits,
      /** Re-runs rule extraction over a user's log (an admin key); `dry_run` plans without writing. */
      reextract: (body: Body<'reextract'>) => request('reextract', { body }),
    },
    reflect: (body: Body<'reflect'>) => request('reflect', { body }),
    review: {
      list: (query: RouteQuery<'listCandidates'>) => request('listCandidates', { query }),
      get: (candidateId: string) => request('getCandidate', byId(candidateId)),
      approve: (candidateId: string, body: Body<'approveCandidate'> = {}) =>
        request('approveCandidate', { ...byId(candidateId), body }),
      reject: (candidateId: string, body: Body<'rejectCandidate'>) =>
        request('rejectCandidate', { ...byId(candidateId), body }),
    },
    insights: {
      list: (query: RouteQuery<'listInsights'>) => request('listInsights', { query }),
      get: (insightId: string) => request('getInsight', byId(insightId)),
      add: (body: Body<'addInsight'>) => request('addInsight', { body }),
      update: (insightId: string, body: Body<'updateInsight'>) =>
        request('updateInsight', { ...byId(insightId), body }),
      promote: (insightId: string, body: Body<'promoteInsight'>) =>
        request('promoteInsight', { ...byId(insightId), body }),
    },
    runs: {
      get: (query: RouteQuery<'getRun'>) => request('getRun', { query }),
      resume: (body: Body<'resumeRun'>) => request('resumeRun', { body }),
      snapshots: (query: RouteQuery<'listSnapshots'>) => request('listSnapshots', { query }),
      snapshot: (snapshotId: string) => request('getSnapshot', byId(snapshotId)),
      narrative: (snapshotId: string) => request('getSnapshotNarrative', byId(snapshotId)),
    },
    builds: {
      list: (query: RouteQuery<'listBuilds'> = {}) => request('listBuilds', { query }),
      /** A build; with `render`, also its packet as prompt text (`text`). */
      get: (buildId: string, render?: 'markdown' | 'xml') =>
        request('getBuild', { ...byId(buildId), ...(render === undefined ? {} : { query: { render } }) }),
      replay: (buildId: string) => request('replayBuild', byId(buildId)),
      diff: (a: string, b: string) => request('diffBuilds', { query: { a, b } }),
      /** Why an event (`evt_…`) or item (`mem_…`) is, or is not, in the build's packet. */
      explain: (buildId: string, recordId: string) =>
        request('explainBuild', { ...byId(buildId), body: { id: recordId } }),
    },
    keys: {
      /** The key these calls are sent with: its id, tenant, role and label. */
      whoami: () => request('whoami', {}),
      list: (query: RouteQuery<'listKeys'> = {}) => request('listKeys', { query }),
      create: (body: Body<'createKey'>) => request('createKey', { body }),
      revoke: async (keyId: string) => {
        await request('revokeKey', byId(keyId));
      },
    },
    maintenance: {
      /** The key's tenant (or one user) as JSON Lines (an admin key): the text of an export. */
      exportData: (query: RouteQuery<'exportData'> = {}) => request('exportData', { query }),
      /** An export's lines into the key's tenant (an admin key); sent again, records already there are skipped. */
      importData: (lines: string) => request('importData', { body: lines }),
      /** Erases a user, or one session of theirs, with everything derived from it (an admin key). */
      erase: (body: Body<'erase'>) => request('erase', { body }),
    },
    healthz: async () => (await send(options, 'GET', '/healthz')) as { status: 'ok' },
  };
}

/** The client `createClient` returns. */
export type EngramClient = ReturnType<typeof createClient>;

// The library's types against the types its JSON Schemas describe (schema-types.ts, written from the
// schemas by scripts/build-schema-types.ts): each pair must be the same type, field by field, so a
// field added, dropped, made optional or given another type on one side only fails `npm run typecheck`.

import { describe, expectTypeOf, it } from 'vitest';

import type * as Schema from './schema-types.js';
import type { BuildRecord, CandidateRecord, ItemHit, ItemRecord, PromoteResult } from '../client/records.js';
import type {
  AddInsightRequest,
  ApproveRequest,
  BuildDiff,
  BuildExplanation,
  CandidateTarget,
  CommitTurnRequest,
  CommitTurnResult,
  CompactionSnapshot,
  ComposeRequest,
  ContextBuild,
  DecisionResult,
  EventRecord,
  ForgetRequest,
  InsightRecord,
  ItemDiff,
  ListCandidatesRequest,
  ListEventsRequest,
  ListInsightsRequest,
  MemoryItem,
  MemoryPacket,
  PromoteInsightRequest,
  ReflectRequest,
  ReflectResult,
  RejectRequest,
  RememberRequest,
  ReplayResult,
  RestoreRequest,
  ReviewCandidate,
  RunState,
  SearchEventsRequest,
  SearchHit,
  SearchMemoryRequest,
  SessionReflection,
  SnapshotRecord,
  UpdateInsightRequest,
  WorkingState,
} from '../index.js';

/** True when every value of the library's type is one the schema allows (what the library writes is valid). */
type Writes<Library, Contract> = [Library] extends [Contract] ? true : false;

describe('the library types are the types of its schemas', () => {
  it('records (schemas/records.schema.json)', () => {
    expectTypeOf<ItemDiff>().branded.toEqualTypeOf<Schema.RecordsItemDiff>();
    expectTypeOf<MemoryItem>().branded.toEqualTypeOf<Schema.RecordsMemoryItem>();
    expectTypeOf<ItemRecord>().branded.toEqualTypeOf<Schema.RecordsItemRecord>();
    expectTypeOf<SearchHit>().branded.toEqualTypeOf<Schema.RecordsSearchHit>();
    expectTypeOf<ItemHit>().branded.toEqualTypeOf<Schema.RecordsItemHit>();
    expectTypeOf<CommitTurnResult>().branded.toEqualTypeOf<Schema.RecordsCommitTurnResult>();
    expectTypeOf<CandidateTarget>().branded.toEqualTypeOf<Schema.RecordsCandidateTarget>();
    expectTypeOf<ReviewCandidate>().branded.toEqualTypeOf<Schema.RecordsReviewCandidate>();
    expectTypeOf<CandidateRecord>().branded.toEqualTypeOf<Schema.RecordsCandidateRecord>();
    expectTypeOf<DecisionResult>().branded.toEqualTypeOf<Schema.RecordsDecisionResult>();
    expectTypeOf<InsightRecord>().branded.toEqualTypeOf<Schema.RecordsInsightRecord>();
    expectTypeOf<PromoteResult>().branded.toEqualTypeOf<Schema.RecordsPromoteResult>();
    expectTypeOf<ReflectResult>().branded.toEqualTypeOf<Schema.RecordsReflectResult>();
    expectTypeOf<RunState>().branded.toEqualTypeOf<Schema.RecordsRunState>();
    expectTypeOf<SnapshotRecord>().branded.toEqualTypeOf<Schema.RecordsSnapshotRecord>();
    expectTypeOf<Omit<ContextBuild, 'packet'>>().toEqualTypeOf<Omit<Schema.RecordsContextBuild, 'packet'>>();
    expectTypeOf<Omit<BuildRecord, 'packet'>>().toEqualTypeOf<Omit<Schema.RecordsBuildRecord, 'packet'>>();
    expectTypeOf<Omit<ReplayResult, 'packet'>>().toEqualTypeOf<Omit<Schema.RecordsReplayResult, 'packet'>>();
    expectTypeOf<BuildDiff>().branded.toEqualTypeOf<Schema.RecordsBuildDiff>();
  });

  it('contracts: packet, event, working state, snapshot, reflection, explanation', () => {
    // MemoryPacket v1 is a shared contract (../shared/spec, read-only) that leaves some fields open
    // the library always fills (meta.scope.tenant_id among them): its packets are checked one way, as valid.
    expectTypeOf<Writes<MemoryPacket, Schema.MemoryPacket>>().toEqualTypeOf<true>();
    expectTypeOf<Schema.RecordsContextBuild['packet']>().branded.toEqualTypeOf<Schema.MemoryPacket>();
    expectTypeOf<EventRecord>().branded.toEqualTypeOf<Schema.EventRecord>();
    expectTypeOf<WorkingState>().branded.toEqualTypeOf<Schema.WorkingState>();
    expectTypeOf<CompactionSnapshot>().branded.toEqualTypeOf<Schema.CompactionSnapshot>();
    expectTypeOf<SessionReflection>().branded.toEqualTypeOf<Schema.SessionReflection>();
    expectTypeOf<BuildExplanation>().branded.toEqualTypeOf<Schema.BuildRequestsExplanation>();
  });

  it('requests', () => {
    expectTypeOf<CommitTurnRequest>().branded.toEqualTypeOf<Schema.CommitTurnRequest>();
    expectTypeOf<ComposeRequest>().branded.toEqualTypeOf<Schema.ComposeRequest>();
    expectTypeOf<ListEventsRequest>().branded.toEqualTypeOf<Schema.ListEventsRequest>();
    expectTypeOf<SearchEventsRequest>().branded.toEqualTypeOf<Schema.SearchEventsRequest>();
    expectTypeOf<RememberRequest>().branded.toEqualTypeOf<Schema.MemoryRequestsRemember>();
    expectTypeOf<RestoreRequest>().branded.toEqualTypeOf<Schema.MemoryRequestsRestore>();
    expectTypeOf<ForgetRequest>().branded.toEqualTypeOf<Schema.MemoryRequestsForget>();
    expectTypeOf<SearchMemoryRequest>().branded.toEqualTypeOf<Schema.MemoryRequestsSearch>();
    expectTypeOf<ReflectRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsReflect>();
    expectTypeOf<ListCandidatesRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsListCandidates>();
    expectTypeOf<ApproveRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsApprove>();
    expectTypeOf<RejectRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsReject>();
    expectTypeOf<AddInsightRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsAddInsight>();
    expectTypeOf<ListInsightsRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsListInsights>();
    expectTypeOf<UpdateInsightRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsUpdateInsight>();
    expectTypeOf<PromoteInsightRequest>().branded.toEqualTypeOf<Schema.ReflectionRequestsPromoteInsight>();
  });
});

// The public API of Engram. Everything a user imports comes from here; the CLI and (later) the
// HTTP and MCP layers use nothing else.

export { createEngram, Engram, type EngramConfig } from './runtime/engram.js';
export type { Sessions, SessionSummary } from './runtime/session-api.js';
export type { Events } from './runtime/event-api.js';
export type { Items } from './runtime/item-api.js';
export type { Builds, ListBuildsQuery } from './runtime/build-api.js';
export type { ListJobsQuery, Maintenance } from './runtime/maintenance-api.js';
export { staleVectors, type VectorModels } from './runtime/vector-models.js';
export type { LlmEndpointConfig, LlmMode } from './runtime/config.js';
export type { WorkerRun } from './runtime/embedding-worker.js';
export type { BuildDiff, ReplayResult } from './runtime/builds.js';
export { EXPLAIN_DEPTH, type BuildExplanation, type ExplainFilter, type SignalRank } from './runtime/explain-build.js';
export { MAX_EVENT_SEARCH_DEPTH, type EventSearchPage } from './runtime/event-search.js';
export type { ReindexProgress, ReindexResult } from './runtime/memory-api.js';
export type { ReextractRequest, ReextractResult } from './runtime/reextract.js';
export type { ReviewQueue } from './runtime/review-api.js';
export type { Insights } from './runtime/insight-api.js';
export type { Runs } from './runtime/run-api.js';
export type { Keys } from './runtime/key-api.js';
export type { UpdateWorkingStateRequest, WorkingStateUpdate } from './runtime/working-state-update.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportHeader,
  type ImportInput,
  type ImportOptions,
  type TransferCounts,
} from './runtime/transfer-api.js';
export { EXPORT_KINDS } from './spec/export.js';
export type * from './spec/export.js';
export {
  startBackgroundWorker,
  type BackgroundWorker,
  type BackgroundWorkerOptions,
  type TickReport,
} from './runtime/background-worker.js';
export type { JobRun } from './runtime/jobs.js';
export { JOB_KINDS, JOB_STATUSES } from './spec/storage.js';
export { KEY_PREFIX } from './runtime/key-api.js';
export {
  KEY_ROLES,
  type ApiKeyInfo,
  type ApiKeyRecord,
  type KeyIdentity,
  type KeyPrincipal,
  type KeyRole,
} from './spec/auth.js';
export type * from './spec/compaction.js';
export { DEFAULT_COMPACTION } from './compaction/run-state.js';
export { renderNarrative } from './compaction/narrative.js';
export type { AutoApproveRule } from './reflection/candidates.js';
export { REFLECTION_MEMORY_TYPES } from './spec/reflection.js';
export type * from './spec/reflection.js';
export type { SearchHit, SignalScores } from './retrieval/hybrid-search.js';
export { ITEM_STATUSES, MEMORY_TYPES, ownerOf, visibleOwners } from './spec/items.js';
export type * from './spec/items.js';
export type { EmbeddingModel, EmbeddingPriority, StructuredModel, JsonSchema } from './spec/providers.js';
export { assertKey, makeKey, slug, typeOfKey, KEY_RULES } from './items/keys.js';
import { describeValue } from './items/values.js';
import type { MemoryItem } from './spec/items.js';
export { describeValue, VALUE_SCHEMAS } from './items/values.js';
export { DEFAULT_POLICIES } from './items/policies.js';
export { createRuleExtractor } from './items/rules/index.js';
export { createLocalUseLiteEmbeddings, type LocalUseLiteOptions } from './providers/embeddings/local-use-lite.js';
export { createLocalStaticEmbeddings, type LocalStaticOptions } from './providers/embeddings/local-static.js';
export { createOpenAiCompatibleEmbeddings } from './providers/embeddings/openai-compatible.js';
export { createEmbeddingModel, embedTexts, type EmbeddingConfig } from './providers/embeddings/embed.js';
export { createOpenAiCompatibleChat } from './providers/llm/openai-compatible.js';
export { fromAiSdkModel } from './providers/llm/ai-sdk.js';
export {
  DEFAULT_STORE,
  migrateStore,
  openSqliteStorage,
  openStore,
  redactStoreAddress,
  type StoreOptions,
} from './runtime/store-url.js';
export { citedIds, renderPacket, resolveCitation, type RenderFormat } from './composer/render.js';
export { speakersOf } from './composer/item-text.js';
export { citationHandle } from './composer/item-text.js';
export type { NamedPolicy, PurposeOverrides } from './composer/named-policies.js';
export type { SqliteStorageOptions } from './storage/sqlite/sqlite-storage.js';
export { textTokenCounter } from './composer/text-tokens.js';
export { storedTextTokens, withTextTokens, type TextTokenCounter } from './spec/text-tokens.js';

// For storage adapters written outside Engram (docs/library.md, "Writing an adapter"): what a store
// must do exactly as the others do. Words ranked by BM25 with the same candidates, counts and
// numbers; an export's turns placed after their events; the copies an erase redacts; exact vector
// search; and the guard that closes a store's reads and types their failures.
export {
  CANDIDATES_PER_TERM,
  FREQUENCY_CAP,
  MAX_SEARCH_TERMS,
  rankBm25,
  SCOPE_SIZE_CAP,
  type RankedRow,
  type RepeatedWords,
  type RowTerms,
  type TermMatches,
} from './util/bm25.js';
export { readTermStats, termKey, termStats } from './util/bm25-stats.js';
export { dot } from './util/vectors.js';
export { exactNearest } from './storage/shared/exact-nearest.js';
export {
  eventsWithTurns,
  type KeyedRecord,
  type TurnLookups,
  type TurnRecord,
  type TurnRef,
} from './storage/shared/export-turns.js';
export { redactBuild, withoutErasedSources } from './storage/shared/erased-copies.js';
export { guardedAreas, type AreaGuard } from './storage/shared/guarded-areas.js';

export {
  EngramError,
  ValidationError,
  ConflictError,
  NotFoundError,
  StorageError,
  type ConflictErrorOptions,
  type ConflictOrigin,
  type EngramErrorCode,
  type ValidationIssue,
} from './spec/errors.js';
export { schemas } from './spec/schema-check.js';
export {
  assertPacket,
  validateCommitTurnRequest,
  validateComposeRequest,
  validateEventRecord,
  validateStatePatch,
  validateWorkingState,
  checkSessionReflection,
  validateReflectionRequest,
  validateRunRequest,
} from './spec/validators.js';
export { inputIssues, MAX_JSON_DEPTH } from './spec/input-rules.js';
export { isDateTime, parseDateTime, DATE_TIME_RULE } from './spec/date-time.js';
export { MAX_BUILD_BYTES } from './composer/build-bound.js';
export type * from './spec/packet.js';
export type * from './spec/requests.js';
export type * from './spec/event.js';
export type * from './spec/storage.js';
export type { Scope, ScopeInput, SessionKey } from './spec/scope.js';
export type { StmSummary, SummarySentence } from './spec/summary.js';
export type { Tokenizer } from './spec/tokenizer.js';
export type {
  WorkingState,
  StatePatch,
  PlanStep,
  Decision,
  Risk,
  OpenLoop,
  ToolEvidence,
} from './spec/working-state.js';

export { newId, isId, evidenceId, type EvidenceLocator } from './util/ids.js';

/**
 * One readable line for an item.
 *
 * @example
 * describeItem(item) // 'Prefers concise (writing tone)'
 */
export function describeItem(item: Pick<MemoryItem, 'type' | 'value'>): string {
  return describeValue(item.type, item.value);
}
export { o200kTokenizer } from './util/tokenizer.js';
export { words, sentences } from './util/segment.js';
export { systemClock, type Clock } from './util/clock.js';

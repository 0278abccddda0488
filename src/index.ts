// The public API of Engram. Everything a user imports comes from here; the CLI and (later) the
// HTTP and MCP layers use nothing else.

export { createEngram, Engram, type EngramConfig, type SessionSummary } from './runtime/engram.js';
export { DEFAULT_STORE } from './runtime/store-url.js';
export { openSqliteStorage, type SqliteStorageOptions } from './storage/sqlite/sqlite-storage.js';

export {
  EngramError,
  ValidationError,
  ConflictError,
  NotFoundError,
  StorageError,
  type EngramErrorCode,
  type ValidationIssue,
} from './spec/errors.js';
export {
  schemas,
  assertPacket,
  validateCommitTurnRequest,
  validateComposeRequest,
  validateEventRecord,
  validateWorkingState,
  checkSessionReflection,
} from './spec/validators.js';
export type * from './spec/packet.js';
export type * from './spec/requests.js';
export type * from './spec/event.js';
export type * from './spec/storage.js';
export type { Scope, ScopeInput, SessionKey } from './spec/scope.js';
export type { StmSummary, SummarySentence } from './spec/summary.js';
export type { Tokenizer } from './spec/tokenizer.js';
export type { WorkingState, StatePatch, PlanStep, Decision, Risk, OpenLoop, ToolEvidence } from './spec/working-state.js';

export { newId, isId, evidenceId, type EvidenceLocator } from './util/ids.js';
export { o200kTokenizer } from './util/tokenizer.js';
export { words, sentences } from './util/segment.js';
export { systemClock, type Clock } from './util/clock.js';

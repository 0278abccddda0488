// `engram/testing`: what a third party needs to test code built on Engram. The storage conformance
// suite (every behaviour a StorageAdapter must show, run in Vitest through a small initializer), the
// records it writes, the assertion for typed errors, and an embedding model whose meaning is known.
// Needs `vitest` installed (an optional peer dependency); `engram` itself never imports it.

export { describeStorageConformance, type ConformanceInitializer } from './storage-conformance.js';
export { appendEvent, eventRecord } from './event-record.js';
export { item } from './item-conformance.js';
export { candidate, insight, reflection } from './reflection-records.js';
export { build } from './run-conformance.js';
export { ledgerEntry, RUN, runState, snapshotRecord } from './run-records.js';
export { caught, expectCode } from './expect-code.js';
export { topicModel, type TopicModelOptions } from './topic-model.js';

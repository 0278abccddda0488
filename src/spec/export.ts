// Moving a tenant (or one user of it) between stores: the records of an export, one JSON object per
// line, in an order an import can write them in. Derived data (chunks, full-text entries, vectors)
// is not exported: an import rebuilds it. API keys are never exported.

import type { ExportKind } from './storage.js';

export type { EraseCounts, EraseScope, ExportKind, ExportRecord, ExportScope } from './storage.js';

/**
 * The kinds in the order an export writes them (and an import can apply them), except that each turn
 * comes right after its events rather than after all events (files written before that still import).
 */
export const EXPORT_KINDS: readonly ExportKind[] = [
  'event',
  'turn',
  'working_state',
  'summary',
  'item',
  'context_build',
  'reflection',
  'candidate',
  'insight',
  'run_state',
  'ledger',
  'snapshot',
];

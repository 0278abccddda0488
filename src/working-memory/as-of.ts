// Short-term memory as it was at a past recorded time, rebuilt from the log: the working state by
// replaying the session's state patches, the summary by folding its events again. Both give what
// the stored rows held then, because patches and folds are deterministic.

import type { EventRecord } from '../spec/event.js';
import type { SessionKey } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { emptySummary, type StmSummary } from '../spec/summary.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { emptyWorkingState, type StatePatch, type WorkingState } from '../spec/working-state.js';
import { foldEvents } from './summary.js';
import { applyStatePatch } from './working-state.js';

const PAGE = 1000;

async function allEvents(
  storage: StorageAdapter,
  key: SessionKey,
  asOf: string,
  kinds: EventRecord['kind'][],
): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await storage.events.list({
      ...key,
      kinds,
      as_of: asOf,
      now: asOf,
      include_expired: true,
      limit: PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    out.push(...page);
    if (page.length < PAGE) return out;
    cursor = page[page.length - 1]!.id;
  }
}

/**
 * The working state of a session as it was at `asOf`, or just after the state patch `through` (an
 * event id) when given: patches recorded in the same instant after it are left out.
 *
 * @example
 * const state = await workingStateAsOf(storage, key, '2026-06-01T12:00:00.000Z');
 */
export async function workingStateAsOf(
  storage: StorageAdapter,
  key: SessionKey,
  asOf: string,
  through?: string,
): Promise<WorkingState> {
  let state: WorkingState | null = null;
  for (const event of await allEvents(storage, key, asOf, ['state_patch'])) {
    const content = event.content as Record<string, unknown>;
    const patch: StatePatch = { expected_version: state?.state_version ?? 0 };
    if (content['set'] !== undefined) patch.set = content['set'] as StatePatch['set'];
    if (content['append'] !== undefined) patch.append = content['append'] as StatePatch['append'];
    state = applyStatePatch(state, patch, event.id);
    if (event.id === through) break;
  }
  return state ?? emptyWorkingState();
}

/**
 * The short-term summary of a session as it was at `asOf` (expired events included, as they were
 * in the pool; compose leaves their sentences out).
 *
 * @example
 * const summary = await summaryAsOf(storage, key, asOf, tokenizer);
 */
export async function summaryAsOf(
  storage: StorageAdapter,
  key: SessionKey,
  asOf: string,
  tokenizer: Tokenizer,
): Promise<StmSummary | null> {
  const events = await allEvents(storage, key, asOf, ['message', 'tool_result']);
  return events.length === 0 ? null : foldEvents(emptySummary(), events, tokenizer, asOf);
}

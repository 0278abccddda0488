// Re-extraction: runs today's rule extractor over a user's whole log, turn by turn as commits
// did, into a scratch store, and brings the user's own long-term memory in line with it — new
// versions where the value changed, new items where the rules now find something, retractions
// where what earlier rules wrote is no longer found (an assistant's advice kept as the user's task).
// Items someone wrote on purpose (remember, the inspector, reflection, an import, a model) are left
// alone, and so are keys someone retracted. Every change is a version with provenance, in one
// transaction, so builds as of earlier times still see what was there then.

import { isDeepStrictEqual } from 'node:util';

import { EngramError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import { ownerOf } from '../spec/items.js';
import type { ItemDiff } from '../spec/requests.js';
import { DEFAULT_TENANT, type Scope } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { validateMemoryRequest } from '../spec/validators.js';
import { chunkOp } from '../items/chunk.js';
import { newId } from '../util/ids.js';
import { LongTermWriter, type LongTermConfig } from './long-term-writer.js';
import { openStore } from './store-url.js';

/** What to re-extract: one user's memory (of one tenant), written or only planned. */
export interface ReextractRequest {
  tenant_id?: string;
  user_id: string;
  /** Plan only: return the changes without writing them. */
  dry_run?: boolean;
}

export interface ReextractResult {
  tenant_id: string;
  user_id: string;
  /** Turns of the log read. */
  turns: number;
  /** The changes, one diff per version written or ended. */
  items: ItemDiff[];
  /** Keys left as they are because their current version was not written by the rules, or was retracted. */
  kept: string[];
  dry_run: boolean;
}

export interface ReextractContext {
  storage: StorageAdapter;
  longTerm: LongTermConfig;
  now: () => string;
}

/** The rule label of every version re-extraction writes or ends. */
export const REEXTRACT_RULE = 'reextract';
const EVENT_PAGE = 1000;
const ITEM_LIMIT = 1_000_000;

/**
 * Re-runs rule extraction over a user's log and writes the difference to their user-level items.
 *
 * @example
 * const { items } = await reextract(context, { user_id: 'noor', dry_run: true });
 */
export async function reextract(context: ReextractContext, input: unknown): Promise<ReextractResult> {
  const request = validateMemoryRequest<ReextractRequest>('reextract', input);
  const tenant = request.tenant_id ?? DEFAULT_TENANT;
  if (context.longTerm.rules === null) {
    throw new EngramError(
      'CONFIG_INVALID',
      're-extraction runs the rule extractor, which this Engram has turned off (extraction.rules: false)',
      { field: 'extraction.rules' },
    );
  }
  const owner = ownerOf('user', request.user_id, null);
  const shadow = await openStore('sqlite::memory:');
  let turns: number;
  let extracted: MemoryItem[];
  try {
    turns = await replayLog(context, shadow, tenant, request.user_id);
    extracted = await shadow.items.list({
      tenant_id: tenant,
      owners: [owner],
      statuses: ['active'],
      limit: ITEM_LIMIT,
    });
  } finally {
    await shadow.close();
  }
  const stored = await context.storage.items.list({ tenant_id: tenant, owners: [owner], limit: ITEM_LIMIT });
  const { ops, items, kept } = plan(stored, extracted, context.now());
  if (request.dry_run !== true && ops.length > 0) await context.storage.write(ops);
  return { tenant_id: tenant, user_id: request.user_id, turns, items, kept, dry_run: request.dry_run === true };
}

/** Feeds the user's log, one turn at a time in log order, through a rules-only writer into `shadow`. */
async function replayLog(
  context: ReextractContext,
  shadow: StorageAdapter,
  tenant: string,
  userId: string,
): Promise<number> {
  const writer = new LongTermWriter(shadow, { ...context.longTerm, llm: null });
  const now = context.now();
  let turns = 0;
  let turn: EventRecord[] = [];
  const flush = async () => {
    const last = turn.at(-1);
    if (last === undefined) return;
    const scope: Scope = {
      tenant_id: tenant,
      user_id: userId,
      agent_id: last.agent_id,
      session_id: last.session_id,
      run_id: last.run_id,
    };
    const outcome = await writer.planTurn(scope, turn, last.recorded_at);
    if (outcome.ops.length > 0) await shadow.write(outcome.ops);
    turns += 1;
    turn = [];
  };
  let cursor: string | undefined;
  for (;;) {
    const page = await context.storage.events.list({
      tenant_id: tenant,
      user_id: userId,
      order: 'asc',
      now,
      limit: EVENT_PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const event of page) {
      const first = turn[0];
      if (
        first !== undefined &&
        (first.session_id !== event.session_id || first.turn_id !== event.turn_id || event.turn_id === null)
      )
        await flush();
      turn.push(event);
    }
    if (page.length < EVENT_PAGE) break;
    cursor = page.at(-1)!.id;
  }
  await flush();
  return turns;
}

/** The operations that turn the stored user-level items into what re-extraction found. */
function plan(
  stored: readonly MemoryItem[],
  extracted: readonly MemoryItem[],
  now: string,
): { ops: WriteOp[]; items: ItemDiff[]; kept: string[] } {
  const versions = new Map<string, MemoryItem[]>();
  for (const item of stored) versions.set(item.key, [...(versions.get(item.key) ?? []), item]);
  const found = new Map(extracted.map((item) => [item.key, item]));
  const ops: WriteOp[] = [];
  const items: ItemDiff[] = [];
  const kept: string[] = [];
  const end = (item: MemoryItem, status: 'superseded' | 'retracted') => {
    ops.push({
      op: 'set_item_status',
      tenant_id: item.tenant_id,
      item_id: item.id,
      expected_status: 'active',
      status,
      ended_at: now,
      updated_at: now,
    });
    items.push({
      action: status,
      item_id: item.id,
      type: item.type,
      key: item.key,
      version: item.version,
      previous_id: item.id,
      rule: REEXTRACT_RULE,
    });
  };
  for (const key of [...new Set([...versions.keys(), ...found.keys()])].sort()) {
    const all = (versions.get(key) ?? []).sort((a, b) => a.version - b.version);
    const latest = all.at(-1);
    const current = all.filter((item) => item.status === 'active').at(-1);
    const next = found.get(key);
    // What someone wrote or retracted on purpose stays as it is.
    if (latest !== undefined && (latest.provenance.extractor !== 'rules' || latest.status === 'retracted')) {
      if (next !== undefined || current !== undefined) kept.push(key);
      continue;
    }
    if (next === undefined) {
      if (current !== undefined) end(current, 'retracted');
      continue;
    }
    if (current !== undefined && isDeepStrictEqual(current.value, next.value) && current.valid_to === next.valid_to)
      continue;
    const item: MemoryItem = {
      ...next,
      id: newId('mem'),
      version: Math.max(0, ...all.map((known) => known.version)) + 1,
      supersedes: current?.id ?? null,
      provenance: { ...next.provenance, rule: `${REEXTRACT_RULE}:${next.provenance.rule}` },
      // Valid since the turn that said it; recorded now, so a build as of before still sees the old version.
      recorded_at: now,
      updated_at: now,
      ended_at: null,
    };
    items.push({
      action: current === undefined ? 'created' : 'updated',
      item_id: item.id,
      type: item.type,
      key: item.key,
      version: item.version,
      previous_id: current?.id ?? null,
      rule: item.provenance.rule,
    });
    if (current !== undefined) end(current, 'superseded');
    ops.push({ op: 'put_item', item }, chunkOp(item));
  }
  return { ops, items, kept };
}

// The merge of candidates into long-term memory under each type's conflict policy (MemoryTypes v0.1
// §6). It plans write operations against the versions of each key it was given, and keeps those
// versions current as it plans, so several candidates of one batch build on each other.

import { isDeepStrictEqual } from 'node:util';

import type { Sensitivity } from '../spec/event.js';
import type { ConflictPolicy, ItemCandidate, MemoryItem, MemoryType, Provenance, ScopeLevel } from '../spec/items.js';
import { ownerOf } from '../spec/items.js';
import type { ItemDiff } from '../spec/requests.js';
import type { WriteOp } from '../spec/storage.js';
import { newId } from '../util/ids.js';
import { assertLevelAllowed } from '../events/sensitivity.js';
import { chunkOp } from './chunk.js';
import { assertKey } from './keys.js';
import { withoutLaterChanges } from './late-candidates.js';
import { DEFAULT_LEVELS } from './policies.js';
import { assertValue, mergeValue } from './values.js';

export interface MergeScope {
  tenant_id: string;
  user_id: string;
  agent_id: string;
}

export interface MergeOptions {
  now: string;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  /** The provenance of the items it writes, unless a candidate names its own (an LLM's). */
  extractor: Provenance['extractor'];
  /** The sensitivity of an item made from these events (private if any of them is). */
  sensitivityOf: (sourceEventIds: readonly string[]) => Sensitivity;
  /**
   * The candidates may be older than stored versions (a background extraction of an earlier turn):
   * what versions learned later stays (late-candidates.ts).
   */
  late?: boolean;
}

const DEFAULT_SALIENCE = { consequence: 0.5, emotional_charge: 0.2, reusability: 0.5 };

/** The owner and level a candidate is stored at. */
export function placement(
  candidate: Pick<ItemCandidate, 'type' | 'scope_level'>,
  scope: MergeScope,
): { level: ScopeLevel; owner: string } {
  const level = candidate.scope_level ?? DEFAULT_LEVELS[candidate.type];
  return { level, owner: ownerOf(level, scope.user_id, scope.agent_id) };
}

/** An item's provenance: the candidate's own extractor and model when it names them, else the merger's extractor. */
function provenanceOf(candidate: ItemCandidate, extractor: Provenance['extractor']): Provenance {
  const model = candidate.provenance?.model;
  return {
    extractor: candidate.provenance?.extractor ?? extractor,
    rule: candidate.rule,
    ...(model === undefined ? {} : { model }),
  };
}

export function versionKey(owner: string, key: string): string {
  return `${owner}\u0000${key}`;
}

/**
 * Plans merges for one scope. Give it every stored version of the keys it will see.
 *
 * @example
 * const merger = new ItemMerger(scope, versions, options);
 * const { ops, diffs } = merger.plan(candidate);
 */
export class ItemMerger {
  private readonly versions = new Map<string, MemoryItem[]>();

  constructor(
    private readonly scope: MergeScope,
    stored: readonly MemoryItem[],
    private options: MergeOptions,
  ) {
    this.add(stored);
  }

  /** Adds stored versions of more keys. */
  add(stored: readonly MemoryItem[]): void {
    for (const item of stored) this.remember(item);
  }

  /** The time and source sensitivities of the next candidates (one turn after another). */
  setSensitivity(sensitivityOf: MergeOptions['sensitivityOf'], now: string): void {
    this.options = { ...this.options, sensitivityOf, now };
  }

  private remember(item: MemoryItem): void {
    const id = versionKey(ownerOf(item.scope_level, item.user_id, item.agent_id), item.key);
    const list = this.versions.get(id) ?? [];
    const index = list.findIndex((known) => known.id === item.id);
    if (index === -1) list.push(item);
    else list[index] = item;
    list.sort((a, b) => a.version - b.version);
    this.versions.set(id, list);
  }

  /** Plans one candidate; throws ValidationError when its key or value breaks its type's rule. */
  plan(proposed: ItemCandidate): { ops: WriteOp[]; diffs: ItemDiff[] } {
    assertKey(proposed.type, proposed.key);
    const { level, owner } = placement(proposed, this.scope);
    const all = this.versions.get(versionKey(owner, proposed.key)) ?? [];
    const candidate = this.options.late === true ? withoutLaterChanges(proposed, all) : proposed;
    if (candidate === null) return { ops: [], diffs: [] };
    const active = all.filter((item) => item.status === 'active');
    return candidate.action === 'retract'
      ? this.retract(candidate, active)
      : this.upsert(candidate, level, owner, all, active);
  }

  private end(item: MemoryItem, status: 'superseded' | 'retracted', rule: string): { ops: WriteOp[]; diff: ItemDiff } {
    const now = this.options.now;
    this.remember({ ...item, status, ended_at: now, updated_at: now });
    // Its chunk stays: ended versions remain searchable when a search asks for their status.
    return {
      ops: [
        {
          op: 'set_item_status',
          tenant_id: item.tenant_id,
          item_id: item.id,
          expected_status: 'active',
          status,
          ended_at: now,
          updated_at: now,
        },
      ],
      diff: {
        action: status,
        item_id: item.id,
        type: item.type,
        key: item.key,
        version: item.version,
        previous_id: item.id,
        rule,
      },
    };
  }

  private retract(candidate: ItemCandidate, active: readonly MemoryItem[]): { ops: WriteOp[]; diffs: ItemDiff[] } {
    const ops: WriteOp[] = [];
    const diffs: ItemDiff[] = [];
    for (const item of active) {
      const ended = this.end(item, 'retracted', candidate.rule);
      ops.push(...ended.ops);
      diffs.push(ended.diff);
    }
    return { ops, diffs };
  }

  private upsert(
    candidate: ItemCandidate,
    level: ScopeLevel,
    owner: string,
    all: readonly MemoryItem[],
    active: readonly MemoryItem[],
  ) {
    const latest = active.at(-1);
    const value = latest === undefined ? candidate.value : mergeValue(candidate.type, latest.value, candidate.value);
    assertValue(candidate.type, value);
    if (
      latest !== undefined &&
      isDeepStrictEqual(value, latest.value) &&
      (candidate.valid_to ?? null) === latest.valid_to
    ) {
      return {
        ops: [],
        diffs: [
          {
            action: 'unchanged' as const,
            item_id: latest.id,
            type: latest.type,
            key: latest.key,
            version: latest.version,
            previous_id: null,
            rule: candidate.rule,
          },
        ],
      };
    }
    const now = this.options.now;
    const sensitivity = this.options.sensitivityOf(candidate.source_event_ids);
    // Every caller confines the level first (src/events/sensitivity.ts); this is the backstop.
    assertLevelAllowed(level, sensitivity, 'scope_level');
    const item: MemoryItem = {
      id: newId('mem'),
      tenant_id: this.scope.tenant_id,
      user_id: this.scope.user_id,
      agent_id: this.scope.agent_id,
      scope_level: level,
      type: candidate.type,
      key: candidate.key,
      value,
      confidence: candidate.confidence,
      status: 'active',
      sensitivity,
      valid_from: candidate.valid_from ?? now,
      valid_to: candidate.valid_to ?? null,
      salience: { ...DEFAULT_SALIENCE, ...candidate.salience },
      version: Math.max(0, ...all.map((known) => known.version)) + 1,
      supersedes: latest?.id ?? null,
      source_event_ids: [...candidate.source_event_ids],
      evidence_refs:
        candidate.evidence_refs ?? candidate.source_event_ids.map((id) => ({ kind: 'event' as const, ref: id })),
      provenance: provenanceOf(candidate, this.options.extractor),
      tags: candidate.tags ?? [],
      entities: candidate.entities ?? [],
      recorded_at: now,
      updated_at: now,
      ended_at: null,
    };
    const ops: WriteOp[] = [];
    const diffs: ItemDiff[] = [];
    if (latest !== undefined && this.options.policies[candidate.type] === 'overwrite') {
      const ended = this.end(latest, 'superseded', candidate.rule);
      ops.push(...ended.ops);
      diffs.push(ended.diff);
    }
    this.remember(item);
    ops.push({ op: 'put_item', item }, chunkOp(item));
    diffs.unshift({
      action: latest === undefined ? 'created' : 'updated',
      item_id: item.id,
      type: item.type,
      key: item.key,
      version: item.version,
      previous_id: latest?.id ?? null,
      rule: candidate.rule,
    });
    return { ops, diffs };
  }
}

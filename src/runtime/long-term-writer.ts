// The long-term part of the write path: extract candidates from a turn's shareable events, pass
// them through the retention gate, and plan their merge into long-term memory. One writer serves a
// whole batch, so later turns of the batch build on the items earlier turns wrote.

import { ValidationError } from '../spec/errors.js';
import type { EventRecord, Sensitivity } from '../spec/event.js';
import type { ConflictPolicy, ExtractionEvent, Extractor, ItemCandidate, MemoryItem, MemoryType } from '../spec/items.js';
import type { StructuredModel } from '../spec/providers.js';
import { visibleOwners } from '../spec/items.js';
import type { ExtractionFailureRecord, GateDecision, ItemDiff } from '../spec/requests.js';
import { createLlmExtractor } from '../items/llm-extractor.js';
import { generateStructured } from '../providers/llm/generate-structured.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { extractionEvents, mayReferBack } from '../items/extraction-events.js';
import { applyGate, type GateOptions } from '../items/gate.js';
import { ItemMerger, placement, versionKey, type MergeScope } from '../items/merge.js';
import { confinedLevel } from '../events/sensitivity.js';

/** How many current keys a retraction is matched against. */
const KNOWN_KEYS_LIMIT = 2000;

export interface LongTermConfig {
  /** The rule-based extractor (always on unless turned off). */
  rules: Extractor | null;
  /** The optional LLM extractor's model; private events reach a remote model only if allowed. */
  llm: { model: StructuredModel; allowPrivateRemote: boolean } | null;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  gate: GateOptions;
}

export interface LongTermOutcome {
  gate: GateDecision[];
  items: ItemDiff[];
  ops: WriteOp[];
  failures: ExtractionFailureRecord[];
}

function scopeKey(scope: MergeScope): string {
  return JSON.stringify([scope.tenant_id, scope.user_id, scope.agent_id]);
}

export class LongTermWriter {
  private readonly mergers = new Map<string, { merger: ItemMerger; loaded: Set<string> }>();

  constructor(
    private readonly storage: StorageAdapter,
    private readonly config: LongTermConfig,
  ) {}

  /** Extracts, gates and plans one turn's events. */
  async planTurn(scope: Scope, events: readonly EventRecord[], now: string): Promise<LongTermOutcome> {
    const extractable = extractionEvents(events);
    const failures: ExtractionFailureRecord[] = [];
    if (extractable.length === 0 || (this.config.rules === null && this.config.llm === null)) {
      return { gate: applyGate(extractable, [], this.config.gate).decisions, items: [], ops: [], failures };
    }
    const owners = visibleOwners(scope.user_id, scope.agent_id);
    const knownKeys =
      this.config.llm !== null || mayReferBack(extractable) ? await this.storage.activeKeys(scope.tenant_id, owners, KNOWN_KEYS_LIMIT) : [];
    const candidates: ItemCandidate[] = [];
    if (this.config.rules !== null) candidates.push(...(await this.config.rules.extract({ events: extractable, known_keys: knownKeys })));
    if (this.config.llm !== null) candidates.push(...(await this.extractWithLlm(this.config.llm, events, extractable, knownKeys, failures)));
    const { decisions, accepted } = applyGate(extractable, candidates, this.config.gate);
    if (accepted.length === 0) return { gate: decisions, items: [], ops: [], failures };

    const sensitivity = new Map(events.map((event) => [event.id, event.sensitivity]));
    const sensitivityOf = (ids: readonly string[]): Sensitivity => (ids.some((id) => sensitivity.get(id) === 'private') ? 'private' : 'normal');
    // What a user's private events support stays at the user's level (a procedure's default is the agent's).
    const confined = accepted.map((candidate) => ({ ...candidate, scope_level: confinedLevel(placement(candidate, scope).level, sensitivityOf(candidate.source_event_ids)) }));
    const merger = await this.mergerFor(scope, confined, now, sensitivityOf);
    const ops: WriteOp[] = [];
    const items: ItemDiff[] = [];
    for (const candidate of confined) {
      try {
        const planned = merger.plan(candidate);
        ops.push(...planned.ops);
        items.push(...planned.diffs);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        rejectIn(decisions, candidate, error);
      }
    }
    return { gate: decisions, items, ops, failures };
  }

  /**
   * Candidates from the LLM. Invalid output is retried once and then recorded as a failure; a
   * transport error is recorded too. Either way memory is untouched by the LLM for this turn.
   */
  private async extractWithLlm(
    llm: NonNullable<LongTermConfig['llm']>,
    events: readonly EventRecord[],
    extractable: readonly ExtractionEvent[],
    knownKeys: readonly string[],
    failures: ExtractionFailureRecord[],
  ): Promise<ItemCandidate[]> {
    const privateIds = new Set(events.filter((event) => event.sensitivity === 'private').map((event) => event.id));
    const shown = llm.model.remote && !llm.allowPrivateRemote ? extractable.filter((event) => !privateIds.has(event.event_id)) : extractable;
    if (shown.length === 0) return [];
    const extractor = createLlmExtractor(llm.model, {
      generate: generateStructured,
      onFailure: (failure) => failures.push({ extractor: extractor.name, model: llm.model.modelId, ...failure }),
    });
    try {
      return await extractor.extract({ events: shown, known_keys: knownKeys });
    } catch (error) {
      failures.push({ extractor: extractor.name, model: llm.model.modelId, reason: (error as Error).message, attempts: 1, raw: '', issues: [] });
      return [];
    }
  }

  /** The batch's merger for a scope, with every stored version of the candidates' keys loaded. */
  private async mergerFor(scope: Scope, candidates: readonly ItemCandidate[], now: string, sensitivityOf: (ids: readonly string[]) => Sensitivity): Promise<ItemMerger> {
    const mergeScope = { tenant_id: scope.tenant_id, user_id: scope.user_id, agent_id: scope.agent_id };
    const id = scopeKey(mergeScope);
    let entry = this.mergers.get(id);
    if (entry === undefined) {
      entry = { merger: new ItemMerger(mergeScope, [], { now, policies: this.config.policies, extractor: 'rules', sensitivityOf }), loaded: new Set() };
      this.mergers.set(id, entry);
    }
    entry.merger.setSensitivity(sensitivityOf, now);
    const missing = new Map<string, { owner: string; key: string }>();
    for (const candidate of candidates) {
      const { owner } = placement(candidate, mergeScope);
      const loadKey = versionKey(owner, candidate.key);
      if (!entry.loaded.has(loadKey)) missing.set(loadKey, { owner, key: candidate.key });
    }
    if (missing.size > 0) {
      const byOwner = new Map<string, string[]>();
      for (const { owner, key } of missing.values()) byOwner.set(owner, [...(byOwner.get(owner) ?? []), key]);
      const stored: MemoryItem[] = [];
      for (const [owner, keys] of byOwner) {
        stored.push(...(await this.storage.listItems({ tenant_id: scope.tenant_id, owners: [owner], keys, limit: 10_000 })));
      }
      entry.merger.add(stored);
      for (const loadKey of missing.keys()) entry.loaded.add(loadKey);
    }
    return entry.merger;
  }
}

function rejectIn(decisions: GateDecision[], candidate: ItemCandidate, error: ValidationError): void {
  for (const decision of decisions) {
    if (!candidate.source_event_ids.includes(decision.event_id)) continue;
    decision.reason += ` | rejected ${candidate.key}: ${error.message}`;
  }
}

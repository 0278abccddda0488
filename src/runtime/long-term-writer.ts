// The long-term part of the write path: extract candidates from a turn's shareable events, pass
// them through the retention gate, and plan their merge into long-term memory. One writer serves a
// whole batch, so later turns of the batch build on the items earlier turns wrote. With an LLM in the
// background (the default) a turn queues its extraction job here; the job plans through `plan` too.

import { ValidationError } from '../spec/errors.js';
import type { EventRecord, Sensitivity } from '../spec/event.js';
import type {
  ConflictPolicy,
  ExtractionEvent,
  Extractor,
  ItemCandidate,
  MemoryItem,
  MemoryType,
} from '../spec/items.js';
import { visibleOwners } from '../spec/items.js';
import type { ExtractionFailureRecord, GateDecision, ItemDiff } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { extractionEvents, mayReferBack } from '../items/extraction-events.js';
import { applyGate, type GateOptions } from '../items/gate.js';
import { ItemMerger, placement, versionKey, type MergeScope } from '../items/merge.js';
import { confinedLevel } from '../events/sensitivity.js';
import { readingCandidates } from '../reflection/candidates.js';
import { extractionJob } from './extraction-job-record.js';
import { askModel, shownToModel, transportFailure, type LlmExtraction, type LlmMode } from './llm-extraction.js';

/** How many current keys a retraction is matched against. */
export const KNOWN_KEYS_LIMIT = 2000;

export interface LongTermConfig {
  /** The rule-based extractor (always on unless turned off). */
  rules: Extractor | null;
  /** The optional LLM extractor's model, when it reads a turn, and whether private events may reach a remote model. */
  llm: (LlmExtraction & { mode: LlmMode }) | null;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  gate: GateOptions;
}

export interface LongTermOutcome {
  gate: GateDecision[];
  items: ItemDiff[];
  ops: WriteOp[];
  failures: ExtractionFailureRecord[];
}

/** What the gate decided of some candidates and the merge it planned. */
export type PlannedCandidates = Omit<LongTermOutcome, 'failures'>;

function scopeKey(scope: MergeScope): string {
  return JSON.stringify([scope.tenant_id, scope.user_id, scope.agent_id]);
}

export class LongTermWriter {
  private readonly mergers = new Map<string, { merger: ItemMerger; loaded: Set<string> }>();

  /** Each scope's current keys, read once when the store does not change while planning (`batch`). */
  private readonly keys = new Map<string, Promise<string[]>>();

  /**
   * `late`: the candidates it plans may be older than stored versions (a background extraction of
   * an earlier turn), so what versions learned later stays. `batch`: the store does not change
   * while it plans (the turns of one commit, written together at the end), so each scope's current
   * keys are read once.
   */
  constructor(
    private readonly storage: StorageAdapter,
    private readonly config: LongTermConfig,
    private readonly options: { late?: boolean; batch?: boolean } = {},
  ) {}

  /** Extracts, gates and plans one turn's events; queues the turn's LLM extraction job when the LLM runs in the background. */
  async planTurn(scope: Scope, events: readonly EventRecord[], now: string): Promise<LongTermOutcome> {
    const extractable = extractionEvents(events);
    const failures: ExtractionFailureRecord[] = [];
    const llm = this.config.llm;
    const queued: WriteOp[] = [];
    if (llm !== null && llm.mode === 'background') {
      const shown = shownToModel(llm, events, extractable);
      if (shown.length > 0)
        queued.push({ op: 'enqueue_job', job: extractionJob(scope, events[0]?.turn_id ?? null, shown, now) });
    }
    const inline = llm !== null && llm.mode === 'inline' ? llm : null;
    if (extractable.length === 0 || (this.config.rules === null && inline === null)) {
      return { gate: applyGate(extractable, [], this.config.gate).decisions, items: [], ops: queued, failures };
    }
    const knownKeys = inline !== null || mayReferBack(extractable) ? await this.knownKeys(scope) : [];
    const candidates: ItemCandidate[] = [];
    if (this.config.rules !== null)
      candidates.push(...(await this.config.rules.extract({ events: extractable, known_keys: knownKeys })));
    if (inline !== null)
      candidates.push(...(await this.extractInline(inline, events, extractable, knownKeys, failures)));
    const planned = await this.plan(scope, events, extractable, candidates, now);
    return { ...planned, ops: [...planned.ops, ...queued], failures };
  }

  /** The keys of the scope's current items, which an extractor may name to update or deny one. */
  knownKeys(scope: Scope): Promise<string[]> {
    const read = () =>
      this.storage.items.activeKeys(scope.tenant_id, visibleOwners(scope.user_id, scope.agent_id), KNOWN_KEYS_LIMIT);
    if (this.options.batch !== true) return read();
    const key = scopeKey(scope);
    let keys = this.keys.get(key);
    if (keys === undefined) {
      keys = read();
      this.keys.set(key, keys);
    }
    return keys;
  }

  /** Passes candidates of a turn's events through the retention gate and plans the merge of those it accepts. */
  async plan(
    scope: Scope,
    events: readonly EventRecord[],
    extractable: readonly ExtractionEvent[],
    candidates: readonly ItemCandidate[],
    now: string,
  ): Promise<PlannedCandidates> {
    const { decisions, accepted, proposed } = applyGate(extractable, candidates, this.config.gate);
    const reviews = proposed.length === 0 ? [] : await this.reviewOps(scope, events, proposed, now);
    if (accepted.length === 0) return { gate: decisions, items: [], ops: reviews };

    const sensitivity = new Map(events.map((event) => [event.id, event.sensitivity]));
    const sensitivityOf = (ids: readonly string[]): Sensitivity =>
      ids.some((id) => sensitivity.get(id) === 'private') ? 'private' : 'normal';
    // What a user's private events support stays at the user's level (a procedure's default is the agent's).
    const confined = accepted.map((candidate) => ({
      ...candidate,
      scope_level: confinedLevel(placement(candidate, scope).level, sensitivityOf(candidate.source_event_ids)),
    }));
    const merger = await this.mergerFor(scope, confined, now, sensitivityOf);
    const ops: WriteOp[] = [];
    const items: ItemDiff[] = [];
    for (const candidate of confined) {
      try {
        const planned = merger.plan(candidate);
        ops.push(...planned.ops);
        items.push(...planned.diffs);
      } catch (error) {
        if (!ValidationError.isInstance(error)) throw error;
        rejectIn(decisions, candidate, error);
      }
    }
    return { gate: decisions, items, ops: [...ops, ...reviews] };
  }

  /** The review candidates of the statements with several readings, each reading one candidate. */
  private async reviewOps(
    scope: Scope,
    events: readonly EventRecord[],
    proposed: readonly ItemCandidate[],
    now: string,
  ): Promise<WriteOp[]> {
    const current = await this.storage.items.list({
      tenant_id: scope.tenant_id,
      owners: visibleOwners(scope.user_id, scope.agent_id),
      keys: [...new Set(proposed.map((reading) => reading.key))],
      statuses: ['active'],
      limit: 1_000,
    });
    const about = new Map(current.map((item) => [item.key, { id: item.id, value: item.value }]));
    const candidates = readingCandidates(proposed, {
      scope,
      events: new Map(events.map((event) => [event.id, event])),
      about,
      now,
    });
    return candidates.map((candidate) => ({ op: 'put_candidate' as const, candidate }));
  }

  /**
   * Candidates from the LLM inside the commit. Invalid output is retried once and then recorded as
   * a failure; a transport error is recorded too. Either way memory is untouched by the LLM for this turn.
   */
  private async extractInline(
    llm: LlmExtraction,
    events: readonly EventRecord[],
    extractable: readonly ExtractionEvent[],
    knownKeys: readonly string[],
    failures: ExtractionFailureRecord[],
  ): Promise<ItemCandidate[]> {
    try {
      const answer = await askModel(llm, shownToModel(llm, events, extractable), knownKeys);
      if (answer.failure !== null) failures.push(answer.failure);
      return answer.candidates;
    } catch (error) {
      failures.push(transportFailure(llm, error));
      return [];
    }
  }

  /** The batch's merger for a scope, with every stored version of the candidates' keys loaded. */
  private async mergerFor(
    scope: Scope,
    candidates: readonly ItemCandidate[],
    now: string,
    sensitivityOf: (ids: readonly string[]) => Sensitivity,
  ): Promise<ItemMerger> {
    const mergeScope = { tenant_id: scope.tenant_id, user_id: scope.user_id, agent_id: scope.agent_id };
    const id = scopeKey(mergeScope);
    let entry = this.mergers.get(id);
    if (entry === undefined) {
      const options = {
        now,
        policies: this.config.policies,
        extractor: 'rules' as const,
        sensitivityOf,
        late: this.options.late === true,
      };
      entry = { merger: new ItemMerger(mergeScope, [], options), loaded: new Set() };
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
        stored.push(
          ...(await this.storage.items.list({ tenant_id: scope.tenant_id, owners: [owner], keys, limit: 10_000 })),
        );
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

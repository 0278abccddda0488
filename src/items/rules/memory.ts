// What one extraction has produced so far, over the scope's current keys: the rules ask it whether a
// key exists, and a candidate repeating an earlier one only adds its evidence to it.

import type { ItemCandidate } from '../../spec/items.js';
import type { ExtractionMemory } from './rule.js';

export class Memory implements ExtractionMemory {
  readonly produced: ItemCandidate[] = [];
  lastKeys: readonly string[] = [];
  private readonly upserted = new Set<string>();
  private readonly retracted = new Set<string>();

  constructor(readonly known: ReadonlySet<string>) {}

  exists(key: string): boolean {
    return !this.retracted.has(key) && (this.known.has(key) || this.upserted.has(key));
  }

  keysWith(prefix: string): string[] {
    const out = new Set<string>();
    for (const key of this.known) if (key.startsWith(prefix) && !this.retracted.has(key)) out.add(key);
    for (const key of this.upserted) if (key.startsWith(prefix) && !this.retracted.has(key)) out.add(key);
    return [...out];
  }

  /** Records candidates; one repeating an earlier candidate exactly only adds its evidence to it. */
  record(candidates: readonly ItemCandidate[]): void {
    for (const candidate of candidates) {
      const same = this.produced.findLast((earlier) => earlier.key === candidate.key);
      if (
        same !== undefined &&
        same.action === candidate.action &&
        JSON.stringify(same.value) === JSON.stringify(candidate.value)
      ) {
        for (const id of candidate.source_event_ids)
          if (!same.source_event_ids.includes(id)) same.source_event_ids.push(id);
        const evidence = same.evidence_refs ?? [];
        for (const ref of candidate.evidence_refs ?? [])
          if (evidence.length < 8 && ref.kind === 'event') evidence.push(ref);
        continue;
      }
      this.produced.push(candidate);
      if (candidate.action === 'retract') this.retracted.add(candidate.key);
      else {
        this.upserted.add(candidate.key);
        this.retracted.delete(candidate.key);
      }
    }
  }
}

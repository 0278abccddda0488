// Which records of an import the store holds already, for an import run again over the same file
// (after an interruption, or twice): a record stored with the same content is skipped, one whose id
// the store holds with other content is RECORD_CONFLICT naming its line and id. Fields the store
// itself moves on after a record is written (an event's embedding status, an item's status, a
// candidate's decision, an insight's validation) are not content.

import { jsonEqual } from '../compaction/canonical-json.js';
import { ConflictError } from '../spec/errors.js';
import type { ExportKind, ExportRecord } from '../spec/export.js';
import type { StorageAdapter } from '../spec/storage.js';
import type { StmSummary, SummarySentence } from '../spec/summary.js';

/** A record of an import with the line it came from. */
export interface ImportEntry {
  record: ExportRecord;
  line: number;
}

/** The fields of a record the store changes after writing it, by kind (left out of the comparison). */
const MOVING_FIELDS: Partial<Record<ExportKind, readonly string[]>> = {
  event: ['embedding_status'],
  item: ['status', 'ended_at', 'updated_at'],
  candidate: ['status', 'decision'],
  insight: ['validation_state', 'expired_at', 'promoted_to', 'history', 'version', 'updated_at'],
};

/** The field naming a record's identity, under the line (`line 7.event.id`), and its id. */
function identityOf(record: ExportRecord): { field: string; id: string } {
  switch (record.kind) {
    case 'event':
      return { field: 'event.id', id: record.event.id };
    case 'turn':
      return { field: 'turn_id', id: `${record.turn_id} (session ${record.key.session_id})` };
    case 'working_state':
      return { field: 'key', id: `working state of session ${record.key.session_id}` };
    case 'summary':
      return { field: 'key', id: `summary of session ${record.key.session_id}` };
    case 'item':
      return { field: 'item.id', id: record.item.id };
    case 'context_build':
      return { field: 'build.id', id: record.build.id };
    case 'reflection':
      return { field: 'record.trace_id', id: record.record.trace_id };
    case 'candidate':
      return { field: 'candidate.id', id: record.candidate.id };
    case 'insight':
      return { field: 'insight.id', id: record.insight.id };
    case 'run_state':
      return { field: 'state.run_id', id: `state of run ${record.state.run_id}` };
    case 'ledger':
      return { field: 'entry.evidence_id', id: `${record.entry.evidence_id} (run ${record.run.run_id})` };
    case 'snapshot':
      return { field: 'record.snapshot.snapshot_id', id: record.record.snapshot.snapshot_id };
  }
}

/** A summary without the counts its sentences keep (an import never stores them). */
function withoutKeptCounts(summary: StmSummary): unknown {
  const strip = (sentences: readonly SummarySentence[]) =>
    sentences.map(({ spaced_tokens: _kept, ...sentence }) => sentence);
  return { ...summary, sentences: strip(summary.sentences), key_quotes: strip(summary.key_quotes) };
}

/** The part of a record an import compares with the stored one. */
function contentOf(record: ExportRecord): unknown {
  switch (record.kind) {
    case 'event':
      return record.event;
    case 'turn':
      return record.result;
    case 'working_state':
      return record.state;
    case 'summary':
      return withoutKeptCounts(record.summary);
    case 'item':
      return record.item;
    case 'context_build':
      return record.build;
    case 'reflection':
      return record.record;
    case 'candidate':
      return record.candidate;
    case 'insight':
      return record.insight;
    case 'run_state':
      return record.state;
    case 'ledger':
      return record.entry;
    case 'snapshot':
      return record.record;
  }
}

/** The stored counterpart of a record's content, or null when the store does not hold its id. */
async function storedContentOf(
  storage: StorageAdapter,
  record: ExportRecord,
  events: ReadonlyMap<string, unknown>,
): Promise<unknown> {
  switch (record.kind) {
    case 'event':
      return events.get(record.event.id) ?? null;
    case 'turn':
      return storage.sessions.getTurn(record.key, record.turn_id);
    case 'working_state':
      return storage.sessions.getWorkingState(record.key);
    case 'summary': {
      const stored = await storage.sessions.getSummary(record.key);
      return stored === null ? null : withoutKeptCounts(stored);
    }
    case 'item':
      return storage.items.get(record.item.tenant_id, record.item.id);
    case 'context_build':
      return storage.sessions.getBuild(record.build.tenant_id, record.build.id);
    case 'reflection':
      return storage.reviews.getReflection(record.record.tenant_id, record.record.trace_id);
    case 'candidate':
      return storage.reviews.getCandidate(record.candidate.tenant_id, record.candidate.id);
    case 'insight':
      return storage.reviews.getInsight(record.insight.tenant_id, record.insight.id);
    case 'run_state':
      return storage.runs.getState(record.state);
    case 'ledger':
      return (await storage.runs.ledgerEntries(record.run, [record.entry.evidence_id]))[0] ?? null;
    case 'snapshot':
      return storage.runs.getSnapshot(record.record.tenant_id, record.record.snapshot.snapshot_id);
  }
}

function withoutMoving(kind: ExportKind, content: unknown): unknown {
  const moving = MOVING_FIELDS[kind];
  if (moving === undefined || typeof content !== 'object' || content === null) return content;
  return Object.fromEntries(Object.entries(content).filter(([name]) => !moving.includes(name)));
}

/** The events of a batch the store holds (expired ones not yet purged too), by id. */
async function storedEvents(
  storage: StorageAdapter,
  entries: readonly ImportEntry[],
  now: string,
): Promise<Map<string, unknown>> {
  const ids = entries.flatMap(({ record }) => (record.kind === 'event' ? [record.event.id] : []));
  if (ids.length === 0) return new Map();
  const tenantId = (entries.find(({ record }) => record.kind === 'event')!.record as { event: { tenant_id: string } })
    .event.tenant_id;
  const stored = await storage.events.list({ tenant_id: tenantId, ids, now, include_expired: true, limit: ids.length });
  return new Map(stored.map((event) => [event.id, event]));
}

/**
 * The entries of a batch the store does not hold yet (`fresh`), and those it holds with the same
 * content (`skipped`). One it holds with other content is RECORD_CONFLICT (409) naming the line and
 * the record's id: an import adds records, it never overwrites one.
 *
 * @example
 * const { fresh, skipped } = await entriesToWrite(storage, batch, now);
 */
export async function entriesToWrite(
  storage: StorageAdapter,
  entries: readonly ImportEntry[],
  now: string,
): Promise<{ fresh: ImportEntry[]; skipped: ImportEntry[] }> {
  const events = await storedEvents(storage, entries, now);
  const stored = await Promise.all(entries.map(({ record }) => storedContentOf(storage, record, events)));
  const fresh: ImportEntry[] = [];
  const skipped: ImportEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const twin = stored[index];
    if (twin === null || twin === undefined) {
      fresh.push(entry);
      continue;
    }
    const { kind } = entry.record;
    if (!jsonEqual(withoutMoving(kind, twin), withoutMoving(kind, contentOf(entry.record)))) {
      const { field, id } = identityOf(entry.record);
      throw new ConflictError(
        `line ${entry.line}: the store already holds ${kind} ${id} with other content (an import never overwrites a record)`,
        {
          code: 'RECORD_CONFLICT',
          field: `line ${entry.line}.${field}`,
          origin: 'caller',
          details: { line: entry.line, kind, id },
        },
      );
    }
    skipped.push(entry);
  }
  return { fresh, skipped };
}

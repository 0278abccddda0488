// Export, import and erasure. An export is JSON Lines: a header, then the records of a tenant (or
// one user) in an order an import can write them in; secret event content never leaves (it is
// withheld in the export like in every other output). An import writes a file's records into the
// importer's tenant, a batch per transaction with each turn beside its events, rebuilding chunks and
// full-text entries and queueing embeddings; every line is checked first, and what the store holds
// already is skipped (an interrupted import is finished by running it again). Erasure deletes a
// user or a session with everything derived from it, in one transaction.

import { EngramError, ValidationError } from '../spec/errors.js';
import type { EraseCounts, EraseScope, ExportKind, ExportRecord } from '../spec/export.js';
import { EXPORT_KINDS } from '../spec/export.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { StmSummary, SummarySentence } from '../spec/summary.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { validateEventRecord } from '../spec/validators.js';
import { analyseEvent } from '../events/analyze.js';
import { shownEvent } from '../events/sensitivity.js';
import { chunkOp } from '../items/chunk.js';
import { requireTenant } from './arguments.js';
import { ImportBatch } from './import-batch.js';
import { checkImportedRecord } from './import-checks.js';
import { importLinesOf, lineCapOf, type ImportInput } from './import-lines.js';

export { DEFAULT_MAX_LINE_BYTES, type ImportInput } from './import-lines.js';

export const EXPORT_FORMAT = 'engram-export';
export const EXPORT_VERSION = 1;

/** The first line of an export. */
export interface ExportHeader {
  kind: 'header';
  format: typeof EXPORT_FORMAT;
  version: number;
  tenant_id: string;
  user_id: string | null;
  exported_at: string;
}

export interface TransferContext {
  storage: StorageAdapter;
  now: () => string;
}

/** Progress of an export or import: records so far, by kind. */
export type TransferCounts = Partial<Record<ExportKind, number>>;

/**
 * A summary without the counts its sentences keep: they belong to the store that made them, and an
 * import never takes counts on trust (compose counts such sentences itself).
 */
function withoutKeptCounts(summary: StmSummary): StmSummary {
  const strip = (sentences: readonly SummarySentence[]) =>
    sentences.map(({ spaced_tokens: _kept, ...sentence }) => sentence);
  return { ...summary, sentences: strip(summary.sentences), key_quotes: strip(summary.key_quotes) };
}

/** A record as an export shows it: a secret event with only the fields that cannot describe it. */
function withheld(record: ExportRecord): ExportRecord {
  if (record.kind === 'summary') return { ...record, summary: withoutKeptCounts(record.summary) };
  if (record.kind !== 'event') return record;
  return { kind: 'event', event: shownEvent(record.event) };
}

/**
 * The JSON Lines of an export: a header line, then one record per line.
 *
 * @example
 * for await (const line of exportLines(context, { tenant_id: 'acme' })) out.write(`${line}\n`);
 */
export async function* exportLines(
  context: TransferContext,
  scope: { tenant_id?: string; user_id?: string },
  onRecord?: (kind: ExportKind) => void,
): AsyncGenerator<string> {
  const tenantId = scope.tenant_id ?? DEFAULT_TENANT;
  requireTenant(tenantId);
  if (scope.user_id !== undefined) requireTenant(scope.user_id, 'user_id');
  const header: ExportHeader = {
    kind: 'header',
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    tenant_id: tenantId,
    user_id: scope.user_id ?? null,
    exported_at: context.now(),
  };
  yield JSON.stringify(header);
  for await (const record of context.storage.maintenance.exportRecords({
    tenant_id: tenantId,
    ...(scope.user_id === undefined ? {} : { user_id: scope.user_id }),
  })) {
    onRecord?.(record.kind);
    yield JSON.stringify(withheld(record));
  }
}

/** Every `tenant_id` field of a record, rewritten to the importing tenant. */
function retenant<T>(value: T, tenantId: string): T {
  if (Array.isArray(value)) return value.map((entry: unknown) => retenant(entry, tenantId)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value))
    out[key] = key === 'tenant_id' && typeof entry === 'string' ? tenantId : retenant(entry, tenantId);
  return out as T;
}

const REQUIRED: Readonly<Record<ExportKind, readonly string[]>> = {
  event: ['event'],
  turn: ['key', 'turn_id', 'result'],
  working_state: ['key', 'state', 'updated_at'],
  summary: ['key', 'summary'],
  item: ['item'],
  context_build: ['build'],
  reflection: ['record'],
  candidate: ['candidate'],
  insight: ['insight'],
  run_state: ['state'],
  ledger: ['run', 'entry'],
  snapshot: ['record'],
};

/** A line checked: valid JSON, a known kind with its fields, an event that is a valid record. */
function recordOf(line: string, number: number): ExportRecord {
  const field = `line ${number}`;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw ValidationError.of(field, 'json', 'is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw ValidationError.of(field, 'type', 'must be a JSON object');
  const record = value as Record<string, unknown>;
  const kind = record['kind'];
  if (typeof kind !== 'string' || !(EXPORT_KINDS as readonly string[]).includes(kind))
    throw ValidationError.of(`${field}.kind`, 'enum', `must be one of ${EXPORT_KINDS.join(', ')}`);
  for (const name of REQUIRED[kind as ExportKind]) {
    if (record[name] === undefined || record[name] === null)
      throw ValidationError.of(`${field}.${name}`, 'required', `a ${kind} record needs ${name}`);
  }
  if (kind === 'event') {
    validateEventRecord(record['event'], `${field}.event`);
  }
  checkImportedRecord(record, field);
  return record as unknown as ExportRecord;
}

/** The writes that store one imported record (and rebuild what derives from it). */
function opsOf(record: ExportRecord): WriteOp[] {
  switch (record.kind) {
    case 'event':
      return [{ op: 'append_event', event: record.event, search_text: analyseEvent(record.event).searchText }];
    case 'turn':
      return [{ op: 'insert_turn', key: record.key, turn_id: record.turn_id, result: record.result }];
    case 'working_state':
      return [
        {
          op: 'put_working_state',
          key: record.key,
          state: record.state,
          expected_version: 0,
          updated_at: record.updated_at,
        },
      ];
    case 'summary':
      return [{ op: 'put_summary', key: record.key, summary: withoutKeptCounts(record.summary), expected_version: 0 }];
    case 'item':
      return [{ op: 'put_item', item: record.item }, chunkOp(record.item)];
    case 'context_build':
      return [{ op: 'put_context_build', build: record.build }];
    case 'reflection':
      return [{ op: 'put_reflection', record: record.record }];
    case 'candidate':
      return [{ op: 'put_candidate', candidate: record.candidate }];
    case 'insight':
      return [{ op: 'put_insight', insight: record.insight, expected_version: null }];
    case 'run_state':
      return [{ op: 'put_run_state', state: record.state, expected_version: 0 }];
    case 'ledger':
      return [{ op: 'put_evidence', run: record.run, entries: [record.entry] }];
    case 'snapshot':
      return [{ op: 'put_snapshot', record: record.record }];
  }
}

/** Options of an import. */
export interface ImportOptions {
  /** The tenant every record is rewritten to (default `default`). */
  tenant_id?: string;
  /** The longest line read, in bytes (default 16 MiB, DEFAULT_MAX_LINE_BYTES); a longer one stops the import. */
  maxLineBytes?: number;
  /** After each batch is written: the records written so far, by kind. */
  onBatch?: (counts: TransferCounts) => void;
  /** For each record skipped because the store holds it already with the same content. */
  onSkip?: (kind: ExportKind) => void;
}

/** Checks the first line of an import: the header of an export this Engram reads. */
function checkHeader(line: string): void {
  let first: Partial<ExportHeader>;
  try {
    first = JSON.parse(line) as Partial<ExportHeader>;
  } catch {
    throw ValidationError.of('line 1', 'json', 'is not valid JSON (an export starts with its header line)');
  }
  if (typeof first !== 'object' || first === null || first.kind !== 'header' || first.format !== EXPORT_FORMAT)
    throw ValidationError.of('line 1', 'header', `must be the header of an ${EXPORT_FORMAT} file`);
  if (first.version !== EXPORT_VERSION)
    throw new EngramError(
      'VALIDATION_FAILED',
      `line 1: version ${String(first.version)} is not supported (this Engram reads version ${EXPORT_VERSION})`,
      { field: 'line 1.version' },
    );
}

/**
 * Imports an export into `tenant_id` (every record's tenant is rewritten to it): its bytes (a file
 * or request stream, cut into lines of at most `maxLineBytes`) or its lines. Records are written a
 * batch per transaction, each turn with its events; a bad line stops the import with a typed error
 * naming it (the batches before it stay written). Run again over the same file, an import skips
 * what the store holds already and writes the rest, so an interrupted import can be finished; a
 * record the store holds with other content is RECORD_CONFLICT naming its line. Returns the records
 * written, by kind.
 *
 * @example
 * const counts = await importLines(context, createReadStream('acme.jsonl'), { tenant_id: 'acme' });
 */
export async function importLines(
  context: TransferContext,
  input: ImportInput,
  options: ImportOptions = {},
): Promise<TransferCounts> {
  const tenantId = options.tenant_id ?? DEFAULT_TENANT;
  requireTenant(tenantId);
  const cap = lineCapOf(options.maxLineBytes);
  const counts: TransferCounts = {};
  const batch = new ImportBatch({
    storage: context.storage,
    now: context.now,
    opsOf,
    onWrite: (kind) => (counts[kind] = (counts[kind] ?? 0) + 1),
    onSkip: (kind) => options.onSkip?.(kind),
  });
  let number = 0;
  let header = false;
  for await (const raw of importLinesOf(input, cap)) {
    number += 1;
    const line = raw.trim();
    if (line === '') continue;
    if (!header) {
      checkHeader(line);
      header = true;
      continue;
    }
    batch.add(retenant(recordOf(line, number), tenantId), number, line.length);
    if (batch.ready()) {
      await batch.write();
      options.onBatch?.({ ...counts });
    }
  }
  if (!header) throw ValidationError.of('line 1', 'header', 'the file is empty: an export starts with its header line');
  await batch.write();
  options.onBatch?.({ ...counts });
  return counts;
}

/**
 * Erases a user, or one of their sessions, with everything derived from it (one transaction).
 *
 * @example
 * await erase(context, { user_id: 'mira' }); // { events: 120, memory_items: 14, … }
 */
export async function erase(
  context: TransferContext,
  scope: { tenant_id?: string; user_id: string; session_id?: string },
): Promise<EraseCounts> {
  if (typeof scope !== 'object' || scope === null) throw ValidationError.of('scope', 'type', 'must be an object');
  const tenantId = scope.tenant_id ?? DEFAULT_TENANT;
  requireTenant(tenantId);
  requireTenant(scope.user_id, 'user_id');
  if (scope.session_id !== undefined) requireTenant(scope.session_id, 'session_id');
  const target: EraseScope = {
    tenant_id: tenantId,
    user_id: scope.user_id,
    ...(scope.session_id === undefined ? {} : { session_id: scope.session_id }),
    at: context.now(),
  };
  return context.storage.maintenance.erase(target);
}

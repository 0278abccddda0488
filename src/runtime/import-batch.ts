// The transactions of an import. Records are gathered into a batch written in one transaction; a
// batch ends only where no turn is half-read, so a turn's events and its `turns` row land together
// (an export writes each turn right after its events). A batch the store already holds part of (an
// import run again after an interruption) is written without those records: see import-resume.ts.

import type { ExportKind, ExportRecord } from '../spec/export.js';
import type { SessionKey } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { entriesToWrite, type ImportEntry } from './import-resume.js';

/** Records a batch holds before it is written at the next turn boundary. */
export const IMPORT_BATCH = 500;
/** Characters of lines a batch holds before it is written at the next turn boundary. */
const IMPORT_BATCH_CHARS = 8 * 1024 * 1024;
/**
 * Past these a batch is written even inside a turn: only a file from before turns followed their
 * events (all turns after all events), or a store holding events whose turn was never recorded.
 */
const FORCED_RECORDS = IMPORT_BATCH * 10;
const FORCED_CHARS = IMPORT_BATCH_CHARS * 8;
/** Attempts at a checked batch when another writer stores the same records meanwhile. */
const CHECKED_ATTEMPTS = 3;

function turnKey(key: SessionKey, turnId: string): string {
  return JSON.stringify([key.user_id, key.agent_id, key.session_id, turnId]);
}

/** What a batch needs from the import: the store, the time, the ops of a record, the counters. */
export interface BatchContext {
  storage: StorageAdapter;
  now: () => string;
  opsOf: (record: ExportRecord) => WriteOp[];
  onWrite: (kind: ExportKind) => void;
  onSkip: (kind: ExportKind) => void;
}

/**
 * The records of an import not yet written.
 *
 * @example
 * const batch = new ImportBatch(context);
 * batch.add(record, 7, line.length);
 * if (batch.ready()) await batch.write();
 */
export class ImportBatch {
  private entries: ImportEntry[] = [];
  private chars = 0;
  /** Turns whose events the batch holds but whose record has not been read yet. */
  private readonly openTurns = new Set<string>();
  /** The last batch held records the store had already: check the next one before writing it. */
  private resuming = false;

  constructor(private readonly context: BatchContext) {}

  add(record: ExportRecord, line: number, chars: number): void {
    this.entries.push({ record, line });
    this.chars += chars;
    if (record.kind === 'event' && record.event.turn_id !== null)
      this.openTurns.add(turnKey(record.event, record.event.turn_id));
    else if (record.kind === 'turn') this.openTurns.delete(turnKey(record.key, record.turn_id));
  }

  /** True when the batch should be written now: large enough at a turn boundary, or far too large to wait for one. */
  ready(): boolean {
    if (this.entries.length >= FORCED_RECORDS || this.chars >= FORCED_CHARS) return true;
    return this.openTurns.size === 0 && (this.entries.length >= IMPORT_BATCH || this.chars >= IMPORT_BATCH_CHARS);
  }

  /** Writes the batch in one transaction (what the store holds already left out) and empties it. */
  async write(): Promise<void> {
    const entries = this.entries;
    this.entries = [];
    this.chars = 0;
    this.openTurns.clear();
    if (entries.length === 0) return;
    if (!this.resuming) {
      try {
        await this.store(entries);
        return;
      } catch {
        // Some of these records may be there already (the file was imported before, in part or
        // whole): the checked write below tells which, and fails with the real error otherwise.
      }
    }
    for (let attempt = 1; ; attempt += 1) {
      const { fresh, skipped } = await entriesToWrite(this.context.storage, entries, this.context.now());
      try {
        await this.store(fresh);
        for (const { record } of skipped) this.context.onSkip(record.kind);
        this.resuming = skipped.length > 0;
        return;
      } catch (error) {
        // Another writer stored some of them between the check and the write: check again.
        if (attempt >= CHECKED_ATTEMPTS) throw error;
      }
    }
  }

  private async store(entries: readonly ImportEntry[]): Promise<void> {
    if (entries.length > 0)
      await this.context.storage.write(entries.flatMap(({ record }) => this.context.opsOf(record)));
    for (const { record } of entries) this.context.onWrite(record.kind);
  }
}

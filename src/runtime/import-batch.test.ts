import { describe, expect, it } from 'vitest';

import type { ExportRecord } from '../spec/export.js';
import type { CommitTurnResult } from '../spec/requests.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { IMPORT_BATCH, ImportBatch } from './import-batch.js';

const key = { tenant_id: 't', user_id: 'u', agent_id: 'a', session_id: 's' };

function event(id: number, turn: string | null): ExportRecord {
  return { kind: 'event', event: { ...key, id: `evt_${id}`, turn_id: turn } } as unknown as ExportRecord;
}

function turn(turnId: string): ExportRecord {
  return { kind: 'turn', key, turn_id: turnId, result: { turn_id: turnId } as CommitTurnResult };
}

/** A batch over a store that records each write as the records it held (one op a record). */
function recordingBatch(): { batch: ImportBatch; writes: ExportRecord[][] } {
  const writes: ExportRecord[][] = [];
  const storage = {
    write: async (ops: readonly WriteOp[]) =>
      void writes.push(ops.map((op) => (op as unknown as { record: ExportRecord }).record)),
  } as unknown as StorageAdapter;
  const batch = new ImportBatch({
    storage,
    now: () => '2026-06-01T12:00:00.000Z',
    opsOf: (record) => [{ op: 'recorded', record } as unknown as WriteOp],
    onWrite: () => undefined,
    onSkip: () => undefined,
  });
  return { batch, writes };
}

async function feed(batch: ImportBatch, records: readonly ExportRecord[]): Promise<void> {
  for (const [index, record] of records.entries()) {
    batch.add(record, index + 2, 100);
    if (batch.ready()) await batch.write();
  }
  await batch.write();
}

describe('ImportBatch', () => {
  it('ends a batch only after the turn whose events it holds, past the batch size', async () => {
    const { batch, writes } = recordingBatch();
    const records: ExportRecord[] = [];
    for (let index = 0; index < 700; index += 1)
      records.push(event(index * 2, `t${index}`), event(index * 2 + 1, `t${index}`), turn(`t${index}`));
    await feed(batch, records);
    expect(writes.flat()).toEqual(records);
    // Each write ends with a turn record and holds at least a batch, but the last.
    for (const write of writes) expect(write.at(-1)!.kind).toBe('turn');
    for (const write of writes.slice(0, -1)) expect(write.length).toBeGreaterThanOrEqual(IMPORT_BATCH);
    expect(writes.length).toBe(Math.floor(2100 / 501) + 1);
  });

  it('writes a file whose turns all come after all events in bounded batches, ten batch sizes at most', async () => {
    const { batch, writes } = recordingBatch();
    const records: ExportRecord[] = [];
    for (let index = 0; index < 6000; index += 1) records.push(event(index, `t${index}`));
    for (let index = 0; index < 6000; index += 1) records.push(turn(`t${index}`));
    await feed(batch, records);
    expect(writes.flat()).toHaveLength(12_000);
    expect(Math.max(...writes.map((write) => write.length))).toBe(IMPORT_BATCH * 10);
  });

  it('writes events of no turn as they come, a batch at a time', async () => {
    const { batch, writes } = recordingBatch();
    await feed(
      batch,
      Array.from({ length: 1200 }, (_, index) => event(index, null)),
    );
    expect(writes.map((write) => write.length)).toEqual([500, 500, 200]);
  });
});

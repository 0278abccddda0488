// Huge lines sent to a real `engram serve` (SQLite): an import whose second line is one line of
// 64, 300 and 700 MiB (quick; ENGRAM_RELIABILITY_LONG=1 adds one of 1,023 MiB, nearly the import limit), made
// as it is sent. Each is refused with 400 naming the line and the limit, the server keeps answering,
// and its memory (the peak and what it holds afterwards, from /proc) grows by at most a few line
// limits, never by the line.

import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEngram, type EngramProcess } from '../helpers/engram-process.js';
import { sqliteStore } from '../helpers/stores.js';
import { streamUpload } from '../helpers/stream-upload.js';
import { recordOutcome } from './results.js';

const LONG = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
const MiB = 1024 * 1024;
const SIZES_MIB = LONG ? [64, 300, 700, 1023] : [64, 300, 700];
const LINE_LIMIT = 16 * MiB;
/** What the server may grow by, at its peak and after: a few line limits and socket buffers. */
const PEAK_BUDGET_MB = 160;
const AFTER_BUDGET_MB = 100;

/** The resident memory of a process now and at its peak, in MB (from /proc). */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) / 1024;
  return { rss: Math.round(kib('VmRSS')), peak: Math.round(kib('VmHWM')) };
}

/** The header line, then one line of `mib` MiB begun as an event record, made chunk by chunk. */
async function* hugeLine(header: string, mib: number): AsyncGenerator<Buffer> {
  yield Buffer.from(`${header}\n{"kind":"event","event":{"content":"`);
  const chunk = Buffer.alloc(MiB, 0x61);
  for (let sent = 0; sent < mib; sent += 1) yield chunk;
}

describe('huge lines sent to engram serve', () => {
  const store = sqliteStore('hugelines');
  let server: EngramProcess;
  let base: string;
  let key: string;
  const figures: Record<string, unknown> = {};
  const outcomes: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    server = startEngram([
      '--store',
      store.address(),
      'serve',
      '--port',
      '0',
      '--quiet',
      '--no-worker',
      '--no-inspector',
    ]);
    [, base] = (await server.waitFor(/API\s+(http:\S+)\/v1/)) as [string, string];
    key = (await server.waitFor(/admin key \(shown once, tenant "default"\): (\S+)/))[1]!;
  }, 120_000);

  afterAll(async () => {
    await server.stop();
    await store.cleanup();
    recordOutcome('huge-lines', figures);
  });

  it(`refuses lines of ${SIZES_MIB.join(', ')} MiB by number, keeps answering, and gives its memory back`, async () => {
    const header = JSON.stringify({
      kind: 'header',
      format: 'engram-export',
      version: 1,
      tenant_id: 'default',
      user_id: null,
      exported_at: '2026-06-01T12:00:00.000Z',
    });
    const pid = server.child.pid!;
    // A small import first, so the baseline includes a warm import path.
    expect((await streamUpload(`${base}/v1/import`, [`${header}\n`], { key })).status).toBe(200);
    const baseline = memoryOf(pid);
    for (const mib of SIZES_MIB) {
      const result = await streamUpload(`${base}/v1/import`, hugeLine(header, mib), { key });
      const health = await fetch(`${base.replace(/\/v1$/, '')}/healthz`).then(
        (response) => response.status,
        () => 0,
      );
      // Let the collector run: the held bytes are garbage once the answer is sent.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const memory = memoryOf(pid);
      outcomes.push({
        line_mib: mib,
        status: result.status,
        field: result.body?.['field'] ?? null,
        sent_mib: Math.round(result.sent / MiB),
        answered_ms: result.elapsedMs,
        healthz_after: health,
        rss_peak_growth_mb: memory.peak - baseline.peak,
        rss_after_growth_mb: memory.rss - baseline.rss,
      });
      expect(result.body, `${mib} MiB`).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'line 2' });
      expect(String(result.body!['detail'])).toContain(`${LINE_LIMIT} bytes`);
      expect(health, `${mib} MiB: /healthz after`).toBe(200);
      expect(memory.peak - baseline.peak, `${mib} MiB: peak growth`).toBeLessThan(PEAK_BUDGET_MB);
      expect(memory.rss - baseline.rss, `${mib} MiB: held after`).toBeLessThan(AFTER_BUDGET_MB);
    }
    // The server still imports.
    expect((await streamUpload(`${base}/v1/import`, [`${header}\n`], { key })).status).toBe(200);
    const refused = outcomes.filter((outcome) => outcome['status'] === 400).length;
    figures['sqlite'] = {
      requests: outcomes.length,
      line_limit_mib: LINE_LIMIT / MiB,
      baseline_rss_mb: baseline.rss,
      unrefused_lines: outcomes.length - refused,
      health_errors: outcomes.filter((outcome) => outcome['healthz_after'] !== 200).length,
      rss_over_budget: outcomes.filter(
        (outcome) =>
          (outcome['rss_peak_growth_mb'] as number) >= PEAK_BUDGET_MB ||
          (outcome['rss_after_growth_mb'] as number) >= AFTER_BUDGET_MB,
      ).length,
      lines: outcomes,
    };
  }, 300_000);
});

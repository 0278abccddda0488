import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../../test/helpers/openai-compatible-server.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { startBackgroundWorker } from './background-worker.js';

describe('background worker', () => {
  let server: OpenAiCompatibleServer;
  let t: TempEngram;
  beforeEach(async () => {
    server = await startOpenAiCompatibleServer();
    t = await tempEngram('2026-06-01T12:00:00.000Z', {
      embeddings: { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'test-embed' },
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await server.close();
  });

  it('embeds what waits and purges expired events, and stops after the tick in flight', async () => {
    const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: 'I prefer tea in the morning.' },
        { role: 'user', content: 'temporary note', expires_at: '2026-06-01T12:00:01.000Z' },
      ],
    });
    expect(await t.engram.maintenance.embeddingBacklog()).toBeGreaterThan(0);
    t.clock.advance(10_000);
    const ticks: number[] = [];
    const worker = startBackgroundWorker(t.engram, {
      intervalMs: 20,
      purgeEveryMs: 1,
      onTick: (report) => ticks.push(report.embedded + report.purged),
    });
    for (
      let waited = 0;
      waited < 5000 && (worker.totals.purged === 0 || (await t.engram.maintenance.embeddingBacklog()) > 0);
      waited += 50
    )
      await new Promise((resolve) => setTimeout(resolve, 50));
    await worker.stop();
    expect(await t.engram.maintenance.embeddingBacklog()).toBe(0);
    expect(worker.totals).toMatchObject({ purged: 1, errors: 0 });
    expect(worker.totals.embedded).toBeGreaterThan(0);
    expect(server.requests.some((request) => request.path.endsWith('/embeddings'))).toBe(true);
    const after = ticks.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ticks.length).toBe(after);
  });

  it('merges the full-text indexes in quiet ticks until nothing is left to merge', async () => {
    const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
    for (let turn = 0; turn < 5; turn += 1) {
      await t.engram.commitTurn({
        scope,
        turn_id: `t${turn}`,
        messages: [{ role: 'user', content: `The quince order number ${turn} ships on Friday.` }],
      });
    }
    const found = async () =>
      (await t.engram.events.search({ scope: { user_id: 'u' }, query: 'quince order', limit: 10 })).map(
        (hit) => hit.event.id,
      );
    const before = await found();
    expect(before).toHaveLength(5);
    const worker = startBackgroundWorker(t.engram, { intervalMs: 10, purgeEveryMs: 0 });
    const quiet = async () => {
      const seen = worker.totals.merged;
      await new Promise((resolve) => setTimeout(resolve, 150));
      return worker.totals.merged === seen;
    };
    for (let waited = 0; waited < 5000 && (worker.totals.merged === 0 || !(await quiet())); waited += 150)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await worker.stop();
    expect(worker.totals.merged).toBeGreaterThan(0);
    expect(worker.totals.errors).toBe(0);
    expect(await found()).toEqual(before);
    // Merged: a step has nothing left to do.
    expect(await t.engram.maintenance.mergeIndexes()).toBe(false);
    await expect(t.engram.maintenance.mergeIndexes(0)).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'pages',
    });
    expect(() => startBackgroundWorker(t.engram, { mergePages: 1.5 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'mergePages' }),
    );
  });

  it('reflects over a run once it has ended, once', async () => {
    const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 't2',
      messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }],
      markers: ['RUN_END'],
    });
    await t.engram.commitTurn({ scope, turn_id: 't3', markers: ['RUN_END'] });
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 1, failed: 0, retried: 0 });
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 0 });
    const candidates = await t.engram.review.list({ scope: { user_id: 'u' } });
    expect(candidates.some((candidate) => candidate.memory_type === 'affective')).toBe(true);
    expect(new Set(candidates.map((candidate) => candidate.trace_id)).size).toBe(1);
    // A run whose events are gone cannot be reflected: recorded as failed, not retried for ever.
    await t.engram.commitTurn({
      scope: { ...scope, run_id: 'gone' },
      turn_id: 'g1',
      messages: [{ role: 'user', content: 'short-lived', expires_at: '2026-06-01T12:00:00.500Z' }],
      markers: ['RUN_END'],
    });
    t.clock.advance(60_000);
    await t.engram.maintenance.purgeExpired();
    const markerOnly = await t.engram.maintenance.runJobs();
    expect(markerOnly.done + markerOnly.failed).toBe(1);
  });
});

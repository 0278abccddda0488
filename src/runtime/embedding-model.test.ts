import { describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import type { EmbeddingModel } from '../spec/providers.js';
import { resolveConfig } from './config.js';
import { createEngram, Engram } from './engram.js';

/** A two-dimensional test model whose every vector is [1, 0]; `before` runs first on each call (to count, record or fail). */
function testModel(
  modelId: string,
  maxBatchSize: number,
  before: (call: Parameters<EmbeddingModel['doEmbed']>[0]) => void = () => undefined,
  extra: Partial<EmbeddingModel> = {},
): EmbeddingModel {
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId,
    dimensions: 2,
    maxBatchSize,
    remote: false,
    doEmbed: async (call) => {
      before(call);
      return { embeddings: call.values.map(() => new Float32Array([1, 0])) };
    },
    ...extra,
  };
}

describe('Engram and its embedding model', () => {
  it('embeds its backlog in the background lane and a search query in the interactive one', async () => {
    const priorities: string[] = [];
    const model = testModel('lanes', 8, ({ priority }) => {
      priorities.push(priority ?? 'interactive (default)');
    });
    const engram = await createEngram({ store: 'sqlite::memory:', embeddings: model });
    try {
      const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
      await engram.commitTurn({
        scope,
        turn_id: 't1',
        messages: [{ role: 'user', content: 'I prefer green tea in the morning.' }],
      });
      expect((await engram.maintenance.runEmbeddings()).embedded).toBeGreaterThan(0);
      expect(new Set(priorities)).toEqual(new Set(['background']));
      priorities.length = 0;
      await engram.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'what do I drink?' });
      expect(priorities).toEqual(['interactive (default)']);
    } finally {
      await engram.close();
    }
  });

  it('gives the event loop back between batches of its backlog, however fast the model answers', async () => {
    let batches = 0;
    // Answers at once, as the static model does for short texts: only the worker can pause.
    const model = testModel('instant', 4, () => {
      batches += 1;
    });
    const engram = await createEngram({ store: 'sqlite::memory:', embeddings: model });
    try {
      const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
      await engram.commitTurns(
        Array.from({ length: 24 }, (_, index) => ({
          scope,
          turn_id: `t${index}`,
          messages: [{ role: 'user' as const, content: `note ${index}` }],
        })),
      );
      // A callback that waits its turn on the event loop, again and again while the backlog runs.
      let turns = 0;
      let running = true;
      const spin = () => {
        turns += 1;
        if (running) setImmediate(spin);
      };
      setImmediate(spin);
      const run = await engram.maintenance.runEmbeddings();
      running = false;
      expect(run.embedded).toBeGreaterThanOrEqual(24);
      expect(batches).toBeGreaterThanOrEqual(6);
      expect(turns).toBeGreaterThanOrEqual(batches - 1);
    } finally {
      await engram.close();
    }
  });

  it('closes the local model it created from its configuration: its thread is stopped', async () => {
    const resolved = await resolveConfig({ store: 'sqlite::memory:', embeddings: { provider: 'local' } });
    expect(resolved.ownsEmbeddings).toBe(true);
    const engram = new Engram(resolved);
    await expect(resolved.embeddings!.doEmbed({ values: ['before close'] })).resolves.toMatchObject({
      embeddings: [expect.any(Float32Array)],
    });
    await engram.close();
    const error = await resolved.embeddings!.doEmbed({ values: ['after close'] }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(EngramError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'embeddings',
      message: 'this embedding model is closed',
    });
  }, 120_000);

  it('leaves a model it was given to its owner', async () => {
    let closed = 0;
    const model = testModel('constant', 8, undefined, {
      close: async () => {
        closed += 1;
      },
    });
    expect((await resolveConfig({ store: 'sqlite::memory:', embeddings: model })).ownsEmbeddings).toBe(false);
    const engram = await createEngram({ store: 'sqlite::memory:', embeddings: model });
    await engram.close();
    expect(closed).toBe(0);
    await expect(model.doEmbed({ values: ['still mine'] })).resolves.toMatchObject({
      embeddings: [expect.any(Float32Array)],
    });
  });

  it('searches by words alone when the model is too busy to take the query, and fails on any other model error', async () => {
    let failure: EngramError | null = null;
    const model = testModel('busy', 8, () => {
      if (failure !== null) throw failure;
    });
    const engram = await createEngram({ store: 'sqlite::memory:', embeddings: model });
    try {
      const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
      await engram.commitTurn({
        scope,
        turn_id: 't1',
        messages: [{ role: 'user', content: 'I prefer green tea in the morning.' }],
      });
      await engram.maintenance.runEmbeddings();
      failure = new EngramError('OVERLOADED', 'queue full', { field: 'embeddings' });
      const hits = await engram.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'green tea' });
      expect(hits.length).toBeGreaterThan(0);
      failure = new EngramError('INTERNAL', 'model broke', { field: 'embeddings' });
      await expect(
        engram.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'green tea please' }),
      ).rejects.toMatchObject({ code: 'INTERNAL' });
    } finally {
      await engram.close();
    }
  });
});

// The storage conformance suite on the in-memory adapter (test/in-memory/), each test on a fresh
// store, and the adapter serving createEngram. Its word indexes are whole after every write, so it
// declares it has no index merging to do.

import { describe, expect, it } from 'vitest';

import { createEngram, textTokenCounter } from '../src/index.js';
import { describeStorageConformance } from '../src/testing/index.js';
import { openInMemoryStorage } from './in-memory/in-memory-storage.js';

describeStorageConformance('in-memory', {
  create: async (options = {}) => openInMemoryStorage(options),
  destroy: (storage) => storage.close(),
  mergesIndexes: false,
});

describe('the in-memory adapter under createEngram', () => {
  it('keeps what a turn commits: its event found by its words, its item composed into a packet', async () => {
    const engram = await createEngram({
      store: openInMemoryStorage({ textTokens: textTokenCounter() }),
      embeddings: { provider: 'none' },
    });
    try {
      const scope = { user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' };
      const committed = await engram.commitTurn({
        scope,
        turn_id: 't1',
        messages: [{ role: 'user', content: 'I prefer green tea over coffee.' }],
      });
      const created = committed.items.map((diff) => diff.item_id);
      expect(created).not.toHaveLength(0);
      const packet = await engram.compose({ scope, purpose: 'planner' });
      expect(packet.long_term.facts.map((fact) => fact.fact_id)).toEqual(expect.arrayContaining(created));
      expect(await engram.events.search({ scope: { user_id: 'u1' }, query: 'green tea', limit: 5 })).toHaveLength(1);
    } finally {
      await engram.close();
    }
  });
});

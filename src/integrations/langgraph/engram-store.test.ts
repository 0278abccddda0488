import { storeConformance } from '../../../test/langgraph-store-conformance.js';
import { tempEngram } from '../../../test/helpers/temp-engram.js';
import { EngramStore } from './engram-store.js';

storeConformance('library', async () => {
  const t = await tempEngram();
  return {
    store: new EngramStore({ engram: t.engram, agentId: 'assistant' }),
    engram: t.engram,
    advance: (ms) => t.clock.advance(ms),
    destroy: t.cleanup,
  };
});

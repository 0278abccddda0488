import { createClient } from '../../client/index.js';
import { storeConformance } from '../../../test/langgraph-store-conformance.js';
import { serveEngram } from '../../../test/helpers/served-engram.js';
import { tempEngram } from '../../../test/helpers/temp-engram.js';
import { EngramStore } from './engram-store.js';

storeConformance('HTTP client', async () => {
  const t = await tempEngram();
  const served = await serveEngram(t.engram, { auth: 'none' }, t.cleanup);
  const client = createClient({ baseUrl: served.url, apiKey: 'egk_unused' });
  return {
    store: new EngramStore({ engram: client, agentId: 'assistant' }),
    engram: t.engram,
    advance: (ms) => t.clock.advance(ms),
    destroy: served.close,
  };
});

import { createClient } from '../../client/index.js';
import { sessionConformance } from '../../../test/openai-agents-session-conformance.js';
import { serveEngram } from '../../../test/helpers/served-engram.js';
import { tempEngram } from '../../../test/helpers/temp-engram.js';

sessionConformance('HTTP client', async () => {
  const t = await tempEngram();
  const served = await serveEngram(t.engram, { auth: 'none' }, t.cleanup);
  return {
    source: createClient({ baseUrl: served.url, apiKey: 'egk_unused' }),
    engram: t.engram,
    destroy: served.close,
  };
});

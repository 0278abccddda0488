import { sessionConformance } from '../../../test/openai-agents-session-conformance.js';
import { tempEngram } from '../../../test/helpers/temp-engram.js';

sessionConformance('library', async () => {
  const t = await tempEngram();
  return { source: t.engram, engram: t.engram, destroy: t.cleanup };
});

// An MCP server over stdio for tests: an Engram on the SQLite file named by the first argument,
// served to an admin of tenant `default` until stdin closes, then closed cleanly.
//
//   node --import tsx test/helpers/mcp-stdio-server.ts /tmp/x/engram.db

import { createEngram } from '../../src/index.js';
import { runMcpStdio } from '../../src/mcp/index.js';

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write('usage: mcp-stdio-server.ts <sqlite file>\n');
  process.exit(2);
}
const engram = await createEngram({ store: `sqlite:${path}`, embeddings: { provider: 'none' } });
await runMcpStdio(
  engram,
  { key_id: 'key_stdio', tenant_id: 'default', role: 'admin' },
  { onError: (error) => process.stderr.write(`${String(error)}\n`) },
);
await engram.close();

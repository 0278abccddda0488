// An Engram served over real loopback HTTP for a test: the server's address, and one close that
// stops the server, then the Engram, then whatever the store needs to go away.

import type { Engram } from '../../src/index.js';
import { createServer, listen, type ServerOptions } from '../../src/server/index.js';

export interface ServedEngram {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `engram` on 127.0.0.1 (a free port, no logs); `close` stops the server, closes the Engram
 * and runs `cleanup` (e.g. the store's).
 *
 * @example
 * const served = await serveEngram(engram, { auth: 'none' }, () => store.cleanup());
 */
export async function serveEngram(
  engram: Engram,
  options: Partial<ServerOptions> & Pick<ServerOptions, 'auth'>,
  cleanup: () => Promise<void> | void = () => undefined,
): Promise<ServedEngram> {
  const app = await createServer(engram, { host: '127.0.0.1', logger: false, ...options });
  const url = await listen(app, { port: 0 });
  return {
    url,
    async close() {
      await app.close();
      await engram.close();
      await cleanup();
    },
  };
}

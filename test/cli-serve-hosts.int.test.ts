// `engram serve --allowed-host` as a user runs it: a real process whose Host check accepts its
// loopback names and the names given, and refuses every other (DNS rebinding), with auth off.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { startEngram } from './helpers/engram-process.js';
import { send } from './server/raw-http.js';

const folder = mkdtempSync(join(tmpdir(), 'engram-serve-hosts-'));
const store = `sqlite:${join(folder, 'engram.db')}`;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('engram serve --allowed-host', () => {
  it('serves its own and the allowed names, and answers any other Host 421 MISDIRECTED_REQUEST', async () => {
    const server = startEngram([
      '--store',
      store,
      'serve',
      '--port',
      '0',
      '--quiet',
      '--no-worker',
      '--no-auth',
      '--allowed-host',
      'engram.example,Proxy.Example',
    ]);
    try {
      const [, api] = await server.waitFor(/API\s+(http:\S+)\/v1/);
      const port = new URL(api!).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'engram.example', 'proxy.example:443']) {
        expect((await send(api!, 'GET', '/v1/export', { host })).status, host).toBe(200);
      }
      const refused = await send(api!, 'GET', '/v1/export', { host: 'attacker.example' });
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 421, code: 'MISDIRECTED_REQUEST', field: 'host' });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
